CREATE TABLE "free_openings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "free_openings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text,
	"client_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "free_openings" ADD CONSTRAINT "free_openings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "free_openings_user_idx" ON "free_openings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "free_openings_address_idx" ON "free_openings" USING btree ("client_address","created_at");--> statement-breakpoint
-- The functions that begin a Game Master call take the free opening's price and allowance
-- (app/db/functions/begin_story_operation.sql, begin_turn.sql, begin_turn_for_session.sql define
-- them anew after the migrations): their old signatures go.
DROP FUNCTION begin_turn_for_session(text, timestamptz, boolean, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer);
--> statement-breakpoint
DROP FUNCTION begin_turn(text, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer);
--> statement-breakpoint
DROP FUNCTION begin_story_operation(uuid, text, uuid, text, integer, text, integer, integer);
