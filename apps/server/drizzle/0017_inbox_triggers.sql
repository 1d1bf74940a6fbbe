-- The inbox, its counts and the tag-value search index, kept by triggers (issue 6; docs/inbox.md).
-- Commands never write epak_inbox, epak_inbox_counts or epak_tag_values: what they change in
-- epaks, epak_recipients, epak_steps, epak_user_states and epak_documents is copied here by
-- PostgreSQL itself, at commit, so no code path can leave the inbox stale.

-- The dashboard's weekly statistics: ePaks sent and ended in a range of weeks, places acted on.
CREATE INDEX "epak_recipients_acted" ON "epak_recipients" USING btree ("acted_at");--> statement-breakpoint
CREATE INDEX "epaks_tenant_started" ON "epaks" USING btree ("tenant_id","started_at");--> statement-breakpoint
CREATE INDEX "epaks_tenant_ended" ON "epaks" USING btree ("tenant_id","ended_at");--> statement-breakpoint

-- A SQL copy of inboxFolders (packages/domain/src/inbox/folders.ts): which folders an ePak is in
-- for one person. Same rules in the same order, and the answer sorted the same way (JavaScript's
-- default sort compares code units, which is the "C" collation for these ASCII names).
-- apps/server/src/inbox/folders-sql.test.ts runs both over every combination and compares them.
CREATE OR REPLACE FUNCTION pakt_inbox_folders(
  status text,
  current_step integer,
  deleted boolean,
  archived boolean,
  is_owner boolean,
  place_statuses text[],
  place_orders integer[]
) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  i integer;
  place_status text;
  place_order integer;
  waiting boolean;
  reached boolean;
  sees boolean := coalesce(is_owner, false);
  waiting_here boolean := false;
  folders text[] := '{}';
BEGIN
  FOR i IN 1 .. coalesce(array_length(place_statuses, 1), 0) LOOP
    place_status := place_statuses[i];
    place_order := place_orders[i];
    waiting := place_status IN ('Pending', 'DelegatePending');
    -- A place has come up when acted on, or when it waits in the step under way (or one before it).
    IF waiting THEN
      reached := status = 'InProgress' AND current_step IS NOT NULL AND place_order IS NOT NULL AND place_order <= current_step;
    ELSE
      reached := place_status NOT IN ('NotRequired', 'Skipped');
    END IF;
    CONTINUE WHEN NOT coalesce(reached, false);
    sees := true;
    IF waiting AND status = 'InProgress' AND place_order = current_step THEN
      waiting_here := true;
    END IF;
    IF place_status IN ('Signed', 'Reviewed', 'Delegated', 'Rejected') THEN
      folders := folders || place_status;
    END IF;
  END LOOP;
  IF NOT sees OR (status = 'Draft' AND NOT coalesce(is_owner, false)) THEN
    RETURN '{}';
  END IF;
  IF archived THEN
    RETURN '{Archived}';
  END IF;
  IF deleted THEN
    RETURN '{Deleted}';
  END IF;
  IF status = 'Draft' THEN
    RETURN '{Draft}';
  END IF;
  IF waiting_here THEN
    folders := folders || 'Inbox'::text;
  END IF;
  IF status = 'InProgress' AND NOT waiting_here THEN
    folders := folders || 'Pending'::text;
  END IF;
  IF status IN ('Completed', 'Rejected', 'Stopped', 'Expired') THEN
    folders := folders || status;
  END IF;
  RETURN ARRAY(SELECT DISTINCT f.folder COLLATE "C" FROM unnest(folders) AS f(folder) ORDER BY 1);
END
$$;--> statement-breakpoint

