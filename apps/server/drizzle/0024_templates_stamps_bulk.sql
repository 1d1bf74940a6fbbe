CREATE TABLE "bulk_compose_failures" (
	"run_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"cells" jsonb NOT NULL,
	"errors" jsonb NOT NULL,
	CONSTRAINT "bulk_compose_failures_run_id_row_number_pk" PRIMARY KEY("run_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "bulk_compose_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"template_id" uuid,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"file_size" bigint NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"created_epaks" integer DEFAULT 0 NOT NULL,
	"failed_rows" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "document_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"owner_id" uuid,
	"name" text NOT NULL,
	"description" text,
	"document_name" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"page_count" integer NOT NULL,
	"pages" jsonb NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signing_policy" text DEFAULT 'ESIGNATURE' NOT NULL,
	"workflow_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rubber_stamp_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stamp_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid,
	"group_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rubber_stamp_shares_one_target" CHECK (("rubber_stamp_shares"."user_id" is null) <> ("rubber_stamp_shares"."group_id" is null))
);
--> statement-breakpoint
CREATE TABLE "rubber_stamps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "doc_template_id" uuid;--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "bulk_run_id" uuid;--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "bulk_row" integer;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "passcode_flag" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_compose_failures" ADD CONSTRAINT "bulk_compose_failures_run_id_bulk_compose_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_compose_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_compose_runs" ADD CONSTRAINT "bulk_compose_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_compose_runs" ADD CONSTRAINT "bulk_compose_runs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_compose_runs" ADD CONSTRAINT "bulk_compose_runs_template_id_document_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."document_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_templates" ADD CONSTRAINT "document_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_templates" ADD CONSTRAINT "document_templates_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_templates" ADD CONSTRAINT "document_templates_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubber_stamp_shares" ADD CONSTRAINT "rubber_stamp_shares_stamp_id_rubber_stamps_id_fk" FOREIGN KEY ("stamp_id") REFERENCES "public"."rubber_stamps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubber_stamp_shares" ADD CONSTRAINT "rubber_stamp_shares_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubber_stamp_shares" ADD CONSTRAINT "rubber_stamp_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubber_stamp_shares" ADD CONSTRAINT "rubber_stamp_shares_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubber_stamps" ADD CONSTRAINT "rubber_stamps_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubber_stamps" ADD CONSTRAINT "rubber_stamps_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_compose_runs_file" ON "bulk_compose_runs" USING btree ("tenant_id","template_id","file_sha256");--> statement-breakpoint
CREATE INDEX "bulk_compose_runs_owner" ON "bulk_compose_runs" USING btree ("tenant_id","owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "document_templates_name" ON "document_templates" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
CREATE INDEX "document_templates_tenant_time" ON "document_templates" USING btree ("tenant_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "rubber_stamp_shares_user" ON "rubber_stamp_shares" USING btree ("stamp_id","user_id") WHERE "rubber_stamp_shares"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "rubber_stamp_shares_group" ON "rubber_stamp_shares" USING btree ("stamp_id","group_id") WHERE "rubber_stamp_shares"."group_id" is not null;--> statement-breakpoint
CREATE INDEX "rubber_stamp_shares_tenant_user" ON "rubber_stamp_shares" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "rubber_stamp_shares_tenant_group" ON "rubber_stamp_shares" USING btree ("tenant_id","group_id");--> statement-breakpoint
CREATE INDEX "rubber_stamps_owner" ON "rubber_stamps" USING btree ("tenant_id","owner_id");--> statement-breakpoint
ALTER TABLE "epaks" ADD CONSTRAINT "epaks_bulk_run_id_bulk_compose_runs_id_fk" FOREIGN KEY ("bulk_run_id") REFERENCES "public"."bulk_compose_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "epaks_bulk_row" ON "epaks" USING btree ("bulk_run_id","bulk_row") WHERE "epaks"."bulk_run_id" is not null;