import type { ServerBuild } from "react-router";

/** The label of a request no route of ours answers (React Router's catch-all 404 page included). */
export const UNMATCHED_ROUTE = "unmatched";

interface Node {
  literal: Map<string, Node>;
  parameter?: Node;
  /** The pattern of a route ending at this node. */
  pattern?: string;
  /** The pattern of a splat route (`/api/auth/*`) whose fixed part ends at this node. */
  splat?: string;
}

const node = (): Node => ({ literal: new Map() });

/**
 * Names a request by the pattern of the route that answers it (`/play/:slug/:storyId`), never by
 * its URL: the label set of a metric stays as small as the route table, whatever a crawler asks
 * for. Built once from the route table; a lookup walks the path's segments through a tree, literal
 * segments before parameters before splats, as React Router ranks them (and, like it, ignoring
 * letter case and trailing slashes).
 */
export class RoutePatterns {
  readonly #root = node();

  /** `patterns` are full paths: `/games`, `/game/:slug?`, `/assets/*`. A lone `*` is the catch-all and stays unmatched. */
  constructor(patterns: Iterable<string>) {
    for (const pattern of patterns) for (const expanded of expandOptional(pattern)) this.#add(expanded, pattern);
  }

  /** The full path of every route in a React Router build. */
  static fromBuild(routes: ServerBuild["routes"]): string[] {
    const fullPath = (id: string | undefined): string => {
      const route = id ? routes[id] : undefined;
      if (!route) return "";
      const parent = fullPath(route.parentId);
      return route.path ? `${parent}/${route.path}` : parent;
    };
    return Object.values(routes).flatMap((route) => (route && (route.path || route.index) ? [fullPath(route.id) || "/"] : []));
  }

  match(pathname: string): string {
    return find(this.#root, segmentsOf(pathname), 0) ?? UNMATCHED_ROUTE;
  }

  #add(path: string, pattern: string) {
    const segments = segmentsOf(path);
    if (segments[0] === "*") return;
    let at = this.#root;
    for (const segment of segments) {
      if (segment === "*") {
        at.splat = normalise(pattern);
        return;
      }
      if (segment.startsWith(":")) {
        at.parameter ??= node();
        at = at.parameter;
      } else {
        const key = segment.toLowerCase();
        let next = at.literal.get(key);
        if (!next) {
          next = node();
          at.literal.set(key, next);
        }
        at = next;
      }
    }
    at.pattern = normalise(pattern);
  }
}

function find(at: Node, segments: string[], index: number): string | undefined {
  if (index === segments.length) return at.pattern ?? at.splat;
  const segment = segments[index] ?? "";
  const literal = at.literal.get(segment.toLowerCase());
  return (literal && find(literal, segments, index + 1)) ?? (at.parameter && find(at.parameter, segments, index + 1)) ?? at.splat;
}

function segmentsOf(path: string): string[] {
  return path.split("/").filter(Boolean);
}

function normalise(pattern: string): string {
  return `/${segmentsOf(pattern).join("/")}`;
}

/** `/games/category/:category?` is both `/games/category` and `/games/category/:category`. */
function expandOptional(pattern: string): string[] {
  let paths: string[][] = [[]];
  for (const segment of segmentsOf(pattern)) {
    const required = segment.endsWith("?") ? segment.slice(0, -1) : undefined;
    paths = required ? paths.flatMap((path) => [path, [...path, required]]) : paths.map((path) => [...path, segment]);
  }
  return paths.map((path) => `/${path.join("/")}`);
}
