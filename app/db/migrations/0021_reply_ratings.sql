CREATE TABLE "reply_ratings" (
	"message_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"user_id" text NOT NULL,
	"rating" text NOT NULL,
	"reason" text,
	"model_provider" text,
	"model" text,
	"rated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reply_ratings_message_id_version_user_id_pk" PRIMARY KEY("message_id","version","user_id"),
	CONSTRAINT "reply_ratings_rating_check" CHECK ("rating" IN ('good', 'bad')),
	CONSTRAINT "reply_ratings_reason_check" CHECK ("reason" IS NULL OR ("rating" = 'bad' AND "reason" IN ('repeats', 'ignored_me', 'wrong_facts', 'boring')))
);
--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "model_provider" text;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "reply_versions" ADD COLUMN "model_provider" text;--> statement-breakpoint
ALTER TABLE "reply_versions" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "reply_ratings" ADD CONSTRAINT "reply_ratings_message_id_game_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."game_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_ratings" ADD CONSTRAINT "reply_ratings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reply_ratings_rated_idx" ON "reply_ratings" USING btree ("rated_at");--> statement-breakpoint
CREATE INDEX "reply_ratings_user_idx" ON "reply_ratings" USING btree ("user_id");--> statement-breakpoint
-- finish_turn takes the model that wrote the reply (p_model_provider, p_model, both DEFAULT NULL
-- so the calls that only undo keep their five arguments): app/db/functions/finish_turn.sql
-- defines it anew after the migrations, and the old signature goes, or those calls would be
-- ambiguous. IF EXISTS: the five-argument finish_turn was made by its file, never by a migration.
DROP FUNCTION IF EXISTS finish_turn(uuid, uuid, text, integer, jsonb);
