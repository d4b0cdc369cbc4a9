import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * The shared machinery of the fake model servers: a real HTTP server on loopback that records
 * every request and answers each one with a scripted reply, streamed in the provider's own
 * server-sent-events protocol.
 */

export interface ScriptedReply {
  /** Text pieces streamed in order. */
  tokens?: string[];
  /** Pause before the response starts (headers included). */
  startDelayMs?: number;
  /** Pause between tokens. */
  tokenDelayMs?: number;
  /** Answer with this HTTP error status (and the provider's JSON error body) instead. */
  status?: number;
  /** Drop the connection after this many tokens, without finishing the stream. */
  cutAfter?: number;
  /** Accept the request and never answer. */
  hang?: boolean;
  /** What the reply reports it used (DEFAULT_USAGE when not set), or "none": it reports nothing. */
  usage?: FakeUsage | "none";
}

/** Usage as a fake reports it, in each provider's own fields. */
export interface FakeUsage {
  /** Every input token, cached and cache writes included. */
  inputTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  outputTokens: number;
  reasoningTokens?: number;
}

export const DEFAULT_USAGE: FakeUsage = { inputTokens: 42, outputTokens: 12 };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
  receivedAt: number;
}

export interface StreamProtocol {
  /** The POST path this protocol answers, e.g. "/v1/chat/completions". */
  path: string;
  start(request: RecordedRequest, usage: FakeUsage | undefined): string[];
  token(text: string, request: RecordedRequest): string[];
  finish(request: RecordedRequest, usage: FakeUsage | undefined): string[];
  errorBody(status: number): unknown;
}

export interface FakeModelServer {
  /** Base URL including /v1, as providers expect it. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Decides the reply to each request (the default streams "Hello from the fake model."). */
  script(decide: (request: RecordedRequest) => ScriptedReply): void;
  close(): Promise<void>;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export function readBody(request: IncomingMessage) {
  return new Promise<string>((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

/** Drops the connection mid-stream, once what was written has reached the client. */
async function cut(request: IncomingMessage) {
  await sleep(50);
  request.socket.destroy();
}

export const DEFAULT_REPLY: ScriptedReply = { tokens: ["Hello", " from", " the", " fake", " model."] };

export async function startStreamingModelServer(protocol: StreamProtocol): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let decide: (request: RecordedRequest) => ScriptedReply = () => DEFAULT_REPLY;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const raw = await readBody(request);
    if (request.method !== "POST" || request.url?.split("?")[0] !== protocol.path) {
      response.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "not found" }));
      return;
    }
    const recorded: RecordedRequest = {
      path: protocol.path,
      headers: request.headers,
      body: JSON.parse(raw) as Record<string, unknown>,
      receivedAt: performance.now(),
    };
    requests.push(recorded);
    const reply = decide(recorded);
    if (reply.hang) return;
    if (reply.startDelayMs) await sleep(reply.startDelayMs);
    if (reply.status) {
      response.writeHead(reply.status, { "Content-Type": "application/json" }).end(JSON.stringify(protocol.errorBody(reply.status)));
      return;
    }
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    const write = (events: string[]) => {
      for (const chunk of events) response.write(chunk);
    };
    const usage = reply.usage === "none" ? undefined : (reply.usage ?? DEFAULT_USAGE);
    write(protocol.start(recorded, usage));
    const tokens = reply.tokens ?? [];
    for (const [index, token] of tokens.entries()) {
      if (reply.cutAfter !== undefined && index >= reply.cutAfter) {
        await cut(request);
        return;
      }
      if (index > 0 && reply.tokenDelayMs) await sleep(reply.tokenDelayMs);
      if (response.destroyed) return;
      write(protocol.token(token, recorded));
    }
    if (reply.cutAfter !== undefined && reply.cutAfter >= tokens.length) {
      await cut(request);
      return;
    }
    write(protocol.finish(recorded, usage));
    response.end();
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(next) {
      decide = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sse(data: unknown, eventName?: string) {
  return `${eventName ? `event: ${eventName}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
