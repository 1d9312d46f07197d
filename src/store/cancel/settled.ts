/**
 * The one word a session's row says once omc-top's cancel of it is settled, on every surface, for five minutes: the
 * monitor's row, detail and Cost pane, a second monitor's, `--json` (`status_text`, `cancel_settled`), `watch --json
 * --rows` and the fleet (the row's `cancelSettled`), and the serve page:
 *
 * - `stopped`: Claude, in its turn at the cancel, was seen to stop with the loop still ended on disk (the ✓ of the
 *   detail: a stop the process that followed the cancel saw, and recorded);
 * - `cancelled`: the window ended with the loop ended on disk and Claude not in a turn at the cancel;
 * - `ended`: the same with no Claude to see, or one whose turn could not be told from the disk (no ✓);
 * - `not taken`: a mode the cancel ended was active again when its window ended (until the session holds no loop).
 *
 * The process that followed the cancel (its tracker, tracker.ts; or, for a cancel its maker does not follow to its
 * end, any live omc-top on the root: follow.ts) records what it saw in the cancel's shared record (cancel-records.ts
 * `settled`), the first to settle only; every process says the word from there (the maker from its tracker until the
 * record holds one: tracker.ts settlementOf), so they agree. A process that has no such record (it could not be read or written) says
 * the store's word: never more than was seen.
 */
import { holdsAgent, type SessionView } from '../sessions/model.js';
import type { CancelRecord, CancelSettlement, SettledWordName } from './cancel-records.js';
import { settlementOf, tookText, type TrackedCancel } from './tracker.js';

/** How long a settled verdict stays on the row (the detail keeps the tracker's story). */
export const SETTLED_SHOW_MS = 5 * 60_000;

/** A settled cancel as a row says it (and as `watch --json --rows` sends it): the word, and when it settled. */
export interface SettledWord {
  word: SettledWordName;
  /** When it settled (epoch ms): the word leaves every surface SETTLED_SHOW_MS after. */
  atMs: number;
}

const TEXT: Record<SettledWordName, string> = {
  stopped: 'stopped',
  cancelled: 'cancelled',
  ended: 'ended',
  'not-taken': 'not taken',
};

/**
 * Whether a loop-ended word (`stopped`, `cancelled`, `ended`) gives way to the store's: the session's Stop hook, by
 * its version's rules, still blocks (for a mode the cancel did not end).
 */
export const settledHides = (s: Pick<SessionView, 'verdict'>): boolean => s.verdict?.decision === 'block';

/** The row's word: "stopped", "cancelled", "ended", "not taken". */
export const settledText = (w: SettledWord): string => TEXT[w.word];

/** Whether the word is still said at `now` (the receiver of a row decides on its own clock). */
export const settledShown = (w: SettledWord, now: number): boolean => now - w.atMs < SETTLED_SHOW_MS;

/**
 * The word of a settlement at `now`, or null once its minutes are over. `not taken` names a loop active again: once
 * the session holds no loop any more (OMC's own /cancel, the serve page, the loop's end) the row follows the disk.
 * A loop the cancel ended that was started after it (its `started_at`) is a new run: `not taken` is not said of it.
 * The others name a loop ended: once a mode the cancel ended (`ended`) is active again (started anew), likewise.
 */
export function shownSettlement(
  set: CancelSettlement | null | undefined,
  ended: readonly string[],
  s: Pick<SessionView, 'modes' | 'verdict'>,
  now: number,
  /** When the cancel was made: a loop it ended that was started after it is a new run, not the cancel failing. */
  requestedMs: number | null = null,
): SettledWord | null {
  if (!set) return null;
  const w = { word: set.word, atMs: set.atMs };
  if (!settledShown(w, now)) return null;
  const anew = (m: SessionView['modes'][number]) =>
    requestedMs !== null && ended.includes(m.mode) && m.startedMs !== null && m.startedMs > requestedMs;
  if (set.word === 'not-taken') return s.modes.some((m) => holdsAgent(m) && !anew(m)) ? w : null;
  // A loop the cancel did not end still holds the agent at its next Stop (on 4.4.4, an ultrawork another prompt
  // started): "cancelled" would say the agent is free; the row says the store's word for that loop instead.
  if (settledHides(s)) return null;
  return s.modes.some((m) => m.active && ended.includes(m.mode)) ? null : w;
}

/** The settled word of a recorded cancel (any process's), as `--json`, `watch --json --rows` and serve say it. */
export const recordedSettled = (
  rec: CancelRecord | undefined,
  s: Pick<SessionView, 'modes' | 'verdict'>,
  now: number,
) => shownSettlement(rec?.settled, rec?.modes ?? [], s, now, rec?.requestedMs ?? null);

/**
 * The settlement a session's row says: the shared record's when one is recorded (the first to settle wins, whoever
 * followed it: follow.ts), else this process's tracker's when it made the newest cancel or pause (what it records for
 * the others, whether or not the write went through); null when none is shown.
 */
export function rowSettlement(
  tracked: TrackedCancel | undefined,
  rec: CancelRecord | undefined,
  s: Pick<SessionView, 'modes' | 'verdict'>,
  now: number,
): { word: SettledWord; settlement: CancelSettlement; requestedMs: number } | null {
  const own = tracked !== undefined && tracked.requestedMs >= (rec?.requestedMs ?? 0);
  // A pause made since says its own words: an older cancel's verdict is not about it.
  if (own && tracked.pauseOnly) return null;
  const settlement = own ? (ownRecorded(tracked, rec) ?? settlementOf(tracked, process.pid)) : (rec?.settled ?? null);
  const requestedMs = own ? tracked.requestedMs : (rec?.requestedMs ?? 0);
  const word = shownSettlement(settlement, own ? tracked.modes : (rec?.modes ?? []), s, now, requestedMs);
  return word && settlement ? { word, settlement, requestedMs } : null;
}

/** The settlement recorded for this process's own cancel (its own, or another process's that came first), or null. */
export const ownRecorded = (tracked: TrackedCancel, rec: CancelRecord | undefined): CancelSettlement | null =>
  rec !== undefined && rec.requestedMs === tracked.requestedMs ? (rec.settled ?? null) : null;

/** The settled word of a session's row (rowSettlement), or null. */
export const rowSettled = (
  tracked: TrackedCancel | undefined,
  rec: CancelRecord | undefined,
  s: Pick<SessionView, 'modes' | 'verdict'>,
  now: number,
): SettledWord | null => rowSettlement(tracked, rec, s, now)?.word ?? null;

/** What was seen, in a sentence (the detail after the word, `--json`'s `cancel_settled.why`). */
export function settledWhy(set: CancelSettlement, requestedMs: number): string {
  const by = `omc-top (pid ${set.byPid})`;
  switch (set.word) {
    case 'stopped':
      return `${by} saw Claude stop ✓ in ${tookText((set.stoppedMs ?? requestedMs) - requestedMs)} after its cancel (${SEEN[set.seen ?? 'idle']}), the loop still ended on disk`;
    case 'cancelled':
      return `${by} saw the cancel's window end with the loop ended on disk; Claude was not in a turn at the cancel`;
    case 'ended':
      return `${by} saw the cancel's window end with the loop ended on disk; Claude's stop was not observed`;
    default:
      return `${by} saw a mode the cancel ended active again when its window ended`;
  }
}

const SEEN: Record<NonNullable<CancelSettlement['seen']>, string> = {
  idle: 'its registry entry turned idle',
  'turn-end': 'its transcript recorded the end of the turn',
  exited: 'it exited',
  gone: 'its process is gone',
};
