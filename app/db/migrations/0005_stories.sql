CREATE TABLE "reply_versions" (
	"message_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reply_versions_message_id_version_pk" PRIMARY KEY("message_id","version")
);
--> statement-breakpoint
CREATE TABLE "stories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"game_slug" text NOT NULL,
	"title" text,
	"exchanges" integer DEFAULT 0 NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"active_turn_id" uuid,
	"active_turn_kind" text,
	"active_reply_id" bigint,
	"active_turn_lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stories_active_turn_kind_check" CHECK ("active_turn_kind" IN ('turn', 'retry', 'continue', 'edit')),
	CONSTRAINT "stories_exchanges_check" CHECK ("exchanges" >= 0)
);
--> statement-breakpoint
DROP INDEX "game_messages_conversation_idx";--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "story_id" uuid;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "exchange" integer;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "status" text DEFAULT 'complete' NOT NULL;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "versions" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "removal" text;--> statement-breakpoint
ALTER TABLE "game_messages" ADD COLUMN "removed_by_turn" uuid;--> statement-breakpoint
-- Every player's story in a game becomes one story. Its exchanges are numbered by the player's
-- messages: a message and the replies after it share a number (a reply before any message is 1).
INSERT INTO "stories" ("user_id", "game_slug", "created_at", "updated_at")
  SELECT "user_id", "game_slug", min("created_at"), max("created_at") FROM "game_messages" GROUP BY "user_id", "game_slug";--> statement-breakpoint
UPDATE "game_messages" AS m SET "story_id" = s."id" FROM "stories" AS s WHERE s."user_id" = m."user_id" AND s."game_slug" = m."game_slug";--> statement-breakpoint
UPDATE "game_messages" AS m SET "exchange" = numbered."exchange" FROM (
  SELECT "id", greatest(1, count(*) FILTER (WHERE "role" = 'user') OVER (PARTITION BY "story_id" ORDER BY "id")) AS "exchange" FROM "game_messages"
) AS numbered WHERE numbered."id" = m."id";--> statement-breakpoint
-- A story written before every exchange was stored whole may hold two replies to one message:
-- the newest stays in the story, the others are kept as replaced.
UPDATE "game_messages" AS m SET "removed_at" = now(), "removal" = 'edited' FROM (
  SELECT "id", row_number() OVER (PARTITION BY "story_id", "exchange", "role" ORDER BY "id" DESC) AS "newer" FROM "game_messages"
) AS ranked WHERE ranked."id" = m."id" AND ranked."newer" > 1;--> statement-breakpoint
UPDATE "stories" AS s SET "exchanges" = (SELECT coalesce(max("exchange"), 0) FROM "game_messages" AS m WHERE m."story_id" = s."id" AND m."removed_at" IS NULL);--> statement-breakpoint
ALTER TABLE "game_messages" ALTER COLUMN "story_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "game_messages" ALTER COLUMN "exchange" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reply_versions" ADD CONSTRAINT "reply_versions_message_id_game_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."game_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_game_slug_games_slug_fk" FOREIGN KEY ("game_slug") REFERENCES "public"."games"("slug") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "stories_player_game_idx" ON "stories" USING btree ("user_id","game_slug","updated_at");--> statement-breakpoint
CREATE INDEX "stories_game_slug_idx" ON "stories" USING btree ("game_slug");--> statement-breakpoint
ALTER TABLE "game_messages" ADD CONSTRAINT "game_messages_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "game_messages_story_position_idx" ON "game_messages" USING btree ("story_id","exchange","role" DESC NULLS LAST) WHERE "removed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "game_messages_story_idx" ON "game_messages" USING btree ("story_id");--> statement-breakpoint
CREATE INDEX "game_messages_user_idx" ON "game_messages" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "game_messages" ADD CONSTRAINT "game_messages_status_check" CHECK ("status" IN ('streaming', 'complete'));--> statement-breakpoint
ALTER TABLE "game_messages" ADD CONSTRAINT "game_messages_removal_check" CHECK ("removal" IN ('undone', 'edited', 'failed'));--> statement-breakpoint
ALTER TABLE "game_messages" ADD CONSTRAINT "game_messages_version_check" CHECK ("version" BETWEEN 1 AND "versions");