-- Recomputes the inbox rows of one ePak for everyone in it: its owner and each person with a
-- place (their places carry the order of their step). Rows no longer wanted go, missing ones are
-- added, changed sort keys, star and read state are rewritten; rows already right are left alone,
-- so the count trigger only sees real changes. A missing ePak loses its rows.
CREATE OR REPLACE FUNCTION pakt_sync_inbox(epak uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  e epaks%ROWTYPE;
BEGIN
  -- The ePak's row lock makes syncs of one ePak take turns; each statement after it reads what
  -- the turn before committed (READ COMMITTED takes a snapshot per statement), so two commits
  -- touching the same ePak (one person's star, another's signature) cannot write stale rows.
  -- NO KEY UPDATE does not wait for foreign-key checks (KEY SHARE) of other transactions.
  SELECT * INTO e FROM epaks WHERE id = pakt_sync_inbox.epak FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    DELETE FROM epak_inbox WHERE epak_id = pakt_sync_inbox.epak;
    RETURN;
  END IF;
  WITH people AS (
    SELECT e.owner_id AS user_id
    UNION
    SELECT r.user_id FROM epak_recipients r WHERE r.epak_id = e.id
  ),
  wanted AS (
    SELECT p.user_id, f.folder, coalesce(s.starred, false) AS starred, s.read_at IS NOT NULL AS is_read
    FROM people p
    CROSS JOIN LATERAL (
      SELECT coalesce(array_agg(r.status ORDER BY st.position, r.position), '{}') AS statuses,
             coalesce(array_agg(st.position ORDER BY st.position, r.position), '{}') AS orders
      FROM epak_recipients r
      JOIN epak_steps st ON st.id = r.step_id
      WHERE r.epak_id = e.id AND r.user_id = p.user_id
    ) places
    CROSS JOIN LATERAL unnest(pakt_inbox_folders(
      e.status, e.current_step, e.deleted_at IS NOT NULL, e.archived_at IS NOT NULL, p.user_id = e.owner_id, places.statuses, places.orders
    )) AS f(folder)
    LEFT JOIN epak_user_states s ON s.epak_id = e.id AND s.user_id = p.user_id
  ),
  gone AS (
    DELETE FROM epak_inbox i
    WHERE i.epak_id = e.id
      AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.user_id = i.user_id AND w.folder = i.folder AND i.tenant_id = e.tenant_id)
  )
  INSERT INTO epak_inbox AS i (user_id, tenant_id, folder, epak_id, sent_at, modified_at, subject_key, expires_at, starred, is_read)
  SELECT w.user_id, e.tenant_id, w.folder, e.id, coalesce(e.started_at, e.created_at), e.updated_at, lower(e.subject), e.expires_at, w.starred, w.is_read
  FROM wanted w
  ORDER BY w.user_id, w.folder
  ON CONFLICT (user_id, tenant_id, folder, epak_id) DO UPDATE SET
    sent_at = EXCLUDED.sent_at,
    modified_at = EXCLUDED.modified_at,
    subject_key = EXCLUDED.subject_key,
    expires_at = EXCLUDED.expires_at,
    starred = EXCLUDED.starred,
    is_read = EXCLUDED.is_read
  WHERE (i.sent_at, i.modified_at, i.subject_key, i.expires_at, i.starred, i.is_read)
    IS DISTINCT FROM (EXCLUDED.sent_at, EXCLUDED.modified_at, EXCLUDED.subject_key, EXCLUDED.expires_at, EXCLUDED.starred, EXCLUDED.is_read);
END
$$;--> statement-breakpoint

-- Syncs an ePak once per batch of deferred events: the batch fired at COMMIT (or by SET
-- CONSTRAINTS ... IMMEDIATE) runs inside one statement, after every change it is about, so the
-- events of one ePak queued one after the other (an ePak composed with its steps and recipients,
-- an engine answer writing the ePak and three places) need one sync, not one each. A later batch
-- has another statement time, so changes made after an early batch are synced again.
CREATE OR REPLACE FUNCTION pakt_sync_inbox_once(epak uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  batch_key text := statement_timestamp()::text || ' ' || epak::text;
BEGIN
  IF current_setting('pakt.inbox_last_synced', true) IS DISTINCT FROM batch_key THEN
    PERFORM pakt_sync_inbox(epak);
    PERFORM set_config('pakt.inbox_last_synced', batch_key, true);
  END IF;
END
$$;--> statement-breakpoint

-- The ePak a changed row belongs to, synced at commit (the triggers below are deferred).
CREATE OR REPLACE FUNCTION pakt_inbox_source_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  old_epak uuid;
  new_epak uuid;
BEGIN
  -- Separate branches: a record has only its own table's fields (epaks has no epak_id).
  IF TG_TABLE_NAME = 'epaks' THEN
    IF TG_OP <> 'INSERT' THEN old_epak := OLD.id; END IF;
    IF TG_OP <> 'DELETE' THEN new_epak := NEW.id; END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN old_epak := OLD.epak_id; END IF;
    IF TG_OP <> 'DELETE' THEN new_epak := NEW.epak_id; END IF;
  END IF;
  IF old_epak IS NOT NULL THEN
    PERFORM pakt_sync_inbox_once(old_epak);
  END IF;
  IF new_epak IS NOT NULL AND new_epak IS DISTINCT FROM old_epak THEN
    PERFORM pakt_sync_inbox_once(new_epak);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint

-- Deferred to commit: a command's rows are all in place by then (an ePak composed with its steps
-- and recipients is synced once it is whole), and the sync runs inside the command's transaction.
-- Updates fire only when something the inbox copies changed (not a reminder time, not a list of
-- viewed documents).
CREATE CONSTRAINT TRIGGER epaks_inbox_insert_delete AFTER INSERT OR DELETE ON epaks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epaks_inbox_update AFTER UPDATE ON epaks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.owner_id, OLD.status, OLD.current_step, OLD.deleted_at, OLD.archived_at, OLD.started_at, OLD.created_at, OLD.updated_at, OLD.subject, OLD.expires_at)
    IS DISTINCT FROM (NEW.tenant_id, NEW.owner_id, NEW.status, NEW.current_step, NEW.deleted_at, NEW.archived_at, NEW.started_at, NEW.created_at, NEW.updated_at, NEW.subject, NEW.expires_at))
  EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epak_recipients_inbox_insert_delete AFTER INSERT OR DELETE ON epak_recipients
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epak_recipients_inbox_update AFTER UPDATE ON epak_recipients
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.epak_id, OLD.step_id, OLD.user_id, OLD.status) IS DISTINCT FROM (NEW.epak_id, NEW.step_id, NEW.user_id, NEW.status))
  EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epak_steps_inbox_insert_delete AFTER INSERT OR DELETE ON epak_steps
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epak_steps_inbox_update AFTER UPDATE ON epak_steps
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.epak_id, OLD.position) IS DISTINCT FROM (NEW.epak_id, NEW.position))
  EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epak_user_states_inbox_insert_delete AFTER INSERT OR DELETE ON epak_user_states
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER epak_user_states_inbox_update AFTER UPDATE ON epak_user_states
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.epak_id, OLD.user_id, OLD.starred, OLD.read_at IS NULL) IS DISTINCT FROM (NEW.epak_id, NEW.user_id, NEW.starred, NEW.read_at IS NULL))
  EXECUTE FUNCTION pakt_inbox_source_changed();--> statement-breakpoint

