CREATE TABLE "world_likes" (
	"game_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_likes_game_id_user_id_pk" PRIMARY KEY("game_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "published_version" integer;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "first_published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "remixed_from" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "handle" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "mature_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "world_likes" ADD CONSTRAINT "world_likes_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_likes" ADD CONSTRAINT "world_likes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "world_likes_recent_idx" ON "world_likes" USING btree ("game_id","created_at");--> statement-breakpoint
CREATE INDEX "games_community_idx" ON "games" USING btree ("status","first_published_at");--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_handle_unique" UNIQUE("handle");