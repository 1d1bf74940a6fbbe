ALTER TABLE "users" ADD COLUMN "photo_sha256" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "photo_type" text;