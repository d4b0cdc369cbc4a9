import { Server as NetServer, type Socket } from "node:net";
import type { Server } from "node:http";

/** How long a connection may stay open without sending its first request once the server drains. */
const FIRST_REQUEST_GRACE_MS = 1000;

interface Connection {
  openedAt: number;
  /** Requests answered on it so far. */
  answered: number;
  /** A request is being answered (a page, or a stream still being written). */
  busy: boolean;
}

/**
 * Draining without dropping a request. Node's `server.close()` also closes every connection with
 * no request in progress, which includes one accepted a moment ago whose request has not arrived
 * yet: the load balancer's request then meets a reset after it was sent, and a POST cannot be
 * sent elsewhere. Here the listener alone is closed, and only connections that are truly idle are:
 * kept-alive ones between requests, and ones that sent nothing for FIRST_REQUEST_GRACE_MS. Every
 * answer while draining says `Connection: close`, so the others end after their answer.
 */
export function drainableConnections(server: Server) {
  const connections = new Map<Socket, Connection>();
  server.on("connection", (socket: Socket) => {
    connections.set(socket, { openedAt: Date.now(), answered: 0, busy: false });
    socket.once("close", () => connections.delete(socket));
  });
  server.on("request", (request: { socket: Socket }, response: { once(event: "close", listener: () => void): void }) => {
    const connection = connections.get(request.socket);
    if (!connection) return;
    connection.busy = true;
    response.once("close", () => {
      connection.busy = false;
      connection.answered += 1;
    });
  });

  const closeIdle = () => {
    const now = Date.now();
    for (const [socket, connection] of connections) {
      if (connection.busy) continue;
      if (connection.answered > 0 || now - connection.openedAt > FIRST_REQUEST_GRACE_MS) socket.destroy();
    }
  };

  return {
    /** Stops accepting connections; resolves once every open one has ended. */
    stopListening(): Promise<void> {
      return new Promise((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    },
    closeIdle,
    closeAll: () => server.closeAllConnections(),
  };
}
