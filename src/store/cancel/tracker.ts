/**
 * Follows each cancel omc-top made until it is proven, and says only what it
 * observed. Two things are watched: the disk (every sessions-domain change,
 * plus a timer at the signal's expiry) and the session's Claude process (the
 * claude domain, through `AgentWatch`). A check mark means omc-top saw it:
 *
 * - cancel: "ended" while the loop is ended on disk and Claude is still to be
 *   seen stopping; "stopped ✓ in Ns" once it is (the registry turns idle, the
 *   transcript's turn ends, the process exits or is gone) with the loop still
 *   ended on disk; "cancelled" (no ✓: no stop was seen) at the window's end when
 *   Claude was not in a turn at the cancel (idle, or no longer running); "ended on disk" without a
 *   mark when no Claude process or transcript can be seen; else "cancel did
 *   not take: <why>" (a Stop event already under way can re-arm a loop inside
 *   the window; that is what the window watches for);
 * - pause: "paused" while OMC's Stop hook would honour the signal (the
 *   autopilot digest still matches, nothing replaced it), with Claude's stop
 *   when seen; then "pause over"; "pause did not take: <why>" as soon as OMC
 *   would stop honouring it.
 *
 * One tracker per OmcStore: `store.cancels`.
 */
import { SnapshotCell } from '../../io/snapshot-cell.js';
import path from 'node:path';
import { readTextSync } from '../../io/safe-fs/index.js';
import type { RulesVersion } from '../omc-install.js';
import { GLOBAL_PREFIX, stopVerdict, type ModeVerdict } from '../verdict/index.js';
import type { Clock, Subscribable } from '../types.js';
import { judgeSignal, type CancelDone } from './execute.js';
import { timeMs } from '../sessions/omc-rules.js';
import { isKnownMode, modeSpec } from '../sessions/modes.js';
import { hookLook } from './hook-look.js';
import { HOME_REMEDY } from './home-held.js';
import { SIGNAL_SOURCE } from './signal.js';
import { obj } from '../../io/json.js';
import type { CancelFollower, CancelRecord, CancelSettlement, SettledWordName } from './cancel-records.js';
import { runningStartIdentity } from '../../io/process-start.js';
import { CANCEL_FAILED, movedOnText } from './words.js';

/**
 * ended: on disk, Claude's stop not seen yet · stopped: Claude seen to stop after the cancel (final) ·
 * cancelled: Claude was not in a turn at the cancel (final) · unobserved: ended on disk, no Claude to see
 * (final) · waiting / not-taken: the loop is (again) active · failed: omc-top's own write failed half-way and a
 * mode is still active (final) · paused / pause-over: a pause.
 */
export type TrackedPhase =
  'ended' | 'waiting' | 'paused' | 'stopped' | 'cancelled' | 'unobserved' | 'not-taken' | 'failed' | 'pause-over';

/** The session's Claude process as the claude domain sees it ("none": no registry entry or transcript). */
export type AgentStatus = 'busy' | 'idle' | 'waiting' | 'gone' | 'exited' | 'unknown' | 'none';

export interface AgentView {
  status: AgentStatus;
  pid: number | null;
  /** When the status began (epoch ms: the registry's statusUpdatedAt, or when omc-top saw the process go). */
  sinceMs: number | null;
  /** When the transcript's last turn ended (its turn_duration line), epoch ms. */
  lastTurnEndMs: number | null;
}

/** What omc-top sees of each session's Claude process (the store wires the claude domain in). */
export interface AgentWatch {
  view(sessionId: string): AgentView | null;
  subscribe(l: () => void): () => void;
}

/** How omc-top saw Claude stop. */
export type StopSeen = 'idle' | 'turn-end' | 'exited' | 'gone';

export interface ClaudeSide {
  /** What the process was doing when the signal was written. */
  atCancel: AgentStatus;
  pid: number | null;
  /** Its status at the last look. */
  status: AgentStatus;
  /** When omc-top saw it stop after the cancel (epoch ms, the observed moment), else null. */
  stoppedMs: number | null;
  seen: StopSeen | null;
  /**
   * In a turn at the cancel, no stop seen, and the status it shows now began after the cancel (a permission prompt
   * waited on, then busy again): the disk cannot tell that it is still the turn of the cancel, so no process says
   * `stopping` (the one that watched throughout claims no more than the others: turnSinceCancel).
   */
  turnUnsure?: boolean;
}

const NO_AGENT: AgentView = { status: 'none', pid: null, sinceMs: null, lastTurnEndMs: null };

/** In a turn: the Stop hook has yet to run and let it stop. */
export const inTurn = (s: AgentStatus) => s === 'busy' || s === 'waiting';

/**
 * Whether any process reading the disk now can tell that Claude is still in the turn it was in at the cancel: its
 * status is a turn's, and it began at or before the cancel. A status that began after it (a prompt waited on, then
 * busy again; or a new prompt) may or may not be the same turn.
 */
