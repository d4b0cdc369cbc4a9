-- A world's advisory rating is a model call recorded like the others (kind 'advisory', docs/decisions/064),
-- and the daily totals part calls by what they were for (turns, summaries, advisories) instead of a
-- summaries flag: the days already counted keep their part.
ALTER TABLE "model_spend_days" DROP CONSTRAINT "model_spend_days_key";--> statement-breakpoint
ALTER TABLE "model_calls" DROP CONSTRAINT "model_calls_kind_check";--> statement-breakpoint
ALTER TABLE "model_spend_days" ADD COLUMN "part" text;--> statement-breakpoint
UPDATE "model_spend_days" SET "part" = CASE WHEN "summaries" THEN 'summaries' ELSE 'turns' END;--> statement-breakpoint
ALTER TABLE "model_spend_days" ALTER COLUMN "part" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "model_spend_days" DROP COLUMN "summaries";--> statement-breakpoint
ALTER TABLE "model_spend_days" ADD CONSTRAINT "model_spend_days_key" UNIQUE NULLS NOT DISTINCT("day","game_slug","provider","model","part","shard");--> statement-breakpoint
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_kind_check" CHECK ("kind" IN ('send', 'retry', 'continue', 'edit', 'summary', 'advisory'));--> statement-breakpoint
ALTER TABLE "model_spend_days" ADD CONSTRAINT "model_spend_days_part_check" CHECK ("part" IN ('turns', 'summaries', 'advisories'));
