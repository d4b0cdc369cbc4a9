import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { env, type Environment } from "../../env.server.ts";
import { createChatCompletionsModel } from "./chat-completions-model.server.ts";
import { createOfflineStoryteller } from "./offline/storyteller.server.ts";

export type GameMasterProvider = Environment["AI_PROVIDER"];

/**
 * The Game Master's model, chosen by AI_PROVIDER:
 * - `openai-compatible`: any server speaking OpenAI's chat-completions API at AI_BASE_URL
 *   (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp, LM Studio); AI_API_KEY is optional for local ones.
 * - `openai`: OpenAI itself (chat completions; AI_BASE_URL may point at a proxy).
 * - `anthropic`: Anthropic's messages API (AI_BASE_URL may point at a proxy).
 * - `offline`: the embedded storyteller, no network.
 */
export function createGameMasterModel(config: Environment): LanguageModelV4 {
  const model = config.AI_MODEL ?? "";
  switch (config.AI_PROVIDER) {
    case "openai-compatible":
      return createChatCompletionsModel({ baseURL: config.AI_BASE_URL ?? "", apiKey: config.AI_API_KEY, modelId: model });
    case "openai":
      return createOpenAI({ apiKey: config.AI_API_KEY, baseURL: config.AI_BASE_URL }).chat(model);
    case "anthropic":
      return createAnthropic({ apiKey: config.AI_API_KEY, baseURL: config.AI_BASE_URL }).languageModel(model);
    case "offline":
      return createOfflineStoryteller({ wordDelayMs: config.AI_OFFLINE_WORD_DELAY_MS });
  }
}

let current: LanguageModelV4 | undefined;

/** The process's Game Master model (created once; provider clients keep their connections). */
export function gameMasterModel(): LanguageModelV4 {
  current ??= createGameMasterModel(env());
  return current;
}

/** Which model writes the replies, as stored with each one: the provider configured and the model's id. */
export interface ModelName {
  provider: GameMasterProvider;
  model: string;
}

export function gameMasterModelName(): ModelName {
  return { provider: env().AI_PROVIDER, model: gameMasterModel().modelId };
}

export function isOfflineStoryteller(): boolean {
  return env().AI_PROVIDER === "offline";
}