export const turnSinceCancel = (v: AgentView, requestedMs: number): boolean =>
  inTurn(v.status) && v.sinceMs !== null && v.sinceMs <= requestedMs;

/**
 * The earliest sign, at or after `fromMs`, that Claude's turn ended: the transcript's end of turn, the
 * registry turning idle, the process exiting, or the process gone (SIGKILL).
 */
export function stopSeenSince(v: AgentView, fromMs: number): { atMs: number; seen: StopSeen } | null {
  const signs: { atMs: number; seen: StopSeen }[] = [];
  if (v.lastTurnEndMs !== null && v.lastTurnEndMs >= fromMs) signs.push({ atMs: v.lastTurnEndMs, seen: 'turn-end' });
  if (v.sinceMs !== null && v.sinceMs >= fromMs) {
    if (v.status === 'idle') signs.push({ atMs: v.sinceMs, seen: 'idle' });
    if (v.status === 'exited') signs.push({ atMs: v.sinceMs, seen: 'exited' });
  }
  // "gone" is noticed by a liveness probe, not stamped by the CLI: when first seen is the best omc-top knows.
  if (v.status === 'gone') signs.push({ atMs: Math.max(fromMs, v.sinceMs ?? fromMs), seen: 'gone' });
  if (signs.length === 0) return null;
  return signs.reduce((a, b) => (b.atMs < a.atMs ? b : a));
}

/** "2.4s" under ten seconds, else whole seconds ("46s"), minutes past two ("3m 05s"). */
export function tookText(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${Math.round(s * 10) / 10}s`;
  if (s < 120) return `${Math.round(s)}s`;
  const m = Math.floor(s / 60);
  return `${m}m ${String(Math.round(s - m * 60)).padStart(2, '0')}s`;
}

const SEEN_WORDS: Record<StopSeen, string> = {
  idle: 'its registry entry turned idle',
  'turn-end': 'its transcript recorded the end of the turn',
  exited: 'it exited',
  gone: 'its process is gone',
};

export interface TrackedCancel {
  /** Session id, or ":legacy" for session-less state. */
  key: string;
  label: string;
  pauseOnly: boolean;
  modes: string[];
  phase: TrackedPhase;
  /** Final phases never change again. */
  final: boolean;
  /** One line for the row / the CLI. */
  text: string;
  /** Why, in a sentence, for the detail view. */
  reason: string;
  requestedMs: number;
  expiresMs: number;
  /**
   * Past `expiresMs` when another writer's signal for the loop replaced omc-top's and is in force longer (a second
   * omc-top's cancel a moment later): the cancel is watched until that one expires. Absent otherwise.
   */
  watchUntilMs?: number;
  /** When the verdict became final (clock ms), else null. */
  settledMs: number | null;
  result: CancelDone;
  /** The session's Claude process: what it did at the cancel, and its stop when omc-top saw it. */
  claude: ClaudeSide;
}

export interface TrackerSnapshot {
  version: number;
  entries: ReadonlyMap<string, TrackedCancel>;
}

export const LEGACY_KEY = ':legacy';
export const trackerKey = (sessionId: string | null) => sessionId ?? LEGACY_KEY;

/**
 * A mode file as the cancel's verdict reads it: active or not, and when its loop was started (`started_at`, null when
 * it does not say). A loop started after the cancel is a new one the user (or a prompt) began, not the cancel
 * failing (the attention engine tells them apart the same way: feeds/attention/needs.ts recordNeed).
 */
function activeOnDisk(root: string, rel: string): { active: boolean; startedMs: number | null } {
  const r = readTextSync(root, rel);
  if (!r.ok) return { active: false, startedMs: null };
  try {
    return loopOf(JSON.parse(r.text));
  } catch {
    return { active: false, startedMs: null };
  }
}

/** A parsed mode file's loop: active or not, and its `started_at`. */
function loopOf(parsed: unknown): { active: boolean; startedMs: number | null } {
  const v = obj(parsed);
  return { active: v?.active === true, startedMs: timeMs(v?.started_at) };
}

/** When a loop read from disk was started, if after the cancel at `requestedMs`: a new run, not the one it ended. */
const anewAt = (d: { active: boolean; startedMs: number | null }, requestedMs: number): number | null =>
  d.active && d.startedMs !== null && d.startedMs > requestedMs ? d.startedMs : null;

/** Whose signal replaced ours, by its `source`: omc-top writes its name, OMC's own cancel `state_clear`. */
const signalWriter = (source: string | undefined): string =>
  source === SIGNAL_SOURCE ? "another omc-top's" : source === 'state_clear' ? "OMC's own" : "another writer's";

const clockHms = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** When the window a cancel is watched in ends: its own signal's expiry, or a replacing signal's (watchUntilMs). */
const windowEnd = (e: Pick<TrackedCancel, 'expiresMs' | 'watchUntilMs'>) => Math.max(e.expiresMs, e.watchUntilMs ?? 0);

const secondsLeft = (expiresMs: number, now: number) => Math.max(0, Math.ceil((expiresMs - now) / 1000));

/** Which rules judge, and where the session's hooks run when it does not say. */
export interface JudgeRules {
  rules: RulesVersion;
  projectDir: string;
  /** The rules of one session's OMC, when sessions of the project run different versions. */
  rulesOf?: (sid: string) => RulesVersion;
  /**
   * The books of every OMC whose Stop hook runs for the session now (null: no version found), asked at each look: an
   * OMC upgraded in place inside a cancel's window runs the session's next Stop, so it judges from then on. Absent:
   * the books the plan was made by.
   */
  booksOf?: (sid: string | null) => readonly RulesVersion[] | null;
  /**
   * The user's home: the hooks fall back to a session's `~/.omc/state` copies, so the verdict reads them there, as
   * `omc-top cancel` does (null or absent: not read).
   */
  home?: string | null;
}

/**
 * The books a cancel is judged by: those in force when it is looked at (every enabled OMC plugin's: Claude Code runs
 * each one's Stop hook, and a block from any holds the agent), else the ones its plan was made by, else the session's
 * OMC's when no version was found.
 */
export function judgeBooks(result: CancelDone, r: JudgeRules): readonly RulesVersion[] {
  const sid = result.plan.request.sessionId;
  const fallback = () => [(sid !== null ? r.rulesOf?.(sid) : undefined) ?? r.rules];
  // No OMC found now (the plugin disabled or gone inside the window): the books the cancel was made by, not the
  // newest book assumed for want of one (that would say a release that runs nothing judged it).
  const now = r.booksOf?.(sid) ?? null;
  if (now !== null && now.length > 0) return now;
  const books = result.plan.books;
  if (books !== null && books.length > 0) return books;
  return fallback();
}

/** The store looks for the books at each look and finds none now, where the plan had some (judgeBooks kept those). */
function noneFoundNow(result: CancelDone, r: JudgeRules): boolean {
  if (!r.booksOf || result.plan.books === null || result.plan.books.length === 0) return false;
  const now = r.booksOf(result.plan.request.sessionId);
  return now === null || now.length === 0;
}

/**
 * Said when the books that judge now are not the ones the cancel was planned by (OMC upgraded in place inside its
 * window): which release's rules judged the verdict, and which ran the hooks at the cancel. Empty otherwise, and when
 * no version was found at the plan (nothing to compare).
 */
function booksChangedWords(planned: readonly RulesVersion[] | null, now: readonly RulesVersion[]): string {
  if (planned === null || planned.length === 0) return '';
  const same = planned.length === now.length && planned.every((b) => now.includes(b));
  return same
    ? ''
    : `; judged by ${booksWords(now)}'s rules, which run the hooks now: ${booksWords(planned)} ran them when the cancel was made`;
}

