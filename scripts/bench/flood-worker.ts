/**
 * The query-flood benchmark's flood, in a process of its own: its event loop is its own, so the
 * player's probes in the bench's process measure the site's answers, not the delays of the loop
 * sending fifty requests a second beside them. (autocannon runs as one of its own workers inside
 * a worker thread, and answers no result there: hence a process.)
 */
import { paced, type PacedStream } from "./paced-requests.ts";

export interface FloodRequest {
  stream: PacedStream;
  /** The page asked for, each time with a query string never seen before. */
  page: string;
}

const { stream, page } = JSON.parse(process.argv[2] ?? "{}") as FloodRequest;
let unique = 0;
process.send?.(await paced(stream, () => `${page}?utm_content=${Date.now()}-${(unique += 1)}`));
