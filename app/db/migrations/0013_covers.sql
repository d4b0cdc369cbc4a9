CREATE TABLE "cover_variants" (
	"hash" text NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "cover_variants_hash_format_width_pk" PRIMARY KEY("hash","format","width"),
	CONSTRAINT "cover_variants_format_check" CHECK ("format" IN ('avif', 'webp', 'jpeg'))
);
--> statement-breakpoint
CREATE TABLE "covers" (
	"hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "cover_hash" text;--> statement-breakpoint
ALTER TABLE "cover_variants" ADD CONSTRAINT "cover_variants_hash_covers_hash_fk" FOREIGN KEY ("hash") REFERENCES "public"."covers"("hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_cover_hash_covers_hash_fk" FOREIGN KEY ("cover_hash") REFERENCES "public"."covers"("hash") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "games_cover_hash_idx" ON "games" USING btree ("cover_hash");