/** Books named by their releases: "OMC 4.4.4", "OMC 5.5.0 and 4.4.4". */
export function booksWords(books: readonly RulesVersion[]): string {
  const all = books.length < 2 ? books.join('') : `${books.slice(0, -1).join(', ')} and ${books[books.length - 1]}`;
  return `OMC ${all}`;
}

/** "the Stop hook", or, judged by several books: "the Stop hooks of OMC 5.5.0 and 4.4.4". */
export const stopHooksWords = (books: readonly RulesVersion[]): string =>
  books.length < 2 ? 'the Stop hook' : `the Stop hooks of ${booksWords(books)}`;

/**
 * Whether the Stop hook of any of `books` reads the mode's file at all (sessions/modes.ts `readBy`): OMC 5.5.0's no
 * longer reads ultrawork or ultraqa, so a re-armed one holds nothing there. A mode omc-top does not know counts as
 * read: what its hook does with it is not known.
 */
const readByAny = (mode: string, books: readonly RulesVersion[]): boolean =>
  !isKnownMode(mode) || books.some((b) => modeSpec(mode).readBy[b]);

/** "OMC 5.5.0's Stop hook does not read ultrawork (retired in OMC 5.5.0): it holds nothing". */
function unreadWords(mode: string, books: readonly RulesVersion[]): string {
  const retired = modeSpec(mode).retiredIn;
  const hooks =
    books.length > 1 ? `none of ${stopHooksWords(books)} reads` : `${booksWords(books)}'s Stop hook does not read`;
  return `${hooks} ${mode}${retired !== null ? ` (retired in OMC ${retired})` : ''}: it holds nothing`;
}

/** A mode some book's Stop hook, re-reading disk now, still holds the agent for, and the books that do. */
interface StillHeld {
  verdict: ModeVerdict;
  books: RulesVersion[];
  /** When the file the hooks hold it for was started, if after the cancel (a new run), else null. */
  anewMs: number | null;
}

