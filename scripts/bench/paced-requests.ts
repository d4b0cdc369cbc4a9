import autocannon from "autocannon";
import { testClientAddress } from "#tests/helpers/accounts.ts";

/** What a stream of requests met: its median and 99th-percentile latency, how many, how many failed. */
export interface Latency {
  p50: number;
  p99: number;
  requests: number;
  failures: number;
}

export function latency(result: autocannon.Result): Latency {
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

export interface PacedStream {
  url: string;
  ratePerSecond: number;
  connections: number;
  durationSeconds: number;
  request: autocannon.Request;
}

/**
 * A paced stream of requests, each from an address of its own (so no per-address limit is what is
 * measured), at `pathFor()` when given.
 */
export async function paced({ url, ratePerSecond, connections, durationSeconds, request }: PacedStream, pathFor?: () => string): Promise<Latency> {
  const result = await autocannon({
    url,
    connections,
    overallRate: ratePerSecond,
    duration: durationSeconds,
    requests: [
      {
        ...request,
        setupRequest: (prepared: autocannon.Request) => ({
          ...prepared,
          path: pathFor ? pathFor() : prepared.path,
          headers: { ...prepared.headers, "X-Forwarded-For": testClientAddress() },
        }),
      },
    ],
  });
  return latency(result);
}
