import { createConnection, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A loopback proxy in front of PostgreSQL that counts the round trips its clients make: each
 * simple Query ('Q') and each Sync ('S') of the extended protocol ends a batch of messages the
 * client then waits on. Every byte is forwarded as it is; the counter only reads the frontend's
 * message headers (type byte and length) after the startup message.
 */
export interface WireCounter {
  /** postgres:// URL that reaches the database through the proxy. */
  url: string;
  /** When each round trip was sent (performance.now()), oldest first. */
  roundTrips: number[];
  close(): Promise<void>;
}

/** Startup and SSL/GSS requests have no type byte: a length, then a code or protocol version. */
function startupLength(buffer: Buffer) {
  return buffer.length >= 4 ? buffer.readInt32BE(0) : undefined;
}

export async function startWireCounter(databaseUrl: string): Promise<WireCounter> {
  const target = new URL(databaseUrl);
  const roundTrips: number[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let started = false;
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          const length = startupLength(pending);
          if (length === undefined || pending.length < length) break;
          const code = pending.readInt32BE(4);
          // An SSL or GSS encryption request is answered with one byte; the startup message follows.
          if (code !== 80877103 && code !== 80877104) started = true;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) break;
        const type = String.fromCharCode(pending[0]!);
        if (type === "Q" || type === "S") roundTrips.push(performance.now());
        pending = pending.subarray(length);
      }
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", closeBoth).on("error", closeBoth);
    upstream.on("close", closeBoth).on("error", closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    roundTrips,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
