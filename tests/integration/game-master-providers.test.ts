import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGameMasterModel } from "#app/domain/game-master/model.server.ts";
import { streamReply } from "#app/domain/game-master/reply-stream.server.ts";
import { parseEnvironment } from "#app/env.server.ts";
import { startAnthropicServer } from "#tests/fakes/anthropic.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/** Each AI_PROVIDER reaches its protocol's server with the configured model, key and base URL. */
let openai: FakeModelServer;
let anthropic: FakeModelServer;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startOpenAICompatibleServer(), startAnthropicServer()]);
});

afterAll(async () => {
  await Promise.all([openai.close(), anthropic.close()]);
});

function config(variables: Record<string, string>) {
  return parseEnvironment({ AUTH_SECRET: "x".repeat(32), DATA_DIR: "/tmp/unused", ...variables });
}

/** A reply read the way a turn reads it. */
async function tell(variables: Record<string, string>, maxRetries = 0) {
  const readReply = await streamReply({
    model: createGameMasterModel(config(variables)),
    system: ["You narrate."],
    messages: [{ role: "user", content: "Begin." }],
    maxOutputTokens: 1_000,
    maxRetries,
    abortSignal: new AbortController().signal,
  });
  let text = "";
  await readReply((delta) => (text += delta));
  return text;
}

describe("createGameMasterModel", () => {
  it("openai-compatible: a local server without a key (Ollama, llama.cpp, LM Studio)", async () => {
    expect(await tell({ AI_PROVIDER: "openai-compatible", AI_BASE_URL: openai.baseUrl, AI_MODEL: "llama3.2" })).toBe("Hello from the fake model.");
    const request = openai.requests.at(-1)!;
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ model: "llama3.2", stream: true });
    expect(request.body.messages).toEqual([
      { role: "system", content: "You narrate." },
      { role: "user", content: "Begin." },
    ]);
  });

  it("openai-compatible: a hosted service with a key (OpenRouter, vLLM behind a gateway)", async () => {
    await tell({ AI_PROVIDER: "openai-compatible", AI_BASE_URL: openai.baseUrl, AI_MODEL: "meta/llama", AI_API_KEY: "router-key" });
    expect(openai.requests.at(-1)!.headers.authorization).toBe("Bearer router-key");
  });

  it("openai: chat completions with the key, at AI_BASE_URL when given", async () => {
    await tell({ AI_PROVIDER: "openai", AI_BASE_URL: openai.baseUrl, AI_MODEL: "gpt-4o-mini", AI_API_KEY: "sk-test" });
    const request = openai.requests.at(-1)!;
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(request.body).toMatchObject({ model: "gpt-4o-mini", stream: true });
  });

  it("anthropic: the messages API with x-api-key", async () => {
    expect(await tell({ AI_PROVIDER: "anthropic", AI_BASE_URL: anthropic.baseUrl, AI_MODEL: "claude-x", AI_API_KEY: "ak-test" })).toBe(
      "Hello from the fake model.",
    );
    const request = anthropic.requests.at(-1)!;
    expect(request.headers["x-api-key"]).toBe("ak-test");
    expect(request.body).toMatchObject({ model: "claude-x", stream: true, system: [{ type: "text", text: "You narrate." }] });
  });

  it("offline: no network at all", async () => {
    const before = openai.requests.length + anthropic.requests.length;
    const text = await tell({ AI_PROVIDER: "offline", AI_OFFLINE_WORD_DELAY_MS: "0" });
    expect(text).toMatch(/\n1\. .+\n2\. .+\n3\. /);
    expect(openai.requests.length + anthropic.requests.length).toBe(before);
  });
});

describe("a provider that refuses before streaming", () => {
  const local = { AI_PROVIDER: "openai-compatible", AI_MODEL: "llama3.2" };

  it("is asked once more after a retryable refusal (503), and its reply is read", async () => {
    let calls = 0;
    openai.script(() => (++calls === 1 ? { status: 503 } : { tokens: ["Second ", "time."] }));
    expect(await tell({ ...local, AI_BASE_URL: openai.baseUrl }, 1)).toBe("Second time.");
    expect(calls).toBe(2);
  });

  it("is not asked again after a refusal no retry can fix (400)", async () => {
    let calls = 0;
    openai.script(() => {
      calls += 1;
      return { status: 400 };
    });
    await expect(tell({ ...local, AI_BASE_URL: openai.baseUrl }, 1)).rejects.toThrow();
    expect(calls).toBe(1);
  });
});
