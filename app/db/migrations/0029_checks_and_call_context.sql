ALTER TABLE "model_calls" ADD COLUMN "reply_id" bigint;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "reply_version" integer;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "context" jsonb;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "roll" jsonb;--> statement-breakpoint
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_reply_id_game_messages_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."game_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_calls_reply_idx" ON "model_calls" USING btree ("reply_id","reply_version");--> statement-breakpoint
-- begin_turn and begin_turn_for_session answer the roll of the exchange's player message too (a
-- `player_roll` column): a function's result columns cannot change in place, so the old ones go,
-- and app/db/functions/ creates them anew after the migrations.
DROP FUNCTION IF EXISTS begin_turn_for_session(text, timestamptz, boolean, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS begin_turn(text, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);