-- Folder counts: every statement's inbox changes, summed per person, tenant and folder and added
-- in one upsert (a bulk load is one statement, not a million). Keys are taken in a fixed order so
-- two commits touching the same people lock their count rows in the same order. A count row is
-- not made for a person or tenant being deleted (their rows go by cascade, and so do the counts).
CREATE OR REPLACE FUNCTION pakt_inbox_counts_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO epak_inbox_counts AS c (user_id, tenant_id, folder, total, unread)
    SELECT d.user_id, d.tenant_id, d.folder, d.total, d.unread
    FROM (
      SELECT user_id, tenant_id, folder, count(*)::integer AS total, (count(*) FILTER (WHERE NOT is_read))::integer AS unread
      FROM inbox_new GROUP BY user_id, tenant_id, folder
    ) d
    WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = d.user_id) AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = d.tenant_id)
    ORDER BY d.user_id, d.tenant_id, d.folder
    ON CONFLICT (user_id, tenant_id, folder) DO UPDATE SET total = c.total + EXCLUDED.total, unread = c.unread + EXCLUDED.unread;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO epak_inbox_counts AS c (user_id, tenant_id, folder, total, unread)
    SELECT d.user_id, d.tenant_id, d.folder, d.total, d.unread
    FROM (
      SELECT user_id, tenant_id, folder, -count(*)::integer AS total, -(count(*) FILTER (WHERE NOT is_read))::integer AS unread
      FROM inbox_old GROUP BY user_id, tenant_id, folder
    ) d
    WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = d.user_id) AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = d.tenant_id)
    ORDER BY d.user_id, d.tenant_id, d.folder
    ON CONFLICT (user_id, tenant_id, folder) DO UPDATE SET total = c.total + EXCLUDED.total, unread = c.unread + EXCLUDED.unread;
  ELSE
    INSERT INTO epak_inbox_counts AS c (user_id, tenant_id, folder, total, unread)
    SELECT d.user_id, d.tenant_id, d.folder, d.total, d.unread
    FROM (
      SELECT user_id, tenant_id, folder, sum(total)::integer AS total, sum(unread)::integer AS unread
      FROM (
        SELECT user_id, tenant_id, folder, 1 AS total, CASE WHEN is_read THEN 0 ELSE 1 END AS unread FROM inbox_new
        UNION ALL
        SELECT user_id, tenant_id, folder, -1, CASE WHEN is_read THEN 0 ELSE -1 END FROM inbox_old
      ) changes
      GROUP BY user_id, tenant_id, folder
    ) d
    WHERE (d.total <> 0 OR d.unread <> 0)
      AND EXISTS (SELECT 1 FROM users u WHERE u.id = d.user_id) AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = d.tenant_id)
    ORDER BY d.user_id, d.tenant_id, d.folder
    ON CONFLICT (user_id, tenant_id, folder) DO UPDATE SET total = c.total + EXCLUDED.total, unread = c.unread + EXCLUDED.unread;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER epak_inbox_counts_insert AFTER INSERT ON epak_inbox
  REFERENCING NEW TABLE AS inbox_new FOR EACH STATEMENT EXECUTE FUNCTION pakt_inbox_counts_changed();--> statement-breakpoint
