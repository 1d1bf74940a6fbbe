ALTER TABLE "documents" ADD COLUMN "signature_state" jsonb;--> statement-breakpoint
ALTER TABLE "epak_documents" ADD COLUMN "signature_state" jsonb;