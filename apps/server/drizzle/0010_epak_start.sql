CREATE TABLE "epak_activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"epak_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "epaks" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "epak_activities" ADD CONSTRAINT "epak_activities_epak_id_epaks_id_fk" FOREIGN KEY ("epak_id") REFERENCES "public"."epaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_activities" ADD CONSTRAINT "epak_activities_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "epak_activities_seq" ON "epak_activities" USING btree ("epak_id","seq");