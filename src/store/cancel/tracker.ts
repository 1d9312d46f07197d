/**
 * Follows each cancel omc-top made until it is proven: while the 30 s signal
 * window is open it watches the disk (every sessions-domain change, plus a
 * timer at expiry), and then settles on one verdict:
 *
 * - cancel: "cancelled" when no targeted mode is active on disk once the
 *   signal has expired (a Stop event that was already running can re-arm a
 *   loop inside the window; that is what the window watches for), else
 *   "cancel did not take: <why>";
 * - pause: "paused" while OMC's Stop hook would honour the signal (the
 *   autopilot digest still matches, nothing replaced it), then "pause over";
 *   "pause did not take: <why>" as soon as OMC would stop honouring it.
 *
 * One tracker per OmcStore: `store.cancels`.
 */
import { SnapshotCell } from '../../io/snapshot-cell.js';
import path from 'node:path';
import { readJsonSync, readTextSync } from '../../io/safe-fs/index.js';
import type { RulesVersion } from '../omc-install.js';
import { diskTree } from '../verdict/disk-tree.js';
import { stopVerdict, type ModeVerdict } from '../verdict/index.js';
import type { Clock, Subscribable } from '../types.js';
import { judgeSignal, type CancelDone } from './execute.js';
import { sha256 } from './signal.js';
import { type Obj, obj } from '../../io/json.js';

export type TrackedPhase = 'ended' | 'waiting' | 'paused' | 'cancelled' | 'not-taken' | 'pause-over';

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
  /** When the verdict became final (clock ms), else null. */
  settledMs: number | null;
  result: CancelDone;
}

export interface TrackerSnapshot {
  version: number;
  entries: ReadonlyMap<string, TrackedCancel>;
}

export const LEGACY_KEY = ':legacy';
export const trackerKey = (sessionId: string | null) => sessionId ?? LEGACY_KEY;

function activeOnDisk(root: string, rel: string): { active: boolean; sha: string | null } {
  const r = readTextSync(root, rel);
  if (!r.ok) return { active: false, sha: null };
  try {
    return { active: obj(JSON.parse(r.text))?.active === true, sha: sha256(r.text) };
  } catch {
    return { active: false, sha: sha256(r.text) };
  }
}

const secondsLeft = (expiresMs: number, now: number) => Math.max(0, Math.ceil((expiresMs - now) / 1000));

/** Which rules judge, and where the session's hooks run when it does not say. */
export interface JudgeRules {
  rules: RulesVersion;
  projectDir: string;
}

/** The ended modes the Stop hook, re-reading disk now, still enforces for the session. */
function stillEnforced(root: string, result: CancelDone, now: number, r: JudgeRules): ModeVerdict[] {
  const sid = result.plan.request.sessionId;
  if (sid === null) return [];
  const started = readJsonSync(root, `state/sessions/${sid}/session-started.json`);
  const cwd =
    started.ok && typeof (started.value as Obj | null)?.cwd === 'string'
      ? String((started.value as Obj).cwd)
      : r.projectDir;
  const v = stopVerdict(diskTree(root), { rules: r.rules, sessionId: sid, cwd, now });
  const ended = new Set([...result.plan.modes, ...result.plan.linked]);
  return v.modes.filter((m) => m.enforced && ended.has(m.mode));
}

