/**
 * Whether a loop whose Claude went idle is waiting out the plan's rate limit, for the attention model ("needs you"):
 * - OMC's wait daemon (`omc wait`) is alive and its last poll listed the loop's tmux pane: it will send that pane
 *   "1 Enter" when the limit clears (OMC 5.5.0's daemon resumes exactly the panes it lists, then empties the list).
 *   OMC re-feeds the loop: nothing needs a hand. Held while the daemon lists the pane, past the reset too, until its
 *   next poll has pressed it (and Claude is busy) or dropped it, so the reset itself raises nothing.
 * - Otherwise, while OMC's files say the plan is at its limit: nothing resumes the loop (no daemon, or one that did
 *   not list this pane), so a person must type in its pane after the reset, or start a daemon now: it needs you, and
 *   says until when.
 * Made once per quota snapshot and limit (a stable object while neither changes), so the attention model compares
 * it by identity and re-judges only the sessions with a Claude when it changes.
 */
import type { ProcessView } from '../claude/model.js';
import { planLimit, type RateLimitNote } from './loops.js';
import type { QuotaSnapshot } from './quota-domain.js';

export interface PlanHold {
  /** The plan's limit now, from OMC's files (loops.ts planLimit), or null. */
  limit: { untilMs: number; by: RateLimitNote['by'] } | null;
  /** The panes ("%3") an alive wait daemon's last poll listed as blocked; empty with no daemon alive. */
  daemonPanes: ReadonlySet<string>;
  /** A wait daemon is alive. */
  daemonAlive: boolean;
}

/** One loop's hold: the daemon will press its pane, or the limit holds it with nothing to resume it. */
export type LoopHold = { by: 'wait daemon' } | { by: 'limit'; untilMs: number; daemonAlive: boolean };

const memo = new WeakMap<QuotaSnapshot, PlanHold | null>();

/** The hold of `q` at `now`: the same object while the snapshot and the limit stay (null: nothing holds). */
export function planHoldOf(q: QuotaSnapshot | null | undefined, now: number): PlanHold | null {
  if (!q) return null;
  const limit = planLimit(q, now);
  const d = q.daemon;
  const daemonAlive = d?.alive === true;
  const panes = daemonAlive ? (d?.state?.blockedPanes ?? []).map((b) => b.id) : [];
  const kept = memo.get(q);
  if (
    kept !== undefined &&
    (kept?.limit?.untilMs ?? null) === (limit?.untilMs ?? null) &&
    (kept?.limit?.by ?? null) === (limit?.by ?? null)
  )
    return kept;
  const hold = limit || panes.length > 0 ? { limit, daemonPanes: new Set(panes), daemonAlive } : null;
  memo.set(q, hold);
  return hold;
}

/** The tmux pane id ("%0") of a Claude process, from the registry's "session:@window.%pane". */
export const paneOf = (p: ProcessView | null | undefined): string | null =>
  p?.tmux ? (/\.(%\d+)$/.exec(p.tmux)?.[1] ?? null) : null;

/** The hold of one loop's Claude (not in a turn), or null. */
export function loopHold(h: PlanHold | null | undefined, p: ProcessView | null | undefined): LoopHold | null {
  if (!h) return null;
  const pane = paneOf(p);
  if (pane !== null && h.daemonPanes.has(pane)) return { by: 'wait daemon' };
  return h.limit ? { by: 'limit', untilMs: h.limit.untilMs, daemonAlive: h.daemonAlive } : null;
}

/**
 * "rate-limited until 13:11 UTC": what a held loop's Claude waits for, the one wording of that fact on every surface
 * that says it in words (its "needs you" item's text and `waiting_on`, hence the push, the bell, `--json`; the
 * session's detail, the Cost pane). The zone is part of it: a push read on a phone in another zone is otherwise an
 * hour off, or eight.
 */
export const limitedUntilWords = (untilMs: number): string =>
  `rate-limited until ${new Date(untilMs).toISOString().slice(11, 16)} UTC`;
