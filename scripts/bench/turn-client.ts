import http from "node:http";

/** One Game Master turn as the benchmark's players take it: POST /api/game-chat, read to [DONE]. */

/** Marks the probe's messages, which the benchmark's model answers briefly. */
export const PROBE_MARKER = "[probe]";

export interface TurnResult {
  /** Milliseconds from sending the request to the first token arriving. */
  firstToken?: number;
  ok: boolean;
  error?: string;
}

export function createTurnClient(base: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  let sequence = 0;

  function takeTurn(token: string, game: string, probe: boolean): Promise<TurnResult> {
    sequence += 1;
    const body = JSON.stringify({ message: `${probe ? `${PROBE_MARKER} ` : ""}I act, move ${sequence}.`, game_slug: game });
    return new Promise((resolve) => {
      const startedAt = performance.now();
      const request = http.request(
        `${base}/api/game-chat`,
        {
          method: "POST",
          agent,
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Authorization: `Bearer ${token}` },
        },
        (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            resolve({ ok: false, error: `HTTP ${response.statusCode}` });
            return;
          }
          response.setEncoding("utf8");
          let firstToken: number | undefined;
          let tail = "";
          response.on("data", (chunk: string) => {
            if (firstToken === undefined && chunk.includes('"content"')) firstToken = performance.now() - startedAt;
            tail = (tail + chunk).slice(-200);
          });
          response.on("end", () => {
            const ok = tail.includes("data: [DONE]") && firstToken !== undefined;
            resolve({ firstToken, ok, error: ok ? undefined : "stream ended without [DONE]" });
          });
          response.on("error", (error) => resolve({ ok: false, error: error.message }));
        },
      );
      request.on("error", (error) => resolve({ ok: false, error: error.message }));
      request.end(body);
    });
  }

  return { takeTurn, close: () => agent.destroy() };
}