/** Pure verdict for one cancel at `now` (reads the few files it is about). */
export function judge(
  root: string,
  result: CancelDone,
  now: number,
  rules: JudgeRules = { rules: '5.5.0', projectDir: path.dirname(root) },
): Pick<TrackedCancel, 'phase' | 'final' | 'text' | 'reason'> {
  const { plan, signal } = result;
  const sig = judgeSignal(root, signal, plan.request.sessionId, now);
  const open = now < signal.expiresMs && sig.ours;
  const early = now < signal.expiresMs && !sig.ours;
  const what = [...plan.modes, ...plan.linked].join(', ');

  const lost = sig.ours ? null : readTextSync(root, signal.rel).ok ? 'another writer replaced the signal' : sig.reason;
  if (plan.request.pauseOnly) {
    if (open && sig.inForce) {
      return {
        phase: 'paused',
        final: false,
        text: `paused ${what}`,
        reason: `${sig.reason}; the loop keeps its state`,
      };
    }
    if (open) return { phase: 'not-taken', final: true, text: `pause did not take: ${sig.reason}`, reason: sig.reason };
    if (early)
      return {
        phase: 'pause-over',
        final: true,
        text: 'pause ended early',
        reason: `${lost}; the loop is enforced again at its next Stop event`,
      };
    return {
      phase: 'pause-over',
      final: true,
      text: 'pause over: loop enforced again',
      reason: 'the 30 s signal expired; the loop kept its state and the Stop hook enforces it again',
    };
  }

  const still: string[] = [];
  for (const step of plan.steps) {
    const d = activeOnDisk(root, step.rel);
    if (!d.active) continue;
    const failed = result.steps.find((s) => s.rel === step.rel && !s.ok);
    const why = failed
      ? `${step.mode} still active (${failed.detail})`
      : `${step.mode} active again: ${step.rel} was rewritten after the cancel (a Stop event already under way re-armed it)`;
    still.push(why);
  }
  // The verdict engine has the last word: "cancelled ✓" only when the Stop hook, re-reading
  // disk, no longer holds the agent for any mode this cancel ended.
  for (const m of stillEnforced(root, result, now, rules))
    if (!still.some((w) => w.startsWith(`${m.mode} `))) still.push(`${m.mode} is enforced again (${m.detail})`);
  if (still.length > 0 && signal.form === 'autopilot' && !sig.inForce && sig.reason.includes('digest'))
    still.push(sig.reason);
  if (open) {
    return still.length === 0
      ? {
          phase: 'ended',
          final: false,
          text: `cancelled ✓ ${what}`,
          reason: 'ended on disk; watching until the signal expires that nothing re-arms it',
        }
      : { phase: 'waiting', final: false, text: `not ended yet: ${still[0]}`, reason: still.join('; ') };
  }
  if (still.length === 0) {
    return {
      phase: 'cancelled',
      final: true,
      text: `cancelled ✓ ${what}`,
      reason:
        'verified: the signal window is over, and the Stop hook (re-reading disk) no longer enforces any of these modes',
    };
  }
  return { phase: 'not-taken', final: true, text: `cancel did not take: ${still[0]}`, reason: still.join('; ') };
}

export class CancelTracker {
  readonly cell = new SnapshotCell<TrackerSnapshot>({ version: 0, entries: new Map() });
  private entries = new Map<string, TrackedCancel>();
  private version = 0;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly root: string,
    private readonly clock: Clock,
    /** Disk changes worth a re-check (the sessions domain sees every state and signal file). */
    private readonly changes: Subscribable<unknown> | null,
    private readonly rules: JudgeRules = { rules: '5.5.0', projectDir: path.dirname(root) },
  ) {}

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;

  get(key: string): TrackedCancel | undefined {
    return this.entries.get(key);
  }

  /** Starts following a cancel; a new cancel of the same session replaces the old entry. */
  track(result: CancelDone): TrackedCancel {
    const key = trackerKey(result.plan.request.sessionId);
    const now = this.clock();
    const entry: TrackedCancel = {
      key,
      label: result.plan.label,
      pauseOnly: result.plan.request.pauseOnly,
      modes: [...result.plan.modes, ...result.plan.linked],
      requestedMs: result.signal.requestedMs,
      expiresMs: result.signal.expiresMs,
      settledMs: null,
      result,
      ...judge(this.root, result, now, this.rules),
    };
    if (entry.final) entry.settledMs = now;
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
      const v = judge(this.root, e.result, now, this.rules);
      if (v.phase !== e.phase || v.text !== e.text || v.final !== e.final) {
        this.entries.set(key, { ...e, ...v, settledMs: v.final ? now : null });
        changed = true;
      }
    }
    if (changed) this.publish();
    this.arm();
  }

  /** Seconds of signal left for a session's open cancel, or null. */
  secondsLeft(key: string, now: number): number | null {
    const e = this.entries.get(key);
    return e && !e.final ? secondsLeft(e.expiresMs, now) : null;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
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
      return;
    }
    if (!this.unsubscribe && this.changes) this.unsubscribe = this.changes.subscribe(() => this.evaluate());
    const next = Math.min(...open.map((e) => e.expiresMs));
    const delay = Math.max(0, next - this.clock()) + 5;
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