/**
 * The modes the session's Stop hooks, re-reading disk now, still enforce: each mode the cancel ended, and for a whole
 * session's cancel any mode (one the plan left, that another book's hook takes for this session). Took = none.
 */
function stillEnforced(
  root: string,
  result: CancelDone,
  now: number,
  r: JudgeRules,
  books: readonly RulesVersion[],
): StillHeld[] {
  const sid = result.plan.request.sessionId;
  if (sid === null) return [];
  // The files `omc-top cancel` and the hooks read: a loop's ~/.omc/state copy the session owns holds it too.
  const { tree, cwd } = hookLook(root, sid, { projectDir: r.projectDir, home: r.home ?? null });
  const ended = new Set([...result.plan.modes, ...result.plan.linked]);
  const whole = result.plan.request.mode === null;
  const out: StillHeld[] = [];
  for (const rules of books) {
    const v = stopVerdict(tree, { rules, sessionId: sid, cwd, now });
    // The gate, not the verdict: the cancel's own signal pauses the hook now, but not once it expires.
    for (const m of v.modes.filter((x) => x.gateHolds && (whole || ended.has(x.mode)))) {
      const had = out.find((h) => h.verdict.mode === m.mode);
      if (had) had.books.push(rules);
      else
        out.push({ verdict: m, books: [rules], anewMs: anewAt(loopOf(tree.read(m.path)), result.signal.requestedMs) });
    }
  }
  return out;
}

/** A cancel that no Claude process could be looked at for (tests, the one-shot command). */
export const unseenClaude = (): ClaudeSide => ({
  atCancel: 'none',
  pid: null,
  status: 'none',
  stoppedMs: null,
  seen: null,
});

/**
 * Pure verdict for one cancel at `now` (reads the few files it is about), given what was seen of the
 * session's Claude process.
 */
