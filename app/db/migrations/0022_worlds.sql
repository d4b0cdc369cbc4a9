-- Worlds (issue 36, docs/decisions/053): a game may have a creator, a status (a draft is also
-- inactive), a content rating, tags, openings, creator notes, a lorebook and what an imported
-- character card held besides; world_versions keeps each version a creator published.
CREATE TABLE "world_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"fields" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "creator_id" text;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "status" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "content_rating" text DEFAULT 'Everyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "opening" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "alternative_openings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "creator_notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "lorebook" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "extra" jsonb DEFAULT '{"data":{}}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "world_versions" ADD CONSTRAINT "world_versions_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "world_versions_game_version_idx" ON "world_versions" USING btree ("game_id","version");--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_creator_id_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "games_creator_idx" ON "games" USING btree ("creator_id","updated_at");--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_status_check" CHECK ("status" IN ('draft', 'unlisted', 'public'));--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_content_rating_check" CHECK ("content_rating" IN ('Everyone', 'Teen', 'Mature'));