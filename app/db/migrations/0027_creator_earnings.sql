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
-- A story of another player's published world keeps the version it began with: set as the story
-- is inserted, wherever that is. The live body is app/db/functions/story_world_version.sql,
-- applied after the migrations; declared here so the trigger can name it.
CREATE OR REPLACE FUNCTION story_world_version() RETURNS trigger AS $$ BEGIN RETURN NEW; END; $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER stories_world_version
BEFORE INSERT ON stories
FOR EACH ROW EXECUTE FUNCTION story_world_version();
--> statement-breakpoint
-- The stories already begun keep the version published last before they began.
UPDATE stories AS s SET world_version = (
  SELECT max(v.version) FROM world_versions AS v WHERE v.game_id = g.id AND v.created_at <= s.created_at
) FROM games AS g WHERE g.slug = s.game_slug AND g.creator_id IS NOT NULL AND g.creator_id <> s.user_id;
