ALTER TABLE "stories" ADD COLUMN "parent_story_id" uuid;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "fork_exchange" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_parent_story_id_stories_id_fk" FOREIGN KEY ("parent_story_id") REFERENCES "public"."stories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stories_parent_idx" ON "stories" USING btree ("parent_story_id","fork_exchange") WHERE "parent_story_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_fork_exchange_check" CHECK ("fork_exchange" BETWEEN 0 AND "exchanges");