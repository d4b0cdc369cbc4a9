CREATE TABLE "model_calls" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "model_calls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"story_id" uuid,
	"game_slug" text,
	"user_id" text,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer NOT NULL,
	"cached_input_tokens" integer DEFAULT 0 NOT NULL,
	"cache_write_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer NOT NULL,
	"reasoning_tokens" integer,
	"estimated" boolean NOT NULL,
	"first_token_ms" integer,
	"total_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"cost" numeric(14, 6),
	"currency" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_calls_kind_check" CHECK ("kind" IN ('send', 'retry', 'continue', 'edit', 'summary')),
	CONSTRAINT "model_calls_outcome_check" CHECK ("outcome" IN ('ok', 'interrupted', 'failed', 'empty', 'cancelled', 'not_stored'))
);
--> statement-breakpoint
CREATE TABLE "model_prices" (
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"input_per_million" numeric(12, 4) NOT NULL,
	"cached_input_per_million" numeric(12, 4),
	"cache_write_per_million" numeric(12, 4),
	"output_per_million" numeric(12, 4) NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_prices_provider_model_pk" PRIMARY KEY("provider","model")
);
--> statement-breakpoint
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_game_slug_games_slug_fk" FOREIGN KEY ("game_slug") REFERENCES "public"."games"("slug") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_calls_created_idx" ON "model_calls" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "model_calls_story_idx" ON "model_calls" USING btree ("story_id");--> statement-breakpoint
CREATE INDEX "model_calls_game_slug_idx" ON "model_calls" USING btree ("game_slug");--> statement-breakpoint
CREATE INDEX "model_calls_user_idx" ON "model_calls" USING btree ("user_id");--> statement-breakpoint
DROP FUNCTION IF EXISTS finish_turn(uuid, uuid, text, integer, jsonb, text, text);
