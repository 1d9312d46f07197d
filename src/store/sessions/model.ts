import type { ModeStatus } from './omc-rules.js';
import type { Problem } from '../types.js';

export interface ModeView {
  mode: string;
  /** Relative to the .omc root. */
  path: string;
  /** `active === true` and not tombstoned (OMC's registry rule). */
  active: boolean;
  status: ModeStatus;
  /** The Stop hook (of the OMC version running this session's hooks) holds the agent for it at the next Stop. */
  enforced: boolean;
  /** Why the hook lets the agent stop although this mode's gate holds (cancel-signal, stop-hook-active…), or null. */
  pausedBy: string | null;
  /** The rule that decided, as a stable id and in words. */
  verdict: { rule: string; detail: string };
  /** OMC's registry reading of the file (active / finished / tombstoned…), in words. */
  reason: string;
  iteration: number | null;
  max: number | null;
  phase: string | null;
  extras: string[];
  startedMs: number | null;
  updatedMs: number | null;
  /**
   * When the file was last written (its modification time, as read), or null: the evidence that a loop is active
   * again after a cancel (feeds/attention/needs.ts `recordNeed`), whatever times the file's contents carry.
   */
  writtenMs: number | null;
  owner: string | null;
  /** The file's owner is a different session than the directory it sits in. */
  stranded: boolean;
  linked: string[];
  /** OMC 5.5 retired this mode (its Stop hook no longer reads it), whichever OMC judges the session. */
  retired: boolean;
  /**
   * Retired for the OMC that judges this session: what the row's "(retired)" says. Under 4.x rules a 5.5-retired
   * mode is still enforced, and a row must not call it both.
   */
  retiredForItsBook: boolean;
  /** Sanitised prompt / objective, one line. */
  prompt: string | null;
  /** Every field of the file, sanitised, for the detail view. */
  fields: Record<string, unknown>;
  /** Set when the last read failed; the values above are the last good ones. */
  problem: string | null;
  /** Fields of a type OMC does not write (`"iteration": "three"`): read, but shown as found; the row marks it ⚠. */
  fieldProblem: string | null;
}

export interface CancelView {
  path: string;
  mode: string | null;
  source: string | null;
  requestedMs: number | null;
  expiresMs: number | null;
  /** The Stop hook of this session, under the rules in use, honours it now. */
  inForce: boolean;
  /** While in force: when it stops pausing the hook. */
  untilMs: number | null;
  targeted: boolean;
  reason: string;
}

export type SessionStatus = ModeStatus | 'cancelling' | 'idle';

/** Which OMC a session runs, and where that was found. */
export interface SessionOmc {
  version: string | null;
  source: string;
  sourceTag: string;
  rules: string;
  /** The book was taken from this version's own hook. */
  exact: boolean;
  /** Not found anywhere: the newest book is assumed. */
  assumed?: boolean;
  /** What is known to differ from the book for this version. */
  differences?: readonly string[];
}

export interface SessionView {
  /** Directory name, or "legacy" for session-less state. */
  id: string;
  kind: 'session' | 'legacy';
  dir: string;
  modes: ModeView[];
  cancel: CancelView | null;
  status: SessionStatus;
  /** Smaller = needs attention sooner. */
  rank: number;
  startedMs: number | null;
  updatedMs: number | null;
  /** From <omc>/sessions/<sid>.json, written by OMC at SessionEnd. */
  ended: { endedAt: string | null; reason: string | null } | null;
  cwd: string | null;
  problems: Problem[];
  /**
   * What the Stop hook does at this session's next Stop (null for the legacy row). `unknown` (rule
   * `omc-top-cannot-read`) when it depends on a file or directory omc-top could not read (`unreadable`).
   */
  verdict: {
    rules: string;
    decision: 'block' | 'stop' | 'unknown';
    mode: string | null;
    rule: string;
    detail: string;
    /** For a block: what the Stop payload could carry (unseen by omc-top) that would let the agent stop. */
    unless: readonly string[];
    /** The OMC version is unknown and the rule books disagree: each book's decision. */
    readings: ReadonlyArray<{ rules: readonly string[]; decision: 'block' | 'stop'; mode: string | null }> | null;
  } | null;
  /** The OMC that runs this session's hooks (its own Claude process's, else the project's); null for legacy. */
  omc?: SessionOmc | null;
  /**
   * What omc-top could not read although its Stop hook reads it (a mode file, its directory, a file a verdict
   * depends on: permission denied, an I/O error), relative to the .omc root; empty when nothing. While any is,
   * the status is `unreadable` and the verdict `unknown` (OMC's hook, run as the owner, may well hold the agent).
   */
  unreadable?: readonly string[];
  /** Why the first of `unreadable` could not be read (its read failure, or why the directory could not be listed). */
  unreadableWhy?: string;
  /**
   * A directory above this session that omc-top may no longer list (`.omc` itself, `state`, `state/sessions`:
   * SessionsSnapshot.unreadableDirs), first in `unreadable`: the session is what omc-top last saw of it, its loops
   * now unknown. That directory's own item stands for it in "needs you" (one item, not one per session).
   */
  unreadableAbove?: string;
  /** Time-driven re-evaluation point (pending expiry, stale threshold, cancel expiry). */
  nextChangeAt: number | null;
}