export function judge(
  root: string,
  result: CancelDone,
  now: number,
  rules: JudgeRules = { rules: '5.5.0', projectDir: path.dirname(root) },
  claude: ClaudeSide = unseenClaude(),
): Pick<TrackedCancel, 'phase' | 'final' | 'text' | 'reason'> & { watchUntilMs?: number } {
  const { plan, signal } = result;
  const sig = judgeSignal(root, signal, plan.request.sessionId, now);
  const open = now < signal.expiresMs && sig.ours;
  const early = now < signal.expiresMs && !sig.ours;
  const what = [...plan.modes, ...plan.linked].join(', ');

  const lost = sig.ours ? null : readTextSync(root, signal.rel).ok ? 'another writer replaced the signal' : sig.reason;
  const requested = result.signal.requestedMs;
  const stop = claude.stoppedMs !== null && claude.seen !== null ? claude : null;
  const took = stop ? tookText((stop.stoppedMs as number) - requested) : '';
  const who = claude.pid !== null ? `Claude (pid ${claude.pid})` : 'Claude';
  const stopWords = stop ? `${who} stopped ${took} after the signal: ${SEEN_WORDS[stop.seen as StopSeen]}` : '';
  if (plan.request.pauseOnly) {
    // What the pause did to Claude, in a few words for the row and a sentence for the detail.
    const claudeNote = stop
      ? `Claude stopped ✓ in ${took}`
      : inTurn(claude.atCancel)
        ? `Claude ${claude.status === 'waiting' ? 'waiting' : 'busy'}, not stopped yet`
        : claude.atCancel === 'none' || claude.atCancel === 'unknown'
          ? "Claude's stop not observed"
          : `Claude ${claude.atCancel}`;
    if (open && sig.inForce) {
      return {
        phase: 'paused',
        final: false,
        text: `paused ${what} · ${claudeNote}`,
        reason: `${sig.reason}; the loop keeps its state${stop ? `; ${stopWords}` : ''}`,
      };
    }
    if (open) return { phase: 'not-taken', final: true, text: `pause did not take: ${sig.reason}`, reason: sig.reason };
    const overNote = stop
      ? `Claude stopped ✓ in ${took}`
      : inTurn(claude.atCancel)
        ? 'Claude did not stop while it lasted'
        : claudeNote;
    if (early)
      return {
        phase: 'pause-over',
        final: true,
        text: `pause ended early · ${overNote}`,
        reason: `${lost}; the loop is enforced again at its next Stop event${stop ? `; ${stopWords}` : ''}`,
      };
    return {
      phase: 'pause-over',
      final: true,
      text: `pause over: loop enforced again · ${overNote}`,
      reason: `the 30 s signal expired; the loop kept its state and the Stop hook enforces it again${stop ? `; ${stopWords}` : ''}`,
    };
  }

  // Another signal in force in place of ours (a second omc-top cancelled the same loop a moment later, or OMC's own
  // /cancel did): the Stop hook honours it as it would ours, so a Stop event already under way can still re-arm the
  // loop until it expires. The cancel is watched that long, not settled early as if its window were over.
  const othersUntil = !sig.ours && sig.inForce && sig.untilMs !== null && sig.untilMs > now ? sig.untilMs : null;
  const watching = open || othersUntil !== null;
  const watchUntil = othersUntil !== null ? { watchUntilMs: Math.max(othersUntil, signal.expiresMs) } : {};
  const replaced =
    othersUntil !== null
      ? `; ${signalWriter(sig.source)} cancel signal replaced this omc-top's and is in force until ${clockHms(othersUntil)} UTC`
      : '';

  // The same account of a write before the cancel as the message's (cancel-flow.ts), next to any write after it.
  const moved = result.movedOn ? `; ${movedOnText(result.movedOn)}` : '';
  const still: string[] = [];
  const anew: string[] = [];
  // Re-armed files no book in force reads: said, never counted against the cancel (their hooks let the agent stop).
  const unread: string[] = [];
  const books = judgeBooks(result, rules);
  for (const step of plan.steps) {
    const d = activeOnDisk(root, step.rel);
    if (!d.active) continue;
    const failed = result.steps.find((s) => s.rel === step.rel && !s.ok);
    // Started after the cancel: a new run of the mode, which the row shows as the disk says (not the cancel failing).
    const newRun = anewAt(d, requested);
    if (!failed && newRun !== null) {
      anew.push(`a new ${step.mode} was started at ${clockHms(newRun)} UTC, after the cancel`);
      continue;
    }
    if (!failed && !readByAny(step.mode, books)) {
      unread.push(`${step.rel} was made active again after the cancel, but ${unreadWords(step.mode, books)}`);
      continue;
    }
    const why = failed
      ? `${step.mode} still active (${failed.detail})`
      : `${step.mode} active again: ${step.rel} was rewritten after the cancel (a Stop event already under way re-armed it)`;
    still.push(why);
  }
  const notHeld = unread.length > 0 ? `; ${unread.join('; ')}` : '';
  let homeHeld = false;
  // The verdict engine has the last word: "cancelled" only when the Stop hook, re-reading
  // disk, no longer holds the agent for any mode this cancel ended.
  const rebooked = noneFoundNow(result, rules)
    ? `; no OMC is found now: judged by ${booksWords(books)}'s rules, which ran the hooks when the cancel was made`
    : booksChangedWords(plan.books, books);
  for (const { verdict: m, books: by, anewMs } of stillEnforced(root, result, now, rules, books))
    if (!still.some((w) => w.startsWith(`${m.mode} `)) && anewMs === null) {
      // Judged by several books: which one's hook holds it, as the plan and `omc-top cancel` name each.
      const whose = books.length > 1 ? `${by.length > 1 ? stopHooksWords(by) : `${booksWords(by)}'s Stop hook`}: ` : '';
      // "Again" only for a mode whose file this cancel ended; one it left (another session's, a named workflow's) never
      // stopped being enforced.
      // Held by the ~/.omc copy the hooks fall back to, which no cancel of this project's .omc removes: named, and
      // never "again" (that file was never ended), with what ends it.
      const inHome = m.path.startsWith(GLOBAL_PREFIX);
      const endedHere = !inHome && result.steps.some((x) => x.mode === m.mode && x.ok);
      const home = inHome ? `${m.path}, the copy in the home the hooks fall back to: ` : '';
      if (inHome) homeHeld = true;
      still.push(`${m.mode} is ${endedHere ? 'enforced again' : 'still enforced'} (${whose}${home}${m.detail})`);
    }
  if (still.length > 0 && signal.form === 'autopilot' && !sig.inForce && sig.reason.includes('digest'))
    still.push(sig.reason);
  if (homeHeld) still.push(HOME_REMEDY);
  // Its own write failed half-way: nothing is in flight that could still end the loop, so no countdown (final).
  if (still.length > 0 && result.failedWrite)
    return {
      phase: 'failed',
      final: true,
      text: `${CANCEL_FAILED}: ${still[0]}`,
      reason: `part of omc-top's cancel could not be written (${result.failedWrite}); ${still.join('; ')}${notHeld}${rebooked}; c cancels again`,
    };
  if (still.length > 0)
    return watching
      ? {
          phase: 'waiting',
          final: false,
          text: `not ended yet: ${still[0]}`,
          reason: `${still.join('; ')}${notHeld}${replaced}${moved}${rebooked}`,
          ...watchUntil,
        }
      : {
          phase: 'not-taken',
          final: true,
          text: `cancel did not take: ${still[0]}`,
          reason: `${still.join('; ')}${notHeld}${moved}${rebooked}`,
        };
  const hooks = stopHooksWords(books);
  const onDisk = `${
    watching
      ? `ended on disk (${hooks}, re-reading it, ${books.length > 1 ? 'enforce' : 'enforces'} none of these modes); watching until the signal expires that nothing re-arms it`
      : `ended on disk: the signal window is over, and ${hooks} (re-reading disk) no longer ${books.length > 1 ? 'enforce' : 'enforces'} any of these modes`
  }${notHeld}${rebooked}${replaced}${moved}${anew.length > 0 ? `; ${anew.join('; ')}: the row says what the disk says` : ''}`;
  // Claude seen to stop after the signal, with the loop still ended: nothing is left to re-arm it.
  if (stop)
    return { phase: 'stopped', final: true, text: `stopped ✓ in ${took} ${what}`, reason: `${onDisk}; ${stopWords}` };
  if (inTurn(claude.atCancel) && claude.turnUnsure !== true)
    return {
      phase: 'ended',
      final: false,
      ...watchUntil,
      text: `${what} ended on disk · Claude ${claude.status === 'waiting' ? 'waiting' : 'busy'}, not stopped yet`,
      reason: `${onDisk}; ${who} was ${claude.atCancel} at the cancel: it stops when its turn ends and OMC's Stop hook lets it (omc-top marks ✓ when it sees that)`,
    };
  if (claude.atCancel === 'none' || claude.atCancel === 'unknown' || claude.turnUnsure === true) {
    const unseen =
      claude.turnUnsure === true
        ? `${who} was ${claude.atCancel} at the cancel and is ${claude.status} now, a status that began after it: whether that is still the turn of the cancel cannot be read from the disk, so its stop is not claimed`
        : claude.atCancel === 'none'
          ? "no Claude process or transcript of this session can be seen, so Claude's stop was not observed"
          : `${who} could not be checked (${claude.atCancel}), so its stop was not observed`;
    return {
      phase: watching ? 'ended' : 'unobserved',
      final: !watching,
      ...watchUntil,
      text: `${what} ended on disk · Claude's stop not observed`,
      reason: `${onDisk}; ${unseen}`,
    };
  }
  // Not in a turn at the cancel (idle, exited, gone): nothing was running for the Stop hook to stop.
  const was = claude.atCancel === 'idle' ? 'idle' : 'no longer running';
  return {
    phase: watching ? 'ended' : 'cancelled',
    final: !watching,
    ...watchUntil,
    // No ✓: nothing was seen to stop (README: a ✓ only for `stopped`); the settled word everywhere is "cancelled".
    text: `${what} ended on disk · Claude ${was} at the cancel`,
    reason: `${onDisk}; ${who} was ${claude.atCancel} at the cancel, not in a turn`,
  };
}

