CREATE TABLE "epak_inbox_versions" (
	"user_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "epak_inbox_versions_user_id_tenant_id_pk" PRIMARY KEY("user_id","tenant_id")
);
--> statement-breakpoint
ALTER TABLE "epak_inbox_versions" ADD CONSTRAINT "epak_inbox_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epak_inbox_versions" ADD CONSTRAINT "epak_inbox_versions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The inbox version of everyone with an inbox row for one ePak goes up by one, locked in one
-- order (as the counts are). Inbox pages kept by a server (inbox/page-cache.ts) are used only
-- while their reader's version is unchanged.
CREATE OR REPLACE FUNCTION pakt_bump_inbox_versions(epak uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO epak_inbox_versions AS v (user_id, tenant_id, version)
  SELECT DISTINCT i.user_id, i.tenant_id, 1 FROM epak_inbox i WHERE i.epak_id = pakt_bump_inbox_versions.epak
  ORDER BY i.user_id, i.tenant_id
  ON CONFLICT (user_id, tenant_id) DO UPDATE SET version = v.version + 1;
END
$$;--> statement-breakpoint
-- As in 0017, plus the versions: of the people who had a row before the sync (a row may go) and
-- of those who have one after (a row may come). Every change the sync is told of changes what an
-- inbox page shows, even when no inbox row changes (a place's status, the retention period).
CREATE OR REPLACE FUNCTION pakt_sync_inbox_once(epak uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  batch_key text := statement_timestamp()::text || ' ' || epak::text;
BEGIN
  IF current_setting('pakt.inbox_last_synced', true) IS DISTINCT FROM batch_key THEN
    PERFORM pakt_bump_inbox_versions(epak);
    PERFORM pakt_sync_inbox(epak);
    PERFORM pakt_bump_inbox_versions(epak);
    PERFORM set_config('pakt.inbox_last_synced', batch_key, true);
  END IF;
END
$$;--> statement-breakpoint
-- The sync is now also told of changes to what an ePak summary shows besides the inbox's own
-- copies: the signing policy, the notification start, view enforcement, the end and the
-- retention period of the ePak, and a step's type.
DROP TRIGGER epaks_inbox_update ON epaks;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epaks_inbox_update AFTER UPDATE ON epaks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.owner_id, OLD.status, OLD.current_step, OLD.deleted_at, OLD.archived_at, OLD.started_at, OLD.created_at, OLD.updated_at, OLD.subject, OLD.expires_at,
         OLD.signing_policy, OLD.notification_start_at, OLD.view_enforced, OLD.ended_at, OLD.archival_period_days)
    IS DISTINCT FROM (NEW.tenant_id, NEW.owner_id, NEW.status, NEW.current_step, NEW.deleted_at, NEW.archived_at, NEW.started_at, NEW.created_at, NEW.updated_at, NEW.subject, NEW.expires_at,
         NEW.signing_policy, NEW.notification_start_at, NEW.view_enforced, NEW.ended_at, NEW.archival_period_days))
  EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint
DROP TRIGGER epak_steps_inbox_update ON epak_steps;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epak_steps_inbox_update AFTER UPDATE ON epak_steps
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.epak_id, OLD.position, OLD.type) IS DISTINCT FROM (NEW.epak_id, NEW.position, NEW.type))
  EXECUTE FUNCTION pakt_inbox_source_changed();
