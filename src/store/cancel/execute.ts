/**
 * Runs a confirmed cancel plan the way OMC's state_clear does: the signal
 * first (so a Stop event that races the rest already lets the agent stop),
 * then the mode files, the runtime artifacts, the autopilot set inactive, and
 * finally the session's skill-active ledger. Then it reads the disk back and
 * says whether the cancel took.
 *
 * Before anything is written the plan is rebuilt from disk: if the session
 * changed since the user confirmed, nothing is written and the fresh plan is
 * returned so the caller can ask again.
 *
 * Every mode-state change holds that file's `<file>.mutation.lock` for
 * milliseconds and re-checks the file under it: a file that changed since the
 * plan (e.g. a Stop event wrote the next iteration) is left alone and reported.
 */
import { READONLY_NOTHING_WRITTEN } from '../../io/readonly-words.js';
import { atomicWriteSync, describeWriteError, readTextSync, unlinkUnder } from '../../io/safe-fs/index.js';
import { LEDGER_END_REL, recordRunEnd } from '../runs/ledger-end.js';
import { stateOwner, timeMs } from '../sessions/omc-rules.js';
import { autopilotEnforceable, hasNamedWorkflowMarkers, signalVerdict } from './hook-rules.js';
import { StateLockError, withStateLock } from './mutation-lock.js';
import { describeChange, onlyProgressed, planCancel, type CancelPlan, type PlannedStep } from './plan.js';
import { autopilotSignal, genericSignal, serializeSignal, sha256, type CancelSignal } from './signal.js';
import { objOrEmpty, parseObj, type Obj } from '../../io/json.js';
import { CANCEL_FAILED, failedWritesText } from './words.js';
import { homeHeldModes, homeStillWhy } from './home-held.js';

export interface StepResult {
  rel: string;
  what: PlannedStep['action'] | 'remove-artifact' | 'remove-skill-active';
  mode: string | null;
  ok: boolean;
  /** What happened, one word of at most 8 letters for a column: removed, gone, inactive, paused, kept, FAILED. */
  word: StepWord;
  detail: string;
  /** omc-top's own write (or the lock it takes for one) failed: the cancel is cut short, not refused by the disk's state. */
  writeFailed?: boolean;
  /**
   * OMC's mutation lock on the file could not be taken (held by a live OMC writer, or not a valid lock record): the
   * file was left as it is, while the cancel's signal, written first, is on disk.
   */
  lockRefused?: boolean;
  /** The `end` line this step appended to OMC 5.6's run ledger (ledger-end.ts), exactly as written. */
  ledgerLine?: string;
}

export type StepWord = 'removed' | 'gone' | 'inactive' | 'paused' | 'kept' | 'FAILED';

export interface WrittenSignal {
  rel: string;
  form: 'generic' | 'autopilot';
  /** Exactly the bytes written, to recognise our signal later. */
  text: string;
  requestedMs: number;
  expiresMs: number;
  /** The autopilot state the signal is bound to (autopilot form). */
  autopilotRel: string | null;
}

export interface StillActive {
  rel: string;
  mode: string;
  why: string;
}

export interface CancelDone {
  kind: 'done';
  plan: CancelPlan;
  signal: WrittenSignal;
  steps: StepResult[];
  /** Targeted files that are still active on disk after the recipe (empty = it took). */
  stillActive: StillActive[];
  /** For a pause: does the Stop hook honour the signal right now? */
  signalInForce: boolean;
  signalReason: string;
  /** Took effect on disk: every targeted mode ended (cancel), or the signal is in force (pause). */
  ok: boolean;
  summary: string;
  /** Set when the session moved on between the confirmation and the act (same files, new contents): what changed. */
  movedOn: string | null;
  /**
   * Part of this cancel could not be written (the signal landed, a mode file did not change) and a targeted mode is
   * still active: what was and was not written, the reason first (words.ts). Null when nothing of it failed so.
   */
  failedWrite: string | null;
}

