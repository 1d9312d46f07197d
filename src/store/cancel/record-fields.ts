/**
 * What omc-top's record of its cancels (cancel-records.ts) and the side file of their verdicts (settled-side.ts)
 * share: a cancel's settlement and the process that follows it, the session key, and the bounds both files keep.
 * One set of rules reads them in either file, so a verdict kept in the side file says exactly what it would in the
 * record.
 */
import { LEGACY_KEY } from '../sessions/model.js';
import { isValidSessionId } from '../sessions/omc-rules.js';

/** A process that follows a cancel: its pid and its start identity (null where none can be read). */
export interface CancelFollower {
  pid: number;
  start: string | null;
}

/** The verdicts a cancel settles on that other processes say too (tracker.ts phases stopped, cancelled, unobserved, not-taken). */
export const SETTLED_WORDS = ['stopped', 'cancelled', 'ended', 'not-taken'] as const;
export type SettledWordName = (typeof SETTLED_WORDS)[number];
/** How Claude's stop was seen (tracker.ts StopSeen). */
export const STOPS_SEEN = ['idle', 'turn-end', 'exited', 'gone'] as const;

/** A cancel's verdict as the process that followed it saw it. */
export interface CancelSettlement {
  word: SettledWordName;
  /** When that process's tracker settled it (epoch ms): every process shows the word for the same minutes after. */
  atMs: number;
  /** `stopped` only: when Claude was seen to stop (epoch ms), and by what sign. */
  stoppedMs: number | null;
  seen: (typeof STOPS_SEEN)[number] | null;
  /** The omc-top process that saw it. */
  byPid: number;
}

/** A cancel older than this says nothing any more: its loop has long been judged. */
export const CANCEL_RECORD_TTL_MS = 24 * 3_600_000;
/** The newest this many are kept (one per session). */
export const MAX_CANCEL_RECORDS = 200;

export const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
export const isKey = (k: unknown): k is string => typeof k === 'string' && (k === LEGACY_KEY || isValidSessionId(k));

/** The entries still in force at `now`, the newest of each key, the newest kept. */
export function bounded<T extends { key: string; requestedMs: number }>(
  entries: Iterable<T>,
  now: number,
): Map<string, T> {
  const fresh = [...entries].filter((r) => r.requestedMs > now - CANCEL_RECORD_TTL_MS);
  fresh.sort((a, b) => a.requestedMs - b.requestedMs);
  return new Map(fresh.slice(-MAX_CANCEL_RECORDS).map((r) => [r.key, r]));
}

/**
 * A settlement read from a file, or null when it is not one: a `stopped` without the stop it saw is no ✓ (the
 * entry then says the store's word, never more). Whatever else is in the object is dropped.
 */
export function parseSettlement(v: unknown, requestedMs: number): CancelSettlement | null {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  const { word, atMs, stoppedMs, seen, byPid } = o;
  if (!SETTLED_WORDS.includes(word as SettledWordName) || !isTime(atMs) || atMs < requestedMs) return null;
  if (typeof byPid !== 'number' || !Number.isSafeInteger(byPid) || byPid <= 0) return null;
  if (word !== 'stopped') return { word: word as SettledWordName, atMs, stoppedMs: null, seen: null, byPid };
  if (!isTime(stoppedMs) || stoppedMs < requestedMs || !STOPS_SEEN.includes(seen as (typeof STOPS_SEEN)[number]))
    return null;
  return { word, atMs, stoppedMs, seen: seen as (typeof STOPS_SEEN)[number], byPid };
}

/** Who follows a cancel, read from a file: a positive pid and a start identity of digits, else nobody. */
export function parseFollower(v: unknown): CancelFollower | null {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  const { pid, start } = o;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (start !== null && (typeof start !== 'string' || !/^\d{1,30}$/.test(start))) return null;
  return { pid, start };
}

export const sameSettlement = (a: CancelSettlement | null | undefined, b: CancelSettlement | null | undefined) =>
  (a ?? null) === (b ?? null) || (a?.word === b?.word && a?.atMs === b?.atMs && a?.stoppedMs === b?.stoppedMs);

export const sameFollower = (a: CancelFollower | null | undefined, b: CancelFollower | null | undefined) =>
  (a ?? null) === (b ?? null) || (a?.pid === b?.pid && a?.start === b?.start);