/**
 * Claude's side of a cancel in one line: a ✓ only for a stop omc-top saw. A pause removes nothing, so with no
 * Claude to watch it says only that the stop was not observed (not that the loop ended on disk).
 */
export function claudeWords(c: ClaudeSide, requestedMs: number, pause = false): string {
  const who = c.pid !== null ? `Claude (pid ${c.pid})` : 'Claude';
  if (c.stoppedMs !== null && c.seen !== null)
    return `stopped ✓ in ${tookText(c.stoppedMs - requestedMs)}: ${SEEN_WORDS[c.seen]}`;
  if (inTurn(c.atCancel))
    return `${who} is ${c.status === 'waiting' ? 'waiting for the user' : 'busy'}: it stops when its turn ends and OMC's Stop hook lets it; its stop was not observed yet`;
  if (c.atCancel === 'none' && pause)
    return 'no Claude process or transcript of this session can be seen: whether it stops for the pause is not observed';
  if (c.atCancel === 'none')
    return "no Claude process or transcript of this session can be seen: the loop ended on disk, Claude's stop was not observed";
  if (c.atCancel === 'unknown') return `${who} could not be checked: its stop was not observed`;
  return `${who} was ${c.atCancel === 'idle' ? 'idle' : c.atCancel} at the cancel: not in a turn, nothing to stop`;
}

/** Claude's side when the signal was written (what omc-top sees of it then). */
export function claudeAtSignal(v: AgentView, requestedMs: number): ClaudeSide {
  // First looked at just after the signal: a turn that ended since, or an exit since, means it was running
  // when the signal was written (the status changed after it); the stop is then already seen.
  const endedSince = stopSeenSince(v, requestedMs) !== null && v.status !== 'gone';
  const atCancel: AgentStatus = endedSince ? 'busy' : v.status;
  const side: ClaudeSide = { atCancel, pid: v.pid, status: v.status, stoppedMs: null, seen: null };
  return followClaude(side, v, requestedMs);
}

