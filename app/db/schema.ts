/**
 * The database's tables, by area (app/db/schema/): drizzle-kit reads this file to generate the
 * migrations, and the code imports every table from here.
 */
export * from "./schema/accounts.ts";
export * from "./schema/games.ts";
export * from "./schema/money.ts";
export * from "./schema/stories.ts";
export * from "./schema/support.ts";
export * from "./schema/moderation.ts";
