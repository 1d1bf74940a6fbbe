CREATE TABLE "epak_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"epak_id" uuid NOT NULL,
	"source_document_id" uuid,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"page_count" integer NOT NULL,
	"pages" jsonb NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "epak_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"epak_id" uuid NOT NULL,
	"step_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "epak_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"epak_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"workflow_state_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "epaks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"message" text,
	"status" text DEFAULT 'Draft' NOT NULL,
	"signing_policy" text NOT NULL,
	"workflow_id" uuid,
	"expires_at" timestamp with time zone,
	"notification_start_at" timestamp with time zone,
	"view_enforced" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "epak_documents" ADD CONSTRAINT "epak_documents_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_documents" ADD CONSTRAINT "epak_documents_source_document_id_documents_id_fk" FOREIGN KEY ("source_document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD CONSTRAINT "epak_recipients_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD CONSTRAINT "epak_recipients_step_id_epak_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."epak_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD CONSTRAINT "epak_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_steps" ADD CONSTRAINT "epak_steps_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epaks" ADD CONSTRAINT "epaks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epaks" ADD CONSTRAINT "epaks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "epak_documents_epak" ON "epak_documents" USING btree ("epak_id","position");--> statement-breakpoint
CREATE INDEX "epak_recipients_epak" ON "epak_recipients" USING btree ("epak_id");--> statement-breakpoint
CREATE INDEX "epak_recipients_user" ON "epak_recipients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "epak_steps_epak" ON "epak_steps" USING btree ("epak_id","position");--> statement-breakpoint
CREATE INDEX "epaks_owner" ON "epaks" USING btree ("tenant_id","owner_id","created_at");