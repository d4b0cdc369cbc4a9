CREATE TABLE "model_spend_days" (
	"day" date NOT NULL,
	"game_slug" text,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"summaries" boolean NOT NULL,
	"shard" smallint NOT NULL,
	"calls" integer NOT NULL,
	"input_tokens" bigint NOT NULL,
	"cached_input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"spend" numeric(16, 6) NOT NULL,
	"unpriced_calls" integer NOT NULL,
	CONSTRAINT "model_spend_days_key" UNIQUE NULLS NOT DISTINCT("day","game_slug","provider","model","summaries","shard")
);
--> statement-breakpoint
DROP INDEX "model_calls_game_slug_idx";--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "context_tokens" integer;--> statement-breakpoint
ALTER TABLE "model_spend_days" ADD CONSTRAINT "model_spend_days_game_slug_games_slug_fk" FOREIGN KEY ("game_slug") REFERENCES "public"."games"("slug") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "model_spend_days_game_slug_idx" ON "model_spend_days" USING btree ("game_slug");--> statement-breakpoint
CREATE INDEX "model_calls_game_slug_idx" ON "model_calls" USING btree ("game_slug","created_at");--> statement-breakpoint
-- The calls recorded before the daily totals existed, summed up once (record_model_call.sql keeps them from here on).
INSERT INTO "model_spend_days" ("day", "game_slug", "provider", "model", "summaries", "shard", "calls", "input_tokens",
    "cached_input_tokens", "output_tokens", "spend", "unpriced_calls")
SELECT ("created_at" AT TIME ZONE 'UTC')::date, "game_slug", "provider", "model", "kind" = 'summary', 0, count(*), sum("input_tokens"),
    sum("cached_input_tokens"), sum("output_tokens"), coalesce(sum("cost") FILTER (WHERE "currency" = 'USD'), 0),
    count(*) FILTER (WHERE "cost" IS NULL)
FROM "model_calls" GROUP BY 1, 2, 3, 4, 5;
