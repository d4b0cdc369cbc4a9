/**
 * How the browser build is cut into files, so that a first visit to a public page fetches a few
 * scripts instead of forty (docs/decisions/027).
 */
import { readFile } from "node:fs/promises";
import type { Plugin, Rolldown } from "vite";

/**
 * Pages a visitor finds through a search engine or a shared link, and so often opens first.
 * Everything else (play, stories, credits, auth, admin) is reached from them.
 */
const LANDING_ROUTES = new Set([
  "home",
  "games",
  "games-category",
  "game",
  "game-guide",
  "game-tips",
  "guides",
  "guide",
  "blog",
  "blog-post",
  "about",
  "contact",
  "legal",
  "not-found",
]);

/** "root", "home", "api/game-chat"… for a route module; the client entry counts as root (every page runs it). */
function routeName(id: string): string | undefined {
  const [path = id] = id.split("?");
  if (/[\\/]entry\.client\.tsx$/.test(path)) return "root";
  return /[\\/]app[\\/](?:routes[\\/](.+)|(root))\.tsx?$/.exec(path)?.slice(1).find(Boolean);
}

/**
 * The chunk a module belongs to (rolldown's `codeSplitting.groups[].name`), decided by which routes
 * import it statically: what every page runs, or what two landing pages share, travels in two
 * chunks, `framework` (the libraries every page runs) and `site` (our code, the icons and the
 * rest). Rolldown's own splitting makes one chunk per set of importing routes, which here meant
 * about 40 files of 1–3 KB on a first visit. Route modules keep their own chunk with the code only
 * they use; code only other pages import (Radix dialogs, the markdown renderer, play, admin) and
 * lazy imports (sonner) stay out of both.
 */
export function firstLoadChunk(moduleId: string, context: Rolldown.ChunkingContext): string | null {
  if (routeName(moduleId) !== undefined) return null;
  const routes = routesImporting(moduleId, context);
  const everyPage = routes.has("root");
  // A module of one landing page alone stays in that page's chunk; shared with any other route,
  // it would make a chunk of its own that the landing page fetches too.
  const landing = [...routes].some((route) => LANDING_ROUTES.has(route));
  if (!everyPage && !(landing && routes.size > 1)) return null;
  const library = /[\\/]node_modules[\\/]/.test(moduleId) && !/[\\/]lucide-react[\\/]/.test(moduleId);
  return library && everyPage ? "framework" : "site";
}

/** The routes from whose module a chain of static imports leads to `moduleId`. */
function routesImporting(moduleId: string, context: Rolldown.ChunkingContext): Set<string> {
  const routes = new Set<string>();
  const seen = new Set<string>();
  const pending = [moduleId];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const route = id === moduleId ? undefined : routeName(id);
    if (route) routes.add(route);
    else pending.push(...(context.getModuleInfo(id)?.importers ?? []));
  }
  return routes;
}

/**
 * Points `import { Crown } from "lucide-react"` at the icon's own module
 * (`lucide-react/icons/crown`), as Next.js's optimizePackageImports does. Through lucide's index,
 * which re-exports every icon, each icon looks imported by every module that imports any icon, so
 * `firstLoadChunk` would put every icon of the site in the first load.
 */
export function lucideIconImports(): Plugin {
  let iconFiles: Promise<Map<string, string>> | undefined;
  return {
    name: "lucide-icon-imports",
    apply: "build",
    enforce: "post",
    applyToEnvironment: (environment) => environment.name === "client",
    async transform(code, id) {
      if (!code.includes("lucide-react") || id.includes("node_modules")) return null;
      iconFiles ??= this.resolve("lucide-react").then((index) => readIconIndex(index?.id));
      const files = await iconFiles;
      const rewritten = code.replace(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["'];?/g, (statement, list: string) => {
        const names = list
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean)
          .map((name) => {
            const [imported, local = imported] = name.split(/\s+as\s+/) as [string, string?];
            return { imported, local, file: files.get(imported) };
          });
        if (names.some(({ file }) => file === undefined)) return statement;
        return names.map(({ local, file }) => `import ${local} from "lucide-react/icons/${file}";`).join("\n");
      });
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}

/** Export name → icon file name, from lines `export { default as Crown, default as CrownIcon } from './icons/crown.mjs';`. */
async function readIconIndex(indexPath: string | undefined): Promise<Map<string, string>> {
  if (!indexPath) throw new Error("lucide-icon-imports: lucide-react does not resolve");
  const files = new Map<string, string>();
  for (const [, list = "", file = ""] of (await readFile(indexPath, "utf8")).matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs';/g)) {
    for (const [, name = ""] of list.matchAll(/default as (\w+)/g)) files.set(name, file);
  }
  if (files.size === 0) throw new Error(`lucide-icon-imports: no icons found in ${indexPath}`);
  return files;
}
