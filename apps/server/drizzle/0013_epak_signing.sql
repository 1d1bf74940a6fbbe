CREATE TABLE "epak_document_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"epak_document_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"recipient_id" uuid,
	"predecessor_sha256" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"tail_sha256" text NOT NULL,
	"tail_size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "epak_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"epak_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "epak_user_states" (
	"epak_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"starred" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone,
	"viewed_document_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "epak_user_states_epak_id_user_id_pk" PRIMARY KEY("epak_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "epak_activities" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "epak_activities" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "delegated_from_id" uuid;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "last_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epak_recipients" ADD COLUMN "acted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "deleted_by" uuid;--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "archival_period_days" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "scope_tenant_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "scope_epak_id" uuid;--> statement-breakpoint
ALTER TABLE "epak_document_revisions" ADD CONSTRAINT "epak_document_revisions_epak_document_id_epak_documents_id_fk" FOREIGN KEY ("epak_document_id") REFERENCES "public"."epak_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_document_revisions" ADD CONSTRAINT "epak_document_revisions_recipient_id_epak_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."epak_recipients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_links" ADD CONSTRAINT "epak_links_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_links" ADD CONSTRAINT "epak_links_recipient_id_epak_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."epak_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_user_states" ADD CONSTRAINT "epak_user_states_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_user_states" ADD CONSTRAINT "epak_user_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "epak_document_revisions_seq" ON "epak_document_revisions" USING btree ("epak_document_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "epak_document_revisions_recipient" ON "epak_document_revisions" USING btree ("epak_document_id","recipient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "epak_links_token" ON "epak_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "epak_links_recipient" ON "epak_links" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "epak_user_states_user" ON "epak_user_states" USING btree ("user_id");