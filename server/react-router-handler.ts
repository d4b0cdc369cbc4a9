import type { IncomingHttpHeaders } from "node:http";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { directEventSource, type EventSource } from "#app/lib/event-source.server.ts";

/**
 * React Router on Express: @react-router/express's adapter, with two differences (docs/decisions/036).
 * A request's body is read once, whole, before React Router runs (its length was declared and
 * bounded by limitRequestBody): the web Request carries those bytes, and the edge checks the same
 * bytes (requestContext's `body`) instead of reading a copy of the request again. And an event
 * stream that is an EventSource — a Game Master's reply — is written to the Node response
 * directly: each event is one `res.write`, where the web stream between them cost a queue, a read
 * promise and a copy loop per token. Its headers go out with its first event, in one write. Every
 * other answer is sent as the adapter sends it.
 */
export function reactRouterRequestHandler({
  build,
  getLoadContext,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  getLoadContext: (request: ExpressRequest, response: ExpressResponse, body: Uint8Array | undefined) => RouterContextProvider;
}): RequestHandler {
  const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
  return async (request, response, next) => {
    try {
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await readBody(request);
      if (body === null) return;
      const answer = await handleRequest(webRequest(request, response, body), getLoadContext(request, response, body));
      await send(response, answer);
    } catch (error) {
      next(error);
    }
  };
}

/** The request's whole body, or null when the client left before sending it. */
async function readBody(request: ExpressRequest): Promise<Uint8Array<ArrayBuffer> | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of request) chunks.push(chunk as Buffer);
  } catch {
    return null;
  }
  return Buffer.concat(chunks);
}

function webHeaders(incoming: IncomingHttpHeaders) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else headers.set(name, value);
  }
  return headers;
}

/** The request as React Router reads it; its signal aborts when the client leaves before the answer ends. */
function webRequest(request: ExpressRequest, response: ExpressResponse, body: Uint8Array<ArrayBuffer> | undefined) {
  // Express's req.host honours X-Forwarded-Host under the trust-proxy rules; a host with a path,
  // query or user in it is cut there, as the adapter does.
  const host = request.host.split(/[\\/?#@]/)[0] || "localhost";
  const url = new URL(`${request.protocol}://${host}${request.originalUrl}`);
  const controller = new AbortController();
  let answered = false;
  response.on("finish", () => (answered = true));
  response.on("close", () => {
    if (!answered) controller.abort();
  });
  return new Request(url, {
    method: request.method,
    headers: webHeaders(request.headers),
    signal: controller.signal,
    ...(body ? { body } : {}),
  });
}

function isClosed(response: ExpressResponse) {
  return response.destroyed || response.writableEnded;
}

async function send(response: ExpressResponse, answer: Response) {
  if (isClosed(response)) {
    await answer.body?.cancel();
    return;
  }
  response.statusMessage = answer.statusText;
  response.status(answer.status);
  for (const [name, value] of answer.headers) response.append(name, value);
  const source = directEventSource(answer.body);
  if (source) {
    writeEventSource(response, source);
    return;
  }
  if (!answer.body) {
    response.end();
    return;
  }
  if (/text\/event-stream/i.test(answer.headers.get("Content-Type") ?? "")) flushHeadersWithFirstEvent(response);
  else flushWhenTheBodyPauses(response);
  try {
    await writeReadableStreamToWritable(answer.body, response);
  } catch (error) {
    if (!isClosed(response)) throw error;
  }
}

/**
 * The adapter's copy loop flushes the response after every chunk it writes, and a page comes in
 * dozens of chunks as React renders it. Compressed, each flush closes a deflate block or a brotli
 * metablock: a signed-in page went out as 14 KB of gzip where the same bytes compress to 8.5 KB
 * at once, at more CPU. Here a flush waits until the body stops coming in this turn of the event
 * loop: the whole shell goes out as one piece, and a part that streams in later (a resolved
 * boundary) still goes out as soon as it is written (docs/decisions/039).
 */
function flushWhenTheBodyPauses(response: ExpressResponse) {
  const flushNow = response.flush.bind(response);
  let scheduled = false;
  response.flush = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (!isClosed(response)) flushNow();
    });
  };
}

/** The source's events straight to the player's connection, until it ends or the player leaves. */
function writeEventSource(response: ExpressResponse, source: EventSource) {
  let open = true;
  // attach writes the first event at once: corked, the headers leave with it in one write.
  const socket = response.socket;
  socket?.cork();
  let corked = false;
  const detach = source.attach({
    write(chunk) {
      if (!open) return;
      // The events written before this turn of the event loop ends (a model's chunk carries several
      // tokens) leave in one write, as one system call: a reply's tokens no longer cost one each.
      if (socket && !corked) {
        corked = true;
        socket.cork();
        process.nextTick(() => {
          corked = false;
          socket.uncork();
        });
      }
      response.write(chunk);
    },
    end(last) {
      if (!open) return;
      open = false;
      if (last) response.end(last);
      else response.end();
    },
  });
  socket?.uncork();
  response.on("close", () => {
    open = false;
    detach();
  });
}

/**
 * An event stream that writes its first event at once (the balance) sends its headers with it in
 * one write; at worst (a first event later than this tick) the headers go out alone.
 */
function flushHeadersWithFirstEvent(response: ExpressResponse) {
  const socket = response.socket;
  socket?.cork();
  response.flushHeaders();
  if (socket) process.nextTick(() => socket.uncork());
}
