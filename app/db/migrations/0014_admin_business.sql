CREATE TABLE "contact_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"author_email" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_credits" (
	"day" date PRIMARY KEY NOT NULL,
	"bought" integer NOT NULL,
	"spent" integer NOT NULL,
	"granted" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_turns" (
	"day" date NOT NULL,
	"game_slug" text NOT NULL,
	"turns" integer NOT NULL,
	CONSTRAINT "daily_turns_day_game_slug_pk" PRIMARY KEY("day","game_slug")
);
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "handled_by" text;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_replies" ADD CONSTRAINT "contact_replies_message_id_contact_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."contact_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_replies" ADD CONSTRAINT "contact_replies_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_turns" ADD CONSTRAINT "daily_turns_game_slug_games_slug_fk" FOREIGN KEY ("game_slug") REFERENCES "public"."games"("slug") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "contact_replies_message_idx" ON "contact_replies" USING btree ("message_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_replies_author_idx" ON "contact_replies" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "daily_turns_game_slug_idx" ON "daily_turns" USING btree ("game_slug");--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_handled_by_user_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_messages_handled_idx" ON "contact_messages" USING btree ("handled_at","created_at");--> statement-breakpoint
CREATE INDEX "contact_messages_handled_by_idx" ON "contact_messages" USING btree ("handled_by");--> statement-breakpoint
CREATE INDEX "credit_ledger_created_idx" ON "credit_ledger" USING btree ("created_at","reason","delta");--> statement-breakpoint
CREATE INDEX "game_messages_turns_created_idx" ON "game_messages" USING btree ("created_at","game_slug","user_id") WHERE "role" = 'user';--> statement-breakpoint
CREATE INDEX "payments_completed_idx" ON "payments" USING btree ("completed_at") WHERE "status" = 'completed';--> statement-breakpoint
CREATE INDEX "payments_status_created_idx" ON "payments" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "user_created_idx" ON "user" USING btree ("created_at");