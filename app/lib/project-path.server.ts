import { existsSync } from "node:fs";
import path from "node:path";

let root: string | undefined;

/**
 * An absolute path inside the project. Found by walking up to package.json, because this code
 * runs from app/ in development and tests and from build/server/ once bundled.
 */
export function projectPath(...segments: string[]): string {
  root ??= findProjectRoot(import.meta.dirname);
  return path.join(root, ...segments);
}

function findProjectRoot(start: string): string {
  let directory = start;
  while (!existsSync(path.join(directory, "package.json"))) {
    const parent = path.dirname(directory);
    if (parent === directory) return process.cwd();
    directory = parent;
  }
  return directory;
}
