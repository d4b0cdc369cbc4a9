/**
 * `npm run bench`: runs every scripts/bench/*.bench.ts in turn (or the ones named on the command
 * line) on the project's Node, each printing its own figures. Build first: benchmarks measure the
 * production bundle.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const directory = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(directory)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();

let failed = false;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, [path.join(directory, file)], { stdio: "inherit", env: { ...process.env, LOG_LEVEL: "silent" } });
  if (result.status !== 0) failed = true;
}
if (files.length === 0) console.log("No benchmarks matched.");
process.exitCode = failed ? 1 : 0;
