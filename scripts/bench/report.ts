import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * docs/performance.md is written by the benchmarks, never by hand: each owns a section between
 * `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` and replaces it with what it just measured.
 */
const REPORT = path.resolve(import.meta.dirname, "../../docs/performance.md");

/** A markdown table from a header row and rows of cells. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Replaces (or adds at the end) the bench's section of docs/performance.md. */
export function writeReportSection(name: string, title: string, body: string, command = `npm run bench -- ${name}`) {
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const section = [
    `<!-- bench:${name} -->`,
    `## ${title}`,
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine} with \`${command}\`.`,
    "",
    body.trim(),
    `<!-- /bench:${name} -->`,
  ].join("\n");
  const current = readFileSync(REPORT, "utf8");
  const pattern = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);
  writeFileSync(REPORT, pattern.test(current) ? current.replace(pattern, section) : `${current.trimEnd()}\n\n${section}\n`);
  console.log(`\n(docs/performance.md: section "${name}" written)`);
}