/** Claude's side now: a stop, once seen, is kept (the first sign is the moment). */
export function followClaude(side: ClaudeSide, v: AgentView, requestedMs: number): ClaudeSide {
  let next = side;
  if (v.status !== side.status || v.pid !== side.pid) next = { ...next, status: v.status, pid: v.pid ?? side.pid };
  // The picture may lag the cancel by a registry read: a status that began before the signal says what
  // Claude was really doing at the cancel.
  if (next.stoppedMs === null && v.sinceMs !== null && v.sinceMs < requestedMs && v.status !== 'none') {
    const was = v.status === 'gone' ? next.atCancel : v.status;
    if (was !== next.atCancel && (inTurn(was) || inTurn(next.atCancel))) next = { ...next, atCancel: was };
  }
  // Only a process that was in a turn at the cancel can be seen to stop because of it.
  if (next.stoppedMs === null && inTurn(next.atCancel)) {
    const seen = stopSeenSince(v, requestedMs);
    if (seen) next = { ...next, stoppedMs: seen.atMs, seen: seen.seen };
  }
  // Decided from the picture now, as every other process decides it from the same files (store/cancel/in-flight.ts).
  const unsure = next.stoppedMs === null && inTurn(next.atCancel) && !turnSinceCancel(v, requestedMs);
  if (unsure !== (next.turnUnsure ?? false)) next = { ...next, turnUnsure: unsure };
  return next;
}

/**
 * What other omc-top processes are told of a cancel: the session, the modes it ended, its window, and the process
 * that follows it to its end (a tracker's; none for `omc-top cancel`).
 */
export const cancelRecordOf = (result: CancelDone, followedBy: CancelFollower | null = null): CancelRecord => ({
  key: trackerKey(result.plan.request.sessionId),
  modes: [...result.plan.modes, ...result.plan.linked],
  requestedMs: result.signal.requestedMs,
  expiresMs: result.signal.expiresMs,
  notEnded: [...new Set(result.stillActive.map((a) => a.mode))],
  failed: result.failedWrite ?? null,
  followedBy,
});

/** This process as the follower of its cancels (its start identity read once: it does not change). */
let self: CancelFollower | null = null;
export function thisFollower(): CancelFollower {
  if (self) return self;
  const start = runningStartIdentity(process.pid);
  self = { pid: process.pid, start: start === 'absent' ? null : start };
  return self;
}

/**
 * What this process saw settle a cancel, for every other omc-top process (cancel-records.ts `settled`): null for a
 * pause (never recorded), a cancel still in flight, and one whose own write failed (its record says so already).
 */
export function settlementOf(t: TrackedCancel, byPid: number): CancelSettlement | null {
  if (t.pauseOnly || !t.final || t.settledMs === null) return null;
  const word = SETTLED_OF[t.phase];
  if (!word) return null;
  // A ✓ is a stop this process saw: without one, no `stopped` is told.
  if (word === 'stopped' && (t.claude.stoppedMs === null || t.claude.seen === null)) return null;
  const stop = word === 'stopped';
  return {
    word,
    atMs: t.settledMs,
    stoppedMs: stop ? t.claude.stoppedMs : null,
    seen: stop ? t.claude.seen : null,
    byPid,
  };
}

const SETTLED_OF: Partial<Record<TrackedPhase, SettledWordName>> = {
  stopped: 'stopped',
  cancelled: 'cancelled',
  unobserved: 'ended',
  'not-taken': 'not-taken',
};

/** Where cancels and their verdicts are told to every other omc-top process (cancel-records.ts CancelRecordFile). */
export interface CancelRecorder {
  add(r: CancelRecord): Promise<string | null>;
  settle?(key: string, requestedMs: number, settled: CancelSettlement): Promise<string | null>;
}

export class CancelTracker {
  readonly cell = new SnapshotCell<TrackerSnapshot>({ version: 0, entries: new Map() });
  private entries = new Map<string, TrackedCancel>();
  private version = 0;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  private unsubscribeAgent: (() => void) | null = null;

  constructor(
    private readonly root: string,
    private readonly clock: Clock,
    /** Disk changes worth a re-check (the sessions domain sees every state and signal file). */
    private readonly changes: Subscribable<unknown> | null,
    private readonly rules: JudgeRules = { rules: '5.5.0', projectDir: path.dirname(root) },
    /** The sessions' Claude processes (null: none can be seen, as in the tracker's own tests). */
    private readonly agent: AgentWatch | null = null,
    /** Where the cancel is recorded for every other omc-top process (null: nowhere, as in the tracker's tests). */
    private readonly recorder: CancelRecorder | null = null,
  ) {}

  /** The recording of each cancel (by its result): resolves to why it could not be written, or null. */
  private readonly recordings = new WeakMap<CancelDone, Promise<string | null>>();

  /**
   * Why the record of this cancel for other omc-top processes could not be written (null: written, or nothing to
   * record): the cancel's own message says so, since the cancel on disk happened all the same.
   */
  recorded(result: CancelDone): Promise<string | null> {
    return this.recordings.get(result) ?? Promise.resolve(null);
  }

