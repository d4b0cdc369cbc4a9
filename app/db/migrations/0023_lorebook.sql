CREATE TABLE "game_lore_entries" (
	"game_slug" text NOT NULL,
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"keys" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"always_on" boolean DEFAULT false NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "story_lore_entries" (
	"story_id" uuid NOT NULL,
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"keys" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"always_on" boolean DEFAULT false NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "lore_scan_depth" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "game_lore_entries" ADD CONSTRAINT "game_lore_entries_game_slug_games_slug_fk" FOREIGN KEY ("game_slug") REFERENCES "public"."games"("slug") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "story_lore_entries" ADD CONSTRAINT "story_lore_entries_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_lore_entries_game_idx" ON "game_lore_entries" USING btree ("game_slug","created_at");--> statement-breakpoint
CREATE INDEX "story_lore_entries_story_idx" ON "story_lore_entries" USING btree ("story_id","created_at");