/**
 * The baseline a Game Master turn is measured against (issue 18): a minimal relay doing the same
 * job as POST /api/game-chat, and nothing else — no framework, no logging, no validation past
 * what the job needs. On the site's own PostgreSQL database and tables, with the site's players,
 * sessions, stories and credit function:
 *
 *   1. the session: the bearer token looked up (one round trip);
 *   2. the credit debited with its ledger row (apply_credit_change), the player's story found and
 *      its newest messages read — as many exchanges and characters as the site reads for its
 *      default context — in one statement (one round trip, one commit);
 *   3. the game's prompt and published world (kept in memory) and the window sent to the model,
 *      its reply streamed through as game-chat's events (`data: {"content": …}`);
 *   4. the exchange stored in game_messages and the story moved on, in one statement (one round
 *      trip, one commit), then `data: [DONE]`.
 *
 * `node relay.ts <database url> <model base url> <model> <story title>`; prints `listening <port>`.
 * It plays the stories with that title (the bench begins one per player and game, older than the
 * site's, and the relay never touches their updated_at), so it never disturbs the site's.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { readBody } from "#tests/fakes/streaming-model.ts";
import { DEFAULT_WINDOW } from "#tests/helpers/turn-statements.ts";
import { relayStatements } from "./relay-statements.ts";

const [databaseUrl, modelBaseUrl, model, storyTitle] = process.argv.slice(2);
if (!databaseUrl || !modelBaseUrl || !model || !storyTitle)
  throw new Error("usage: relay.ts <database url> <model base url> <model> <story title>");

const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
const modelAgent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const prompts = new Map<string, string>();

const games = await pool.query<{ slug: string; brief: string }>(
  `SELECT g.slug, g.prompt || coalesce((SELECT string_agg(c.title || E'\n' || c.content, E'\n\n' ORDER BY c.section_order)
     FROM game_content c WHERE c.game_slug = g.slug AND c.is_published), '') AS brief FROM games g`,
);
for (const row of games.rows) prompts.set(row.slug, row.brief);

const { BEGIN, STORE } = relayStatements(DEFAULT_WINDOW);

function refuse(response: http.ServerResponse, status: number, error: string) {
  response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ error }));
}

/** Streams the model's reply through to `response`; resolves the whole reply. */
function relayModel(messages: unknown[], response: http.ServerResponse) {
  return new Promise<string>((resolve, reject) => {
    const request = http.request(
      `${modelBaseUrl}/chat/completions`,
      { method: "POST", agent: modelAgent, headers: { "Content-Type": "application/json" } },
      (upstream) => {
        let reply = "";
        let buffer = "";
        upstream.setEncoding("utf8");
        upstream.on("data", (chunk: string) => {
          buffer += chunk;
          let end: number;
          let out = "";
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
            const content = (JSON.parse(event.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content;
            if (!content) continue;
            reply += content;
            out += `data: ${JSON.stringify({ content })}\n\n`;
          }
          if (out) response.write(out);
        });
        upstream.on("end", () => resolve(reply));
        upstream.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ model, stream: true, messages }));
  });
}

async function turn(request: http.IncomingMessage, response: http.ServerResponse) {
  const { message, game_slug: gameSlug } = JSON.parse(await readBody(request)) as { message: string; game_slug: string };
  const token = request.headers.authorization?.slice("Bearer ".length) ?? "";
  const session = await pool.query<{ user_id: string }>({
    name: "session",
    text: "SELECT user_id FROM session WHERE token = $1 AND expires_at > now()",
    values: [token],
  });
  const userId = session.rows[0]?.user_id;
  if (!userId) return refuse(response, 401, "Please sign in to continue.");
  const prompt = prompts.get(gameSlug);
  if (prompt === undefined) return refuse(response, 404, "The requested game could not be found.");

  const begun = await pool.query<{ outcome: string; story_id: string; exchanges: number; messages: { role: string; content: string }[] }>({
    name: "begin",
    text: BEGIN,
    values: [userId, gameSlug, `relay:${randomUUID()}`, storyTitle],
  });
  const started = begun.rows[0];
  if (!started) return refuse(response, 404, "No story to continue.");
  if (started.outcome !== "applied") return refuse(response, 402, "Insufficient credits.");

  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  const reply = await relayModel([{ role: "system", content: prompt }, ...started.messages, { role: "user", content: message }], response);
  await pool.query({ name: "store", text: STORE, values: [userId, gameSlug, started.story_id, started.exchanges + 1, message, reply] });
  response.end("data: [DONE]\n\n");
}

const server = http.createServer((request, response) => {
  if (request.method !== "POST" || request.url !== "/api/game-chat") return refuse(response, 404, "Not found.");
  turn(request, response).catch((error: unknown) => {
    if (response.headersSent) response.destroy(error as Error);
    else refuse(response, 500, (error as Error).message);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as AddressInfo).port}`));