export type ExecuteOutcome =
  | CancelDone
  | { kind: 'changed'; plan: CancelPlan; what: string }
  /**
   * `nothing`: the re-plan found nothing left to cancel (another cancel, or the session, got there first); `ended`:
   * the modes the plan named are no longer active (not a file that became unreadable).
   */
  | { kind: 'refused'; message: string; nothing?: boolean; ended?: boolean };

export interface ExecuteOptions {
  now(): number;
  /** --readonly: refuse before anything is written. */
  readonly?: boolean;
}

/** Writes one signal body made for moment `t` and says what was written. */
function put(
  root: string,
  rel: string,
  t: number,
  make: (t: number) => CancelSignal,
  autopilotRel: string | null,
  mkdir: boolean,
): WrittenSignal {
  const body = make(t);
  const text = serializeSignal(body);
  // The session's directory under state/sessions is OMC's: made as OMC's own mkdir makes it (umask).
  atomicWriteSync(root, rel, text, mkdir ? { mkdir: 'shared' } : {});
  return {
    rel,
    form: autopilotRel === null ? 'generic' : 'autopilot',
    text,
    requestedMs: t,
    expiresMs: Date.parse(body.expires_at),
    autopilotRel,
  };
}

/** Writes the signal; for the autopilot form it hashes the state under the state's own lock. */
async function writeSignal(root: string, plan: CancelPlan, now: () => number): Promise<WrittenSignal> {
  const sig = plan.signal;
  if (sig.form === 'autopilot' && sig.autopilotRel) {
    const apRel = sig.autopilotRel;
    return withStateLock(root, apRel, () => {
      const r = readTextSync(root, apRel);
      if (!r.ok) throw new Error(`${apRel}: ${r.message}`);
      // Bound to the state as it is at this instant: OMC compares with what it reads at the Stop event.
      return put(root, sig.rel, now(), (t) => autopilotSignal(r.text, t), apRel, plan.makesDir);
    });
  }
  return put(root, sig.rel, now(), (t) => genericSignal(sig.mode, t), null, plan.makesDir);
}

async function runStep(root: string, plan: CancelPlan, step: PlannedStep, now: () => number): Promise<StepResult> {
  const base = { rel: step.rel, what: step.action, mode: step.mode } as const;
  try {
    return await withStateLock(root, step.rel, (): StepResult => {
      const r = readTextSync(root, step.rel);
      if (!r.ok) {
        if (r.code === 'missing') return { ...base, ok: true, word: 'gone', detail: 'already gone' };
        return { ...base, ok: false, word: 'FAILED', detail: r.message };
      }
      const cur = parseObj(r.text);
      if (step.action === 'remove') {
        // Exact-snapshot delete, as state_clear does: a file rewritten since the plan is not ours to judge.
        if (sha256(r.text) !== step.sha)
          return {
            ...base,
            ok: false,
            word: 'FAILED',
            detail: 'changed while cancelling (a Stop event or OMC wrote it); left in place',
          };
        unlinkUnder(root, step.rel);
        // OMC 5.6: the run ledger sees a cancel, not a crash.
        return { ...base, ok: true, word: 'removed', ...withLedger('removed', root, step.rel, cur, now()) };
      }
      if (!cur) return { ...base, ok: false, word: 'FAILED', detail: 'is not a JSON object any more; left in place' };
      const sid = plan.request.sessionId;
      const owner = stateOwner(cur);
      if (sid !== null && owner !== null && owner !== sid)
        return { ...base, ok: false, word: 'FAILED', detail: `now owned by session ${owner}; left in place` };
      if (cur.active !== true) return { ...base, ok: true, word: 'inactive', detail: 'already inactive' };
      if (step.action === 'pause-named') {
        // The exact documented pause of a named run: active:false on the very state that was confirmed, nothing else.
        if (sha256(r.text) !== step.sha)
          return {
            ...base,
            ok: false,
            word: 'FAILED',
            detail: 'the named workflow run changed since it was confirmed; not paused',
          };
        atomicWriteSync(root, step.rel, JSON.stringify({ ...cur, active: false }, null, 2));
        return { ...base, ok: true, word: 'paused', detail: 'paused (active:false); the run can resume' };
      }
      if (hasNamedWorkflowMarkers(cur))
        return { ...base, ok: false, word: 'FAILED', detail: 'became a named workflow run; left to OMC' };
      const meta = objOrEmpty(cur._meta);
      const next = {
        ...cur,
        active: false,
        _meta: { ...meta, updatedAt: new Date(now()).toISOString(), updatedBy: 'omc-top' },
      };
      atomicWriteSync(root, step.rel, JSON.stringify(next, null, 2));
      const said = withLedger('set active:false (progress kept for resume)', root, step.rel, cur, now());
      return { ...base, ok: true, word: 'inactive', ...said };
    });
  } catch (e) {
    // The lock's own words say "Nothing was changed": true of this file, not of the cancel (its signal is written).
    if (e instanceof StateLockError)
      return { ...base, ok: false, word: 'FAILED', detail: `left as it is: ${e.reason}`, lockRefused: true };
    return { ...base, ok: false, word: 'FAILED', detail: describeWriteError(e), writeFailed: byTheDisk(e) };
  }
}

