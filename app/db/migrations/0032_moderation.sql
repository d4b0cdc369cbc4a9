CREATE TABLE "blocked_terms" (
	"term" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_rules" (
	"version" integer PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"published_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hidden_worlds" (
	"game_id" uuid PRIMARY KEY NOT NULL,
	"action_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" uuid NOT NULL,
	"moderator_id" text,
	"kind" text NOT NULL,
	"rules_version" integer NOT NULL,
	"rule_number" integer NOT NULL,
	"reason" text NOT NULL,
	"decides_action_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_actions_kind_check" CHECK ("kind" IN ('hide', 'restore', 'ask_changes', 'suspend_creator', 'uphold', 'overturn'))
);
--> statement-breakpoint
CREATE TABLE "moderation_appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action_id" uuid NOT NULL,
	"creator_id" text NOT NULL,
	"text" text NOT NULL,
	"decision_action_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suspended_creators" (
	"user_id" text PRIMARY KEY NOT NULL,
	"action_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "world_advisories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" uuid NOT NULL,
	"world_version" integer NOT NULL,
	"rules_version" integer NOT NULL,
	"model" text NOT NULL,
	"verdict" text NOT NULL,
	"rule_number" integer,
	"summary" text NOT NULL,
	"rated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_advisories_verdict_check" CHECK ("verdict" IN ('fits', 'review'))
);
--> statement-breakpoint
CREATE TABLE "world_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" uuid NOT NULL,
	"reporter_id" text NOT NULL,
	"reason" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"resolved_by_action_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_reports_reason_check" CHECK ("reason" IN ('Sexual content involving minors', 'Hate or harassment', 'Violence or gore beyond its rating', 'Wrong content rating', 'Spam or scam', 'Someone else''s work', 'Something else'))
);
--> statement-breakpoint
ALTER TABLE "content_rules" ADD CONSTRAINT "content_rules_published_by_user_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hidden_worlds" ADD CONSTRAINT "hidden_worlds_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hidden_worlds" ADD CONSTRAINT "hidden_worlds_action_id_moderation_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_moderator_id_user_id_fk" FOREIGN KEY ("moderator_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_rules_version_content_rules_version_fk" FOREIGN KEY ("rules_version") REFERENCES "public"."content_rules"("version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_decides_action_id_moderation_actions_id_fk" FOREIGN KEY ("decides_action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_action_id_moderation_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_creator_id_user_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_decision_action_id_moderation_actions_id_fk" FOREIGN KEY ("decision_action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspended_creators" ADD CONSTRAINT "suspended_creators_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspended_creators" ADD CONSTRAINT "suspended_creators_action_id_moderation_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_advisories" ADD CONSTRAINT "world_advisories_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_advisories" ADD CONSTRAINT "world_advisories_rules_version_content_rules_version_fk" FOREIGN KEY ("rules_version") REFERENCES "public"."content_rules"("version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_reports" ADD CONSTRAINT "world_reports_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_reports" ADD CONSTRAINT "world_reports_reporter_id_user_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_reports" ADD CONSTRAINT "world_reports_resolved_by_action_id_moderation_actions_id_fk" FOREIGN KEY ("resolved_by_action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hidden_worlds_action_idx" ON "hidden_worlds" USING btree ("action_id");--> statement-breakpoint
CREATE INDEX "moderation_actions_game_idx" ON "moderation_actions" USING btree ("game_id","created_at");--> statement-breakpoint
CREATE INDEX "moderation_actions_created_idx" ON "moderation_actions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "moderation_actions_moderator_idx" ON "moderation_actions" USING btree ("moderator_id");--> statement-breakpoint
CREATE INDEX "moderation_actions_decides_idx" ON "moderation_actions" USING btree ("decides_action_id");--> statement-breakpoint
CREATE INDEX "moderation_actions_rules_idx" ON "moderation_actions" USING btree ("rules_version");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_appeals_action_idx" ON "moderation_appeals" USING btree ("action_id");--> statement-breakpoint
CREATE INDEX "moderation_appeals_creator_idx" ON "moderation_appeals" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "moderation_appeals_decision_idx" ON "moderation_appeals" USING btree ("decision_action_id");--> statement-breakpoint
CREATE INDEX "suspended_creators_action_idx" ON "suspended_creators" USING btree ("action_id");--> statement-breakpoint
CREATE UNIQUE INDEX "world_advisories_version_idx" ON "world_advisories" USING btree ("game_id","world_version");--> statement-breakpoint
CREATE INDEX "world_advisories_rules_idx" ON "world_advisories" USING btree ("rules_version");--> statement-breakpoint
CREATE INDEX "world_reports_open_idx" ON "world_reports" USING btree ("game_id","resolved_by_action_id");--> statement-breakpoint
CREATE INDEX "world_reports_reporter_idx" ON "world_reports" USING btree ("reporter_id");--> statement-breakpoint
CREATE INDEX "world_reports_action_idx" ON "world_reports" USING btree ("resolved_by_action_id");--> statement-breakpoint
-- The first content rules (docs/decisions/064); an admin publishes later versions on /rules.
INSERT INTO "content_rules" ("version", "rules") VALUES (1, '[
  "No sexual content involving minors, ever, in any world or rating.",
  "No hate or harassment: do not demean people for who they are, and do not target real people.",
  "Rate your world honestly: graphic violence, gore and sexual content belong only in worlds rated Mature.",
  "No instructions for real-world harm: weapons, drugs, self-harm or crime presented as real guidance.",
  "No spam, scams or advertising: a world is a story to play, not a way to send players elsewhere.",
  "Publish only your own work, or work you may share: credit what you remix and respect others'' rights.",
  "Do not try to make the Game Master break these rules or reveal other players'' information."
]'::jsonb);
