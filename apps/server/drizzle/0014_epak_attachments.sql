CREATE TABLE "epak_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"epak_id" uuid NOT NULL,
	"epak_document_id" uuid,
	"tag_uuid" text,
	"uploaded_by" uuid,
	"name" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "epak_attachments" ADD CONSTRAINT "epak_attachments_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_attachments" ADD CONSTRAINT "epak_attachments_epak_document_id_epak_documents_id_fk" FOREIGN KEY ("epak_document_id") REFERENCES "public"."epak_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_attachments" ADD CONSTRAINT "epak_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "epak_attachments_epak" ON "epak_attachments" USING btree ("epak_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "epak_attachments_tag" ON "epak_attachments" USING btree ("epak_document_id","tag_uuid");