/**
 * The baseline the kept pages are measured against: a static file server that loads the files
 * it is given into memory and answers each with the headers recorded beside it — the same bytes,
 * the same headers, and nothing else (no logging, no routing, no checks).
 *
 * `node static-file-server.ts <directory>`: each `<name>.json` there holds `{ path, headers }` for the
 * body in `<name>.body`. Prints the port it listens on.
 */
import { readdirSync, readFileSync } from "node:fs";
import http, { type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const directory = process.argv[2];
if (!directory) throw new Error("usage: static-file-server.ts <directory>");

const files = new Map<string, { headers: OutgoingHttpHeaders; body: Buffer }>();
for (const name of readdirSync(directory).filter((file) => file.endsWith(".json"))) {
  const { path: urlPath, headers } = JSON.parse(readFileSync(path.join(directory, name), "utf8")) as {
    path: string;
    headers: OutgoingHttpHeaders;
  };
  files.set(urlPath, { headers, body: readFileSync(path.join(directory, name.replace(/\.json$/, ".body"))) });
}

const server = http.createServer((request, response) => {
  const file = files.get(request.url ?? "");
  if (!file) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { ...file.headers, "content-length": file.body.length });
  response.end(file.body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as AddressInfo).port}`));