/**
 * The disk refused omc-top's own write (a full disk, a read-only filesystem, no permission: an error with the
 * kernel's code), not OMC's lock held by a live writer or a path refused (those leave the loop to a later cancel).
 */
const byTheDisk = (e: unknown): boolean =>
  !(e instanceof StateLockError) && typeof (e as NodeJS.ErrnoException | null)?.code === 'string';

/**
 * The ledger's end line for a run just ended, and the step's words with what became of it: a ledger
 * that could not be appended to (a FIFO, a link, a full disk) fails neither the step nor the cancel,
 * as in OMC, but the user is told the line is missing (OMC's next start will read the run as crashed).
 */
const LEDGER_NOTE = /; run ledger line not written: (.*)$/;

function withLedger(
  detail: string,
  root: string,
  rel: string,
  cur: Obj | null,
  nowMs: number,
): { detail: string; ledgerLine?: string } {
  const r = recordRunEnd(root, rel, cur, nowMs);
  if (r.written) return { detail, ledgerLine: r.line };
  return { detail: r.failed ? `${detail}; run ledger line not written: ${r.why}` : detail };
}

/** The `end` lines this cancel appended to OMC 5.6's run ledger and the runs they end, or null (none appended). */
export function ledgerAppends(steps: readonly StepResult[]): { rel: string; runs: string[]; lines: string[] } | null {
  const appended = steps.filter((s) => s.ledgerLine !== undefined);
  if (appended.length === 0) return null;
  return {
    rel: LEDGER_END_REL,
    runs: appended.map((s) => s.mode ?? '?'),
    lines: appended.map((s) => s.ledgerLine ?? ''),
  };
}

/** Re-reads every targeted file: gone or no longer `active: true` = ended. */
function verify(root: string, plan: CancelPlan, steps: StepResult[]): StillActive[] {
  const out: StillActive[] = [];
  for (const s of plan.steps) {
    const r = readTextSync(root, s.rel);
    if (!r.ok && r.code === 'missing') continue;
    const v = r.ok ? parseObj(r.text) : null;
    if (r.ok && v?.active !== true) continue;
    const failed = steps.find((x) => x.rel === s.rel && !x.ok);
    out.push({ rel: s.rel, mode: s.mode, why: failed ? failed.detail : r.ok ? 'still active' : r.message });
  }
  return out;
}

/**
 * The ~/.omc copies the session's hooks hold an ended mode from, read again now (the plan's look may be stale): no
 * step of omc-top's ends them, so the cancel did not take once its signal's window is over.
 */
function homeStill(root: string, plan: CancelPlan, signal: WrittenSignal, now: number): StillActive[] {
  const sid = plan.request.sessionId;
  if (sid === null || plan.where === null) return [];
  const ended = [...plan.modes, ...plan.linked];
  return homeHeldModes(root, sid, plan.where, plan.books, now)
    .filter((h) => ended.includes(h.mode))
    .map((h) => ({ rel: h.rel, mode: h.mode, why: homeStillWhy(h, signal.expiresMs) }));
}

