import type { SessionUser } from '@pakt/domain';
import { sessionStore } from '../../api/session-store';

/** Keeps the header (name) and the session's view of two-factor in step with what the server says. */
export function updateSessionUser(changes: Partial<SessionUser>): void {
  const current = sessionStore.get();
  if (current) sessionStore.set({ ...current, user: { ...current.user, ...changes } });
}
