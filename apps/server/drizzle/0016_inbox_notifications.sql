-- Trigram indexes for the global search (issue 6). pg_trgm is a trusted extension (PostgreSQL 13+);
-- PGlite loads it at open (db/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid,
	"text" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "epak_inbox" (
	"user_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"folder" text NOT NULL,
	"epak_id" uuid NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"modified_at" timestamp with time zone NOT NULL,
	"subject_key" text NOT NULL,
	"expires_at" timestamp with time zone,
	"starred" boolean DEFAULT false NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	CONSTRAINT "epak_inbox_user_id_tenant_id_folder_epak_id_pk" PRIMARY KEY("user_id","tenant_id","folder","epak_id")
);
--> statement-breakpoint
CREATE TABLE "epak_inbox_counts" (
	"user_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"folder" text NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"unread" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "epak_inbox_counts_user_id_tenant_id_folder_pk" PRIMARY KEY("user_id","tenant_id","folder")
);
--> statement-breakpoint
CREATE TABLE "epak_tag_values" (
	"epak_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"epak_document_id" uuid NOT NULL,
	"tag_uuid" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "epak_tag_values_epak_document_id_tag_uuid_pk" PRIMARY KEY("epak_document_id","tag_uuid")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"epak_id" uuid,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_inbox" ADD CONSTRAINT "epak_inbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_inbox" ADD CONSTRAINT "epak_inbox_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_inbox" ADD CONSTRAINT "epak_inbox_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_inbox_counts" ADD CONSTRAINT "epak_inbox_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_inbox_counts" ADD CONSTRAINT "epak_inbox_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_tag_values" ADD CONSTRAINT "epak_tag_values_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_tag_values" ADD CONSTRAINT "epak_tag_values_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_tag_values" ADD CONSTRAINT "epak_tag_values_epak_document_id_epak_documents_id_fk" FOREIGN KEY ("epak_document_id") REFERENCES "public"."epak_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcements_tenant_end" ON "announcements" USING btree ("tenant_id","end_time");--> statement-breakpoint
CREATE INDEX "epak_inbox_sent" ON "epak_inbox" USING btree ("user_id","tenant_id","folder","sent_at","epak_id");--> statement-breakpoint
CREATE INDEX "epak_inbox_modified" ON "epak_inbox" USING btree ("user_id","tenant_id","folder","modified_at","epak_id");--> statement-breakpoint
CREATE INDEX "epak_inbox_subject" ON "epak_inbox" USING btree ("user_id","tenant_id","folder","subject_key","epak_id");--> statement-breakpoint
CREATE INDEX "epak_inbox_expires" ON "epak_inbox" USING btree ("user_id","tenant_id","folder","expires_at","epak_id");--> statement-breakpoint
CREATE INDEX "epak_inbox_epak" ON "epak_inbox" USING btree ("epak_id","user_id");--> statement-breakpoint
CREATE INDEX "epak_tag_values_epak" ON "epak_tag_values" USING btree ("epak_id");--> statement-breakpoint
CREATE INDEX "epak_tag_values_value" ON "epak_tag_values" USING gin (lower("value") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "notifications_user" ON "notifications" USING btree ("user_id","tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "epaks_subject_trgm" ON "epaks" USING gin (lower("subject") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "epaks_tenant_created" ON "epaks" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "epaks_tenant_expires" ON "epaks" USING btree ("tenant_id","expires_at");--> statement-breakpoint
CREATE INDEX "epaks_tenant_workflow" ON "epaks" USING btree ("tenant_id","workflow_id");