-- Signing reasons per tenant (issue 8). Every tenant has reasons from the start: a trigger seeds the
-- four built-in rows when a tenant is created, whatever creates it (root console, tests, imports),
-- so no code path can forget; the statement at the end seeds the tenants that already exist. The
-- first row is the default (spec §9 "default reason id 1").

CREATE TABLE "reasons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"key" text,
	"text" text NOT NULL,
	"position" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reasons" ADD CONSTRAINT "reasons_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reasons_text" ON "reasons" USING btree ("tenant_id",lower("text"));--> statement-breakpoint
CREATE UNIQUE INDEX "reasons_key" ON "reasons" USING btree ("tenant_id","key") WHERE "reasons"."key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reasons_one_default" ON "reasons" USING btree ("tenant_id") WHERE "reasons"."is_default";--> statement-breakpoint
CREATE INDEX "reasons_tenant_position" ON "reasons" USING btree ("tenant_id","position");--> statement-breakpoint
CREATE OR REPLACE FUNCTION pakt_seed_reasons(tenant uuid) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "reasons" ("tenant_id", "key", "text", "position", "is_default")
  VALUES
    (tenant, 'approve', 'I approve this document', 1, true),
    (tenant, 'agree', 'I agree to the terms of this document', 2, false),
    (tenant, 'author', 'I am the author of this document', 3, false),
    (tenant, 'witness', 'I sign as a witness', 4, false)
  ON CONFLICT DO NOTHING;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION pakt_tenant_reasons_trigger() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pakt_seed_reasons(NEW.id);
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "tenants_seed_reasons" AFTER INSERT ON "tenants" FOR EACH ROW EXECUTE FUNCTION pakt_tenant_reasons_trigger();--> statement-breakpoint
SELECT pakt_seed_reasons("id") FROM "tenants";
