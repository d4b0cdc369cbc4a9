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
 * `model` is the model's id at that provider: AI_MODEL, or a game's own (games.model).
 */
export function createGameMasterModel(config: Environment, model = config.AI_MODEL ?? ""): LanguageModelV4 {
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

/** The process's Game Master models by id (each created once; provider clients keep their connections). */
const models = new Map<string, LanguageModelV4>();

/**
 * The Game Master model of a game: its own (`gameModel`, one an admin chose among the site's
 * model and those priced for the provider: app/domain/game-admin.server.ts), or the site's.
 */
export function gameMasterModel(gameModel?: string | null): LanguageModelV4 {
  const config = env();
  const id = gameModel ?? config.AI_MODEL ?? "";
  let model = models.get(id);
  if (!model) {
    model = createGameMasterModel(config, id);
    models.set(id, model);
  }
  return model;
}

/** Which model writes the replies, as stored with each one: the provider configured and the model's id. */
export interface ModelName {
  provider: GameMasterProvider;
  model: string;
}

export function gameMasterModelName(gameModel?: string | null): ModelName {
  return { provider: env().AI_PROVIDER, model: gameMasterModel(gameModel).modelId };
}

export function isOfflineStoryteller(): boolean {
  return env().AI_PROVIDER === "offline";
}