CREATE TRIGGER epak_inbox_counts_update AFTER UPDATE ON epak_inbox
  REFERENCING OLD TABLE AS inbox_old NEW TABLE AS inbox_new FOR EACH STATEMENT EXECUTE FUNCTION pakt_inbox_counts_changed();--> statement-breakpoint
CREATE TRIGGER epak_inbox_counts_delete AFTER DELETE ON epak_inbox
  REFERENCING OLD TABLE AS inbox_old FOR EACH STATEMENT EXECUTE FUNCTION pakt_inbox_counts_changed();--> statement-breakpoint

-- The filled values of one document's tags (composites' members included), for the "ePak tag"
-- search: name is the tag's label, else its name, else its type; a select's chosen options are
-- joined. Images (signatures, initials, pictures, letterheads, anything sent as a data URL) are
-- not text anyone searches for, and would only bloat the trigram index.
CREATE OR REPLACE FUNCTION pakt_sync_tag_values(document uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM epak_tag_values WHERE epak_document_id = pakt_sync_tag_values.document;
  WITH RECURSIVE doc AS (
    SELECT d.id, d.epak_id, e.tenant_id, d.tags
    FROM epak_documents d
    JOIN epaks e ON e.id = d.epak_id
    WHERE d.id = pakt_sync_tag_values.document
  ),
  tag(t) AS (
    SELECT x FROM doc CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(doc.tags) = 'array' THEN doc.tags ELSE '[]'::jsonb END) AS x
    UNION ALL
    SELECT c FROM tag CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(tag.t -> 'children') = 'array' THEN tag.t -> 'children' ELSE '[]'::jsonb END) AS c
  ),
  valued AS (
    SELECT
      tag.t ->> 'uuid' AS tag_uuid,
      coalesce(nullif(btrim(tag.t ->> 'label'), ''), nullif(btrim(tag.t ->> 'name'), ''), tag.t ->> 'type') AS name,
      CASE jsonb_typeof(tag.t -> 'value')
        WHEN 'string' THEN tag.t ->> 'value'
        WHEN 'array' THEN (SELECT string_agg(v, ', ') FROM jsonb_array_elements_text(tag.t -> 'value') AS v)
      END AS value
    FROM tag
    WHERE jsonb_typeof(tag.t) = 'object'
      AND tag.t ->> 'uuid' IS NOT NULL
      AND coalesce(tag.t ->> 'type', '') NOT IN ('signature', 'userInitial', 'image', 'letterHead', 'composite')
  )
  INSERT INTO epak_tag_values (epak_id, tenant_id, epak_document_id, tag_uuid, name, value)
  SELECT DISTINCT ON (valued.tag_uuid) doc.epak_id, doc.tenant_id, doc.id, valued.tag_uuid, coalesce(valued.name, ''), valued.value
  FROM valued CROSS JOIN doc
  WHERE btrim(coalesce(valued.value, '')) <> '' AND valued.value NOT LIKE 'data:%'
  ORDER BY valued.tag_uuid;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION pakt_epak_document_tags_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pakt_sync_tag_values(NEW.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER epak_documents_tag_values AFTER INSERT OR UPDATE OF tags ON epak_documents
  FOR EACH ROW EXECUTE FUNCTION pakt_epak_document_tags_changed();--> statement-breakpoint

-- Backfill: every ePak's inbox rows and every document's tag values, then the counts recomputed
-- from the rows, so they are exact from here on whatever was there before.
SELECT pakt_sync_inbox(id) FROM epaks;--> statement-breakpoint
SELECT pakt_sync_tag_values(id) FROM epak_documents;--> statement-breakpoint
DELETE FROM epak_inbox_counts;--> statement-breakpoint
INSERT INTO epak_inbox_counts (user_id, tenant_id, folder, total, unread)
SELECT user_id, tenant_id, folder, count(*)::integer, (count(*) FILTER (WHERE NOT is_read))::integer
FROM epak_inbox GROUP BY user_id, tenant_id, folder;