/**
 * What the signal a lock-refused cancel still wrote does. The signal goes first, as OMC's own state_clear writes it
 * (state-tools.js): a Stop event racing the cancel then already lets the agent stop. Looking at the mode file's lock
 * before writing it would not make "nothing was changed" true either (OMC can take the lock a moment later), so the
 * order stays OMC's and the words say what was written.
 */
export const signalWrittenText = (signal: Pick<WrittenSignal, 'rel' | 'expiresMs'>): string =>
  `the cancel signal ${signal.rel} was written: OMC's Stop hook lets the agent stop until ${new Date(signal.expiresMs).toISOString().slice(11, 19)} UTC, then enforces the loop again; cancel again once the lock is free`;

/** The hook's verdict on the signal we wrote, against the disk as it is now. */
export function judgeSignal(
  root: string,
  signal: WrittenSignal,
  sessionId: string | null,
  now: number,
): { inForce: boolean; reason: string; ours: boolean; untilMs: number | null; source?: string } {
  const r = readTextSync(root, signal.rel);
  if (!r.ok)
    return {
      inForce: false,
      reason:
        r.code === 'missing'
          ? 'the signal file is gone (an expired signal is deleted by the Stop hook; session end deletes it too)'
          : r.message,
      ours: false,
      untilMs: null,
    };
  const ours = r.text === signal.text;
  const sig = parseObj(r.text);
  // Whose ever signal it is (another omc-top's cancel of the same loop, OMC's own /cancel), the hook honours it until then.
  const untilMs = timeMs(sig?.expires_at);
  // Who wrote it, as the signal says (`source`: omc-top, OMC's state_clear, …), to name it when it is not ours.
  const source = typeof sig?.source === 'string' ? sig.source : undefined;
  let apText: string | null = null;
  if (signal.autopilotRel && sessionId !== null) {
    const ap = readTextSync(root, signal.autopilotRel);
    const v = ap.ok ? parseObj(ap.text) : null;
    if (ap.ok && v && autopilotEnforceable(v, sessionId, now, null).enforceable) apText = ap.text;
  }
  const v = signalVerdict(sig, apText, now);
  // An autopilot-form signal no longer needs to be honoured once the autopilot itself is inactive.
  if (!v.inForce && signal.form === 'autopilot' && apText === null) {
    return {
      inForce: false,
      reason: 'the autopilot is no longer active, so the digest-bound signal has nothing left to cover',
      ours,
      untilMs,
      source,
    };
  }
  return { ...v, ours, untilMs, source };
}

