// Quiet logs and an instant offline storyteller unless a test asks otherwise.
process.env.LOG_LEVEL ??= "silent";
process.env.AI_OFFLINE_WORD_DELAY_MS ??= "0";
