import { TwoFactorChallenge } from '@pakt/domain';
import { z } from 'zod';
import { SESSION_STORAGE_KEYS } from './storage-keys';

/** A challenge with the moment it arrived, so a reload knows how long it still lives. */
const StoredChallenge = z.object({ challenge: TwoFactorChallenge, receivedAt: z.number() });
export type StoredChallenge = z.infer<typeof StoredChallenge>;

function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Keeps the -200 challenge for /authenticate (this tab only; never in the address). */
export function saveChallenge(challenge: TwoFactorChallenge, now = Date.now()): StoredChallenge {
  const stored = { challenge, receivedAt: now };
  try {
    tabStorage()?.setItem(SESSION_STORAGE_KEYS.twoFactorChallenge, JSON.stringify(stored));
  } catch {
    // Router state still carries it; only a reload would lose it.
  }
  return stored;
}

/** The challenge waiting for its code, or null when there is none or it has run out. */
export function loadChallenge(now = Date.now()): StoredChallenge | null {
  try {
    const raw = tabStorage()?.getItem(SESSION_STORAGE_KEYS.twoFactorChallenge);
    if (!raw) return null;
    const parsed = StoredChallenge.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    return isChallengeAlive(parsed.data, now) ? parsed.data : null;
  } catch {
    return null;
  }
}

export function isChallengeAlive(stored: StoredChallenge, now = Date.now()): boolean {
  return stored.receivedAt + stored.challenge.expiresIn * 1000 > now;
}

export function clearChallenge(): void {
  try {
    tabStorage()?.removeItem(SESSION_STORAGE_KEYS.twoFactorChallenge);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** The challenge a -200 answer carries, if it is well-formed. */
export function challengeFrom(data: unknown): TwoFactorChallenge | null {
  const parsed = TwoFactorChallenge.safeParse(data);
  return parsed.success ? parsed.data : null;
}