export async function executeCancel(
  root: string,
  confirmed: CancelPlan,
  opts: ExecuteOptions,
): Promise<ExecuteOutcome> {
  if (opts.readonly) return { kind: 'refused', message: READONLY_NOTHING_WRITTEN };
  // Planned again by the same books: the warnings are those the confirmed plan gave.
  const fresh = planCancel(root, confirmed.request, opts.now(), { rules: confirmed.books, where: confirmed.where });
  if (!fresh.ok)
    return {
      kind: 'refused',
      message: fresh.message,
      nothing: fresh.code !== 'invalid-id',
      // What the user confirmed is no longer active on disk: it ended while the dialog was open.
      ended: fresh.code === 'nothing-active' || fresh.code === 'mode-not-active',
    };
  // Re-ask only when what would be done changed; a loop that merely moved on is still the loop the user meant.
  let movedOn: string | null = null;
  if (fresh.plan.fingerprint !== confirmed.fingerprint) {
    if (!onlyProgressed(confirmed, fresh.plan))
      return { kind: 'changed', plan: fresh.plan, what: describeChange(confirmed, fresh.plan) };
    movedOn = describeChange(confirmed, fresh.plan);
  }
  const plan = fresh.plan;

  let signal: WrittenSignal;
  try {
    signal = await writeSignal(root, plan, opts.now);
  } catch (e) {
    // The reason first: the message line is cut to the terminal width, and a session path is long.
    const reason = describeWriteError(e);
    const nothing = /nothing was changed/i.test(reason) ? '' : '; nothing was changed';
    return { kind: 'refused', message: `${reason}${nothing} (could not write ${plan.signal.rel})` };
  }

  const steps: StepResult[] = [];
  if (!plan.request.pauseOnly) {
    const helpers = plan.steps.filter((s) => s.mode !== 'autopilot');
    const autopilot = plan.steps.filter((s) => s.mode === 'autopilot');
    for (const s of helpers) steps.push(await runStep(root, plan, s, opts.now));
    for (const rel of plan.artifacts) {
      try {
        steps.push({
          rel,
          what: 'remove-artifact',
          mode: null,
          ...(unlinkUnder(root, rel)
            ? { ok: true, word: 'removed', detail: 'removed' }
            : { ok: true, word: 'gone', detail: 'already gone' }),
        });
      } catch (e) {
        steps.push({
          rel,
          what: 'remove-artifact',
          mode: null,
          ok: false,
          word: 'FAILED',
          detail: describeWriteError(e),
          writeFailed: byTheDisk(e),
        });
      }
    }
    for (const s of autopilot) steps.push(await runStep(root, plan, s, opts.now));
    const sa = plan.skillActive;
    if (sa) {
      if (steps.every((s) => s.ok)) {
        try {
          const removed = await withStateLock(root, sa.rel, () => unlinkUnder(root, sa.rel));
          steps.push({
            rel: sa.rel,
            what: 'remove-skill-active',
            mode: null,
            ok: true,
            ...(removed ? { word: 'removed', detail: 'removed' } : { word: 'gone', detail: 'already gone' }),
          });
        } catch (e) {
          steps.push({
            rel: sa.rel,
            what: 'remove-skill-active',
            mode: null,
            ok: false,
            word: 'FAILED',
            detail: describeWriteError(e),
            writeFailed: byTheDisk(e),
          });
        }
      } else {
        steps.push({
          rel: sa.rel,
          what: 'remove-skill-active',
          mode: null,
          ok: false,
          word: 'kept',
          detail: "an earlier step failed, so it is kept (as OMC's cancel does)",
        });
      }
    }
  }

  const stillActive = plan.request.pauseOnly
    ? []
    : [...verify(root, plan, steps), ...homeStill(root, plan, signal, opts.now())];
  const judged = judgeSignal(root, signal, plan.request.sessionId, opts.now());
  const ended = [...plan.modes, ...plan.linked].join(', ');
  let ok: boolean;
  let summary: string;
  // A write of its own that failed, with a mode left active because of it: the cancel failed (it is not in flight).
  const failedWrite = stillActive.length > 0 ? failedWritesText(signal.rel, steps) : null;
  if (plan.request.pauseOnly) {
    ok = judged.inForce;
    summary = ok
      ? `paused ${ended} in ${plan.label}: the Stop hook lets the agent stop for 30 s; the loop keeps its state`
      : `pause did not take: ${judged.reason}`;
  } else {
    ok = stillActive.length === 0;
    // What the disk says, no more: whether Claude stops is for whoever can watch it (the tracker, cancel --wait).
    summary = ok
      ? `${ended} ended on disk in ${plan.label}: no targeted mode is active`
      : failedWrite !== null
        ? `${CANCEL_FAILED}: ${failedWrite}; still active: ${stillActive.map((s) => s.mode).join(', ')}`
        : `cancel did not take: ${stillActive.map((s) => `${s.rel}: ${s.why}`).join('; ')}${
            steps.some((s) => s.lockRefused === true) ? `; ${signalWrittenText(signal)}` : ''
          }`;
    const ledger = steps.map((s) => LEDGER_NOTE.exec(s.detail)?.[1]).find((x) => x !== undefined);
    if (ledger) summary += `; the run ledger line was not written (${ledger})`;
  }
  return {
    kind: 'done',
    plan,
    signal,
    steps,
    stillActive,
    signalInForce: judged.inForce,
    signalReason: judged.reason,
    ok,
    summary,
    movedOn,
    failedWrite,
  };
}
