import type { Database } from '../db/database';

/** The channel the outbox's trigger notifies on after a commit that queued mail (migration 0027). */
export const OUTBOX_QUEUED_CHANNEL = 'outbox_queued';

/**
 * Calls `nudge` after every commit that queued mail, in this process or any other: the outbox
 * delivers itself, and no command or route has to remember to ask. Notifications arriving
 * together (a burst of commits) make one nudge; the minute sweep of the delivery jobs still
 * catches anything a lost connection missed. Returns the stop function.
 */
export async function deliverAfterCommit(database: Pick<Database, 'listen'>, nudge: () => void): Promise<() => Promise<void>> {
  let scheduled = false;
  const coalesced = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      nudge();
    });
  };
  // After a reconnect, mail may have been queued while nobody listened: nudge once to catch up.
  return database.listen(OUTBOX_QUEUED_CHANNEL, coalesced, { onReconnect: coalesced });
}
