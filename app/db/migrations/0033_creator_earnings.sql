CREATE TABLE "world_earnings" (
	"game_id" uuid NOT NULL,
	"day" date NOT NULL,
	"creator_id" text NOT NULL,
	"paid_turns" integer DEFAULT 0 NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "world_earnings_game_id_day_pk" PRIMARY KEY("game_id","day")
);
--> statement-breakpoint
ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_reason_check";--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "world_version" integer;--> statement-breakpoint
ALTER TABLE "world_earnings" ADD CONSTRAINT "world_earnings_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_earnings" ADD CONSTRAINT "world_earnings_creator_id_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "world_earnings_creator_day_idx" ON "world_earnings" USING btree ("creator_id","day");--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_reason_check" CHECK ("reason" IN ('signup_bonus', 'purchase', 'chat_message', 'refund', 'admin_grant', 'creator_earnings'));--> statement-breakpoint
-- finish_turn credits a world's creator for other players' paid turns (docs/decisions/065), told
-- the operator's rule by two more arguments: the old signature goes, and app/db/functions/ creates
-- the new one after the migrations.
DROP FUNCTION IF EXISTS finish_turn(uuid, uuid, text, integer, jsonb, text, text, jsonb);
--> statement-breakpoint
-- begin_turn and begin_turn_for_session answer the story's world version too (docs/decisions/065),
-- so a turn still reads everything before its model call in one round trip: their result columns
-- change, so the old ones go, and app/db/functions/ creates them anew after the migrations.
DROP FUNCTION IF EXISTS begin_turn_for_session(text, timestamptz, boolean, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);
--> statement-breakpoint
DROP FUNCTION IF EXISTS begin_turn(text, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);
--> statement-breakpoint
-- The stories already begun keep the version published last before they began.
UPDATE stories AS s SET world_version = (
  SELECT max(v.version) FROM world_versions AS v WHERE v.game_id = g.id AND v.created_at <= s.created_at
) FROM games AS g WHERE g.slug = s.game_slug AND g.creator_id IS NOT NULL AND g.creator_id <> s.user_id;
