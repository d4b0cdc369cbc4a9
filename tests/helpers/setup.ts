import { afterAll } from "vitest";
import { killLeftoverProcesses } from "./leftover-processes.ts";

// Quiet logs and an instant offline storyteller unless a test asks otherwise.
process.env.LOG_LEVEL ??= "silent";
process.env.AI_OFFLINE_WORD_DELAY_MS ??= "0";

// Registered first, so it runs after the file's own hooks have stopped what they started.
afterAll(killLeftoverProcesses);
