/**
 * Where a session's Claude process is in its life, from everything omc-top
 * has on it: a registry entry (live, or left behind by a kill), the entry's
 * removal omc-top saw (a clean exit), or Claude Code's own exit figures at
 * the end of the transcript. "unknown" only when none of these says anything
 * (the CLI never registered: an SDK session, an older CLI, or it exited before
 * omc-top looked and left no figures).
 */
import type { ClaudeSessionView, GoneDatedBy, WaitingFact } from './model.js';
import type { ProcessStatus } from './process-status.js';
import type { ExitFigures, PendingCall, TranscriptFacts } from './transcript-facts.js';
import type { ProcessView } from './model.js';
import { isFuture } from '../../io/time-ahead.js';

export interface Life {
  status: ProcessStatus;
  /** Since when (epoch ms); null when not known. */
  sinceMs: number | null;
  /** Claude Code's final figures, when the transcript ends with them (a clean exit). */
  exit: ExitFigures | null;
  /** What dates a gone process (ProcessView.goneDatedBy); null unless gone. */
  goneDatedBy: GoneDatedBy | null;
}

/**
 * The process that waits on a prompt for the session: the one shown when it waits, else another of its processes
 * that does (ProcessView.waitingPeer: two terminals on one session); null when none waits.
 */
export function waitingProcess(p: ProcessView | null): ProcessView | null {
  if (!p) return null;
  if (p.status === 'waiting') return p;
  return p.waitingPeer && (p.status === 'busy' || p.status === 'idle') ? p.waitingPeer : null;
}

export function lifeOf(c: ClaudeSessionView | null | undefined): Life {
  const p = c?.process ?? null;
  const exit = c?.transcript?.facts.exit ?? null;
  // Another of its processes waits on a prompt: the session waits for you, since that one began waiting.
  const peer = waitingProcess(p);
  if (p && peer && peer !== p) return { status: 'waiting', sinceMs: peer.since, exit: null, goneDatedBy: null };
  if (p && p.status !== 'unknown')
    return {
      status: p.status,
      sinceMs: p.since,
      exit: p.status === 'exited' ? exit : null,
      goneDatedBy: p.status === 'gone' ? (p.goneDatedBy ?? null) : null,
    };
  // An entry omc-top cannot judge (another pid namespace) still loses to the CLI's own exit record, unless
  // it started after that exit (a resume that has not written its status yet).
  const newer = p?.startedAt != null && exit?.endMs != null && p.startedAt > exit.endMs;
  if (exit && !newer) return { status: 'exited', sinceMs: exit.endMs, exit, goneDatedBy: null };
  return { status: 'unknown', sinceMs: p?.since ?? null, exit: null, goneDatedBy: null };
}

/** No process runs the session any more: no burn rate, no "busy for". */
export const isDead = (status: ProcessStatus) => status === 'gone' || status === 'exited';

/**
 * The call a waiting process waits on: the oldest call without a result (Claude Code asks about one call
 * at a time, in the order they were made). Calls made after the wait began are not it.
 */
export function waitedCall(facts: TranscriptFacts | null, sinceMs: number | null): PendingCall | null {
  if (!facts || facts.pendingCalls.length === 0) return null;
  const before = facts.pendingCalls.filter((c) => sinceMs === null || c.atMs === null || c.atMs <= sinceMs + 1000);
  return before[0] ?? null;
}

export function waitingFact(p: ProcessView | null, facts: TranscriptFacts | null): WaitingFact | null {
  if (p?.status !== 'waiting') return null;
  const what = p.waitingFor ?? 'a prompt';
  const call = waitedCall(facts, p.since);
  const more = call && facts ? facts.pendingCalls.length - 1 : 0;
  const callText = call ? `${call.name}${call.arg ? ` ${call.arg}` : ''}` : null;
  return {
    for: what,
    sinceMs: p.since,
    call: call && { name: call.name, arg: call.arg, atMs: call.atMs },
    more,
    name: p.name,
    where: tmuxPlaceOf(p),
    text: callText ? `${what}: ${callText}${more > 0 ? ` (+${more} more)` : ''}` : what,
  };
}

/** "main:@3.%7" → "main:@3": the window is what a user switches to. */
export function tmuxWindow(tmux: string | null): string | null {
  if (!tmux) return null;
  const dot = tmux.lastIndexOf('.');
  return dot > 0 ? tmux.slice(0, dot) : tmux;
}

/**
 * Where a process runs, as tmux's status bar names it ("main:2 claude": the session, the window's index and name);
 * the registry's ids, window only ("main:@2"), when no tmux server omc-top could list named it. The one wording of
 * the place on every surface (rows, inbox, push, watch, serve).
 */
export function tmuxPlaceOf(p: { tmux: string | null; tmuxWhere: string | null } | null): string | null {
  if (!p) return null;
  return p.tmuxWhere && p.tmuxWhere !== p.tmux ? p.tmuxWhere : tmuxWindow(p.tmux);
}

/** "session proj-87 · tmux main:2 claude": the names a user finds the session by; "" when none is known. */
export function whereText(p: { name: string | null; tmux: string | null; tmuxWhere: string | null } | null): string {
  if (!p) return '';
  const place = tmuxPlaceOf(p);
  return [p.name ? `session ${p.name}` : null, place ? `tmux ${place}` : null].filter(Boolean).join(' · ');
}

/** "14:02" in UTC, the app's one time zone (the header's clock, OMC's stamps). */
export function clockHm(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayNumber = (ms: number) => Math.floor(ms / DAY_MS);

/** "Dec 6" in UTC; "Dec 6 2025" when `now` is in another year (or not given: never, "Dec 6 2026"). */
function dayText(ms: number, now?: number): string {
  const d = new Date(ms);
  const day = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  return now !== undefined && new Date(now).getUTCFullYear() === d.getUTCFullYear()
    ? day
    : `${day} ${d.getUTCFullYear()}`;
}

/** A moment with its date, whatever the clock says now: "Dec 6 2026 23:10" (UTC). For text kept without a clock. */
export function datedHm(ms: number): string {
  return `${dayText(ms)} ${clockHm(ms)}`;
}

/**
 * A moment as a sentence says it at `now` (UTC): "14:02" today, "yesterday 23:10", "Dec 6 23:10" earlier ("Dec 6 2025
 * 23:10" in another year), and a moment ahead of the clock (a clock set back) marked as such: "14:02, ahead of this
 * clock" (its date too when it is another day). A bare time always means today.
 */
export function momentWords(ms: number, now: number): string {
  const days = dayNumber(now) - dayNumber(ms);
  const at = days === 0 ? clockHm(ms) : days === 1 ? `yesterday ${clockHm(ms)}` : `${dayText(ms, now)} ${clockHm(ms)}`;
  return isFuture(ms, now) ? `${at}, ahead of this clock` : at;
}

/** The same moment in a narrow cell: "14:02" today, else its day alone ("Dec 6"); "ahead" for one ahead of the clock. */
export function momentShort(ms: number, now: number): string {
  if (isFuture(ms, now)) return 'ahead';
  return dayNumber(now) === dayNumber(ms) ? clockHm(ms) : dayText(ms, now);
}

/** Milliseconds until the next UTC midnight, when momentWords' "14:02" turns to "yesterday 14:02". */
export function dayTurnMs(now: number): number {
  return DAY_MS - (((now % DAY_MS) + DAY_MS) % DAY_MS);
}
