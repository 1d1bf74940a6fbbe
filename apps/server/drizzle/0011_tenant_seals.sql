CREATE TABLE "tenant_seals" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"key_algorithm" text NOT NULL,
	"ca_certificate_pem" text NOT NULL,
	"ca_private_key_sealed" text NOT NULL,
	"seal_certificate_pem" text NOT NULL,
	"seal_private_key_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenant_seals" ADD CONSTRAINT "tenant_seals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;