import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { requestContext } from "../request-context.ts";
import { edgeMiddleware } from "./edge.server.ts";

const SITE = "https://play.example";

beforeAll(() => {
  Object.assign(process.env, { PUBLIC_URL: SITE, AUTH_SECRET: "a-test-secret-of-at-least-thirty-two-characters" });
});

/** Runs the edge in front of a route that answers 200, or fails as `route` says; what the client gets. */
async function through(request: Request, route: (outcome: { databaseBusy: boolean }) => Response = () => new Response("ok")) {
  const context = new RouterContextProvider();
  const outcome = { databaseBusy: false };
  context.set(requestContext, {
    requestId: "r",
    clientAddress: "127.0.0.1",
    logger: pino({ level: "silent" }),
    cspNonce: "n",
    shutdownSignal: new AbortController().signal,
    outcome,
  });
  let reached = false;
  try {
    const response = await edgeMiddleware({ request, context, params: {}, unstable_pattern: "/" } as never, async () => {
      reached = true;
      return route(outcome);
    });
    return { response: response as Response, reached };
  } catch (thrown) {
    if (thrown instanceof Response) return { response: thrown, reached };
    throw thrown;
  }
}

function post(body: BodyInit, headers: Record<string, string>, url = `${SITE}/api/game-chat`) {
  return new Request(url, { method: "POST", body, headers: { cookie: "session=abc", origin: SITE, ...headers } });
}

describe("text hygiene", () => {
  it("refuses a NUL or a lone surrogate in a JSON body, naming the field, before the route runs", async () => {
    for (const body of ['{"message":"hi\\u0000"}', '{"message":"\\ud800"}']) {
      const { response, reached } = await through(post(body, { "content-type": "application/json" }));
      expect(reached).toBe(false);
      expect(response.status).toBe(400);
      const answer = await response.json();
      expect(answer.code).toBe("invalid_text");
      expect(answer.error).toContain('"message"');
    }
  });

  it("refuses them in forms, multipart forms, query strings and the path", async () => {
    const form = new FormData();
    form.set("subject", "x\0y");
    const requests = [
      post("name=a%00b", { "content-type": "application/x-www-form-urlencoded" }, `${SITE}/contact`),
      post(form, {}, `${SITE}/contact`),
      new Request(`${SITE}/games?search=%00`),
      new Request(`${SITE}/guides/%00`),
      post("raw\0text", { "content-type": "text/plain" }),
    ];
    for (const request of requests) {
      const { response, reached } = await through(request);
      expect({ url: request.url, status: response.status, reached }).toEqual({ url: request.url, status: 400, reached: false });
      expect((await response.json()).code).toBe("invalid_text");
    }
  });

  it("lets ordinary text through, in every script", async () => {
    const { response, reached } = await through(post('{"message":"武则天 bows 🙇"}', { "content-type": "application/json" }));
    expect(reached).toBe(true);
    expect(response.status).toBe(200);
  });
});

describe("cross-site protection", () => {
  const json = { "content-type": "application/json" };

  it("refuses a cookie request that changes something from another origin", async () => {
    const { response, reached } = await through(post("{}", { ...json, origin: "https://evil.example" }));
    expect(reached).toBe(false);
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe("cross_site");
  });

  it("without an Origin, accepts only Sec-Fetch-Site: same-origin", async () => {
    const withoutOrigin = (headers: Record<string, string>) =>
      new Request(`${SITE}/api/game-chat`, { method: "DELETE", headers: { cookie: "session=abc", ...headers } });
    expect((await through(withoutOrigin({}))).response.status).toBe(403);
    expect((await through(withoutOrigin({ "sec-fetch-site": "cross-site" }))).response.status).toBe(403);
    expect((await through(withoutOrigin({ "sec-fetch-site": "same-origin" }))).reached).toBe(true);
  });

  it("lets through the site's own pages, bearer-token calls, requests without cookies and reads", async () => {
    expect((await through(post("{}", json))).reached).toBe(true);
    expect((await through(post("{}", { ...json, origin: "https://evil.example", authorization: "Bearer token" }))).reached).toBe(true);
    const anonymous = new Request(`${SITE}/api/stripe/webhook`, { method: "POST", body: "{}", headers: json });
    expect((await through(anonymous)).reached).toBe(true);
    const read = new Request(`${SITE}/credits`, { headers: { cookie: "session=abc", origin: "https://evil.example" } });
    expect((await through(read)).reached).toBe(true);
  });
});

describe("a busy database", () => {
  it("turns the page's failure into 503 with Retry-After", async () => {
    const { response } = await through(new Request(`${SITE}/games`), (outcome) => {
      outcome.databaseBusy = true;
      return new Response("<html>error</html>", { status: 500, headers: { "content-type": "text/html" } });
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.text()).toContain("error");
  });

  it("leaves other failures as they are", async () => {
    const { response } = await through(new Request(`${SITE}/games`), () => new Response("", { status: 500 }));
    expect(response.status).toBe(500);
  });
});
