CREATE TABLE "two_factor_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "signed_name" text;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "verification_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "verification_code_hash" text;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "verification_code_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "verification_code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "verification_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "verification_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "verification_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "two_factor_recovery_codes" ADD CONSTRAINT "two_factor_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "two_factor_recovery_codes_user" ON "two_factor_recovery_codes" USING btree ("user_id");