/**
 * Where a server process spent its time, from a V8 CPU profile (`node --cpu-prof`): each sample
 * taken inside the given windows is put to the first part of the stack, from the running function
 * down, that says whose work it is — the database driver, React Router, Express and its
 * middleware, logging, the site's own code… Node's shared plumbing (streams, events, timers) counts
 * for whoever it ran for. Socket writes are kept apart, by where they go: on a busy machine a
 * write wakes the process reading it, and the writer's time in that system call includes waiting
 * for a core.
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock (process.hrtime's, in µs). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A window of the monotonic clock, in microseconds (process.hrtime.bigint() / 1000n). */
export interface ProfileWindow {
  from: number;
  to: number;
}

export interface ProfileShare {
  part: string;
  /** Milliseconds of samples put to this part. */
  ms: number;
}

const SOCKET_WRITES = new Set(["writev", "writeUtf8String", "writeBuffer", "writeLatin1String", "writeAsciiString", "writeUcs2String"]);

/** Whose work a frame is, by its script, or undefined for Node's shared plumbing. */
const OWNERS: [RegExp, string][] = [
  [/node_modules\/(pg|pg-protocol|pg-pool|pg-types|drizzle-orm)\//, "database driver (pg, Drizzle)"],
  [/node_modules\/(react-router|@react-router\/[^/]+)\//, "React Router (matching, the handler)"],
  [
    /node_modules\/(express|router|pino-http|helmet|compression|serve-static|on-headers|on-finished|proxy-addr|finalhandler|send|ipaddr\.js)\//,
    "Express and its middleware",
  ],
  [/node_modules\/(pino|sonic-boom|@pinojs\/[^/]+|pino-std-serializers)\//, "logging (pino)"],
  [/node_modules\/(zod)\//, "validation (zod)"],
  [/node_modules\/(prom-client)\//, "metrics (prom-client)"],
  [/node_modules\/(better-auth|@better-auth\/[^/]+|better-call)\//, "sessions (better-auth)"],
  [/node_modules\/(eventsource-parser|@ai-sdk\/[^/]+|ai)\/|node:_http_client|node:_http_agent/, "the model's client (node:http, the SDK)"],
  [/node:internal\/deps\/undici|node:internal\/webstreams/, "web Request and streams (undici)"],
  [/node:_http_server|node:_http_common|node:_http_incoming|node:_http_outgoing|node:http$/, "Node's HTTP server"],
  [/\/build\/server\/|\/server\/[^/]+\.ts$/, "the site's own code (edge, routes, the turn, the context)"],
];

function ownerOf(frame: CallFrame): string | undefined {
  if (!frame.url) return undefined;
  return OWNERS.find(([pattern]) => pattern.test(frame.url))?.[1];
}

/** The parts of the busy time inside `windows`, largest first, and the busy and idle totals. */
export function profileShares(file: string, windows: ProfileWindow[]) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const stackOf = (id: number) => {
    const stack: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) stack.push(nodes.get(at)!.callFrame);
    return stack;
  };
  const partOf = (stack: CallFrame[]) => {
    const [leaf] = stack;
    if (leaf?.functionName === "(garbage collector)") return "garbage collection";
    const owner = stack.map(ownerOf).find(Boolean);
    if (leaf && SOCKET_WRITES.has(leaf.functionName)) {
      if (owner === "database driver (pg, Drizzle)") return "socket writes to PostgreSQL (system calls)";
      if (owner === "the model's client (node:http, the SDK)") return "socket writes to the model (system calls)";
      return "socket writes to players (system calls)";
    }
    return owner ?? "Node's plumbing (microtasks, timers, streams), unattributed";
  };

  const parts = new Map<string, number>();
  let busyMs = 0;
  let idleMs = 0;
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (!windows.some((window) => at >= window.from && at < window.to)) continue;
    const stack = stackOf(profile.samples[index]!);
    if (stack[0]?.functionName === "(idle)") {
      idleMs += delta / 1000;
      continue;
    }
    const part = partOf(stack);
    parts.set(part, (parts.get(part) ?? 0) + delta / 1000);
    busyMs += delta / 1000;
  }
  const shares: ProfileShare[] = [...parts].map(([part, ms]) => ({ part, ms })).sort((a, b) => b.ms - a.ms);
  return { shares, busyMs, idleMs };
}