export interface SessionsSnapshot {
  version: number;
  sessions: readonly SessionView[];
  problems: readonly Problem[];
  /** Epoch ms of the derivation, for age display consistency. */
  derivedAt: number;
  /** While the first scan is still reading session directories: how far it got. */
  scanning?: { done: number; total: number } | null;
  /**
   * The header's counts (sessionCountOf summed) and the running loops (loopCountOf summed: the status line's
   * count), kept by the domain as sessions change.
   */
  counts?: {
    running: number;
    stale: number;
    loops?: number;
    unreadable?: number;
    /** Sessions kept under a directory omc-top may no longer list (SessionView.unreadableAbove). */
    above?: number;
  };
  /**
   * Sessions counting down a cancel signal (signalUntilMs: cancelling, or paused by the signal), kept by the domain
   * as sessions change (0 almost always): the screen repaints each second while there are any.
   */
  cancelling?: number;
  /** Each row's key, in the order of `sessions`: the directory name, LEGACY_KEY for the session-less row. */
  keys?: readonly string[];
  /**
   * What changed since the snapshot published just before this one (version `from`): the views new in this one
   * (sessions added or changed) and the last views of the sessions that went. A consumer that saw version `from`
   * applies these instead of passing over every session, so the work of a change is that change.
   */
  delta?: SessionsDelta | null;
  /**
   * The same object in every snapshot one domain publishes: work a consumer remembers between snapshots is keyed by
   * it, since versions count per domain (the fleet shows several projects' sessions in one process).
   */
  lineage?: object;
  /** The OMC installs found per session (their Claude processes), distinct, for the header. */
  omcSeen?: readonly SessionOmc[];
  /**
   * Directories above the sessions omc-top may not list (`.omc` itself, `state`, `state/sessions`: permission
   * denied, an I/O error), relative to the .omc root (the root itself named `.omc`): the sessions in them are
   * unknown, not absent; those seen before are kept, `unreadable` (SessionView.unreadableAbove). Usually empty.
   */
  unreadableDirs?: readonly string[];
  /**
   * The last scan found no `.omc` at the root's path (moved away, removed, a file there): its sessions are kept as
   * last seen, each `unreadable`. A scan may see it before the watcher's status says so (the attention monitor
   * diffs no such picture: monitor.ts `settled`).
   */
  rootAway?: boolean;
}

export interface SessionsDelta {
  from: number;
  changed: readonly SessionView[];
  removed: readonly SessionView[];
  /**
   * Every view of version `from` this snapshot no longer holds: the previous views of the sessions in `changed`
   * (those that had one) and the `removed` ones. A consumer that keeps views in an order finds each by binary search.
   */
  gone?: readonly SessionView[];
}

/** The key of the session-less row in `keys` (the domain's key for it; the sessions pane's row key). */
export const LEGACY_KEY = ':legacy';

/** A session's key (as in `keys`): LEGACY_KEY for the session-less state, else its directory name. */
export const sessionKey = (s: Pick<SessionView, 'kind' | 'id'>): string => (s.kind === 'legacy' ? LEGACY_KEY : s.id);

/**
 * The delta from the snapshot at version `seen` to `next`, or null when `next` does not follow it directly (a
 * consumer that missed a picture, or a snapshot made elsewhere): then only a pass over every session will do.
 */
export function deltaSince(seen: SessionsSnapshot | null, next: SessionsSnapshot): SessionsDelta | null {
  if (!seen) return null;
  if (seen === next) return { from: seen.version, changed: [], removed: [], gone: [] };
  return next.delta && next.delta.from === seen.version ? next.delta : null;
}

/**
 * A running loop: the Stop hook holds the agent for it (or will, once a pending loop is armed or a pause ends).
 * A file stranded in another session's directory is its owner's loop, counted on the owner's row (which shows it
 * too): on the row of the directory that holds it, it holds nothing (that session's hook ignores it).
 */
export const holdsAgent = (m: Pick<ModeView, 'status'> & { stranded?: boolean }): boolean =>
  m.stranded !== true && (m.status === 'enforced' || m.status === 'pending' || m.status === 'paused');

/**
 * While a cancel signal in force decides the session's word (derive.ts sessionStatus: `cancelling`, or `paused`
 * when its loops kept their state), when OMC's Stop hook stops honouring it (epoch ms); else null. What every
 * surface counts down from: the row's `cancel 12s` / `pause 12s`, `cancelUntilMs` of the wire's row.
 */
export const signalUntilMs = (s: Pick<SessionView, 'status' | 'cancel'>): number | null =>
  (s.status === 'cancelling' || s.status === 'paused') && s.cancel?.inForce === true ? s.cancel.untilMs : null;

/**
 * No session ranked after this one holds a running loop: a mode that holds makes its session's status pending,
 * enforced or paused (or cancelling), ranked at most this (derive.ts STATUS_RANK, sessionStatus), and problems
 * only lower a rank. Sessions are sorted by rank first, so a walk for the running loops stops at the first
 * session ranked higher: the stale ones, thousands in a long-lived tree, come after (test/attention/loop-values).
 */
export const LAST_HOLDING_RANK = 2;

export const EMPTY_SESSIONS: SessionsSnapshot = { version: 0, sessions: [], problems: [], derivedAt: 0 };

/**
 * How many of `unreadableDirs` count as one more unknown (the header, the status line): a refused directory hides
 * any number of sessions, so it is one `unreadable` while none is known under it; once sessions seen before are
 * kept under it, each counts itself and the directory adds none.
 */
export function unreadableDirCount(snap: SessionsSnapshot): number {
  const dirs = snap.unreadableDirs?.length ?? 0;
  if (dirs === 0) return 0;
  const kept = snap.counts?.above ?? snap.sessions.filter((s) => s.unreadableAbove !== undefined).length;
  return kept > 0 ? 0 : dirs;
}