  private agentView(key: string): AgentView {
    if (key === LEGACY_KEY || !this.agent) return NO_AGENT;
    return this.agent.view(key) ?? NO_AGENT;
  }

  /** Claude's side at the cancel. */
  private claudeAtCancel(key: string, requestedMs: number): ClaudeSide {
    return claudeAtSignal(this.agentView(key), requestedMs);
  }

  private follow(side: ClaudeSide, v: AgentView, requestedMs: number): ClaudeSide {
    return followClaude(side, v, requestedMs);
  }

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;

  get(key: string): TrackedCancel | undefined {
    return this.entries.get(key);
  }

  /** Starts following a cancel; a new cancel of the same session replaces the old entry. */
  track(result: CancelDone): TrackedCancel {
    const key = trackerKey(result.plan.request.sessionId);
    const now = this.clock();
    const claude = this.claudeAtCancel(key, result.signal.requestedMs);
    const entry: TrackedCancel = {
      key,
      label: result.plan.label,
      pauseOnly: result.plan.request.pauseOnly,
      modes: [...result.plan.modes, ...result.plan.linked],
      requestedMs: result.signal.requestedMs,
      expiresMs: result.signal.expiresMs,
      settledMs: null,
      result,
      claude,
      ...judge(this.root, result, now, this.rules, claude),
    };
    if (entry.final) entry.settledMs = now;
    // A pause ends nothing, so it cannot "not take" as a cancel does: only cancels are recorded.
    if (!entry.pauseOnly && this.recorder)
      this.recordings.set(result, this.recorder.add(cancelRecordOf(result, thisFollower())));
    this.tellSettled(entry);
    this.entries.set(key, entry);
    this.publish();
    this.arm();
    return entry;
  }

  /** Re-judges every open cancel against the disk. */
  evaluate(): void {
    const now = this.clock();
    let changed = false;
    for (const [key, e] of this.entries) {
      if (e.final) continue;
      const claude = this.follow(e.claude, this.agentView(key), e.requestedMs);
      const v = judge(this.root, e.result, now, this.rules, claude);
      const until = v.watchUntilMs ?? e.watchUntilMs;
      // The reason too: what judged it can change with the words of the row unchanged (OMC upgraded in the window).
      if (
        v.phase !== e.phase ||
        v.text !== e.text ||
        v.reason !== e.reason ||
        v.final !== e.final ||
        claude !== e.claude ||
        until !== e.watchUntilMs
      ) {
        // The longest window seen is kept: a replacing signal the Stop hook deleted on expiry still bounded it.
        const next = { ...e, ...v, watchUntilMs: until, claude, settledMs: v.final ? now : null };
        this.entries.set(key, next);
        this.tellSettled(next);
        changed = true;
      }
    }
    if (changed) this.publish();
    this.arm();
  }

  /**
   * Records what this process saw settle a cancel, after the cancel's own record (the settlement is written into
   * it): every other process then says the same settled word, and its ✓ is this observation.
   */
  private tellSettled(entry: TrackedCancel): void {
    const settled = settlementOf(entry, process.pid);
    const recorder = this.recorder;
    if (!settled || !recorder?.settle) return;
    const recorded = this.recordings.get(entry.result) ?? Promise.resolve(null);
    // A verdict that could not be written is said by the record file's problem line (the cancel already happened).
    void recorded.then(() => recorder.settle?.(entry.key, entry.requestedMs, settled));
  }

  /** Seconds of signal left for a session's open cancel, or null. */
  secondsLeft(key: string, now: number): number | null {
    const e = this.entries.get(key);
    return e && !e.final ? secondsLeft(windowEnd(e), now) : null;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.unsubscribeAgent?.();
    this.unsubscribeAgent = null;
  }

  private publish(): void {
    this.version += 1;
    this.cell.set({ version: this.version, entries: new Map(this.entries) });
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const open = [...this.entries.values()].filter((e) => !e.final);
    if (open.length === 0) {
      this.unsubscribe?.();
      this.unsubscribe = null;
      this.unsubscribeAgent?.();
      this.unsubscribeAgent = null;
      return;
    }
    if (!this.unsubscribe && this.changes) this.unsubscribe = this.changes.subscribe(() => this.evaluate());
    // Claude's stop can come long after the window (a 40 s tool call): the claude domain's changes tell.
    if (!this.unsubscribeAgent && this.agent) this.unsubscribeAgent = this.agent.subscribe(() => this.evaluate());
    const now = this.clock();
    // Only a window still to close needs the clock; after it, Claude's changes and the disk's drive the verdict.
    const pending = open.map(windowEnd).filter((t) => t > now);
    if (pending.length === 0) return;
    const next = Math.min(...pending);
    const delay = Math.max(0, next - now) + 5;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.evaluate();
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    this.timer.unref?.();
  }
}
