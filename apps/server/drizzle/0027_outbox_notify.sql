-- Mail delivers itself after commit: any statement that queues outbox rows notifies
-- 'outbox_queued', which PostgreSQL delivers only when (and if) the transaction commits, and
-- folds into one per transaction. The server's listener nudges the delivery jobs (platform/mail).
CREATE FUNCTION outbox_queued_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox_queued', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER outbox_queued AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_queued_notify();
