/**
 * A cancel or pause planned for a person to confirm, and carried out once confirmed, whoever asks (the TUI's `c` /
 * `p`, the serve page's Cancel / Pause): the OMC that runs the session's hooks decides whether a pause is refused and which warnings the plan
 * carries; the dialog's lines (the plan, a pause's budget and version warnings, the rule books it was judged with)
 * are the same words on every surface.
 */
import path from 'node:path';
import { describePlan } from '../../store/cancel/describe.js';
import { executeCancel, type ExecuteOptions, type ExecuteOutcome } from '../../store/cancel/execute.js';
import { trackerKey, type TrackedCancel } from '../../store/cancel/tracker.js';
import { alreadyEndedText, endedByRecord } from '../../store/cancel/already-ended.js';
import { planCancel, type CancelPlan } from '../../store/cancel/plan.js';
import { cancelBooks, enabledInstalls, pauseRefusal } from '../../store/cancel/pause-support.js';
import { ownSource, type OmcInstall } from '../../store/omc-install.js';
import type { OmcStore } from '../../store/store.js';

/** The OMC that runs a session's hooks: its own Claude process's `--plugin-dir` if any, else the project's. */
export const installFor = (store: OmcStore, sid: string | null): OmcInstall =>
  sid === null ? store.sessions.omc : store.sessions.installOf(sid);

export type PlannedCancel = { ok: true; plan: CancelPlan } | { ok: false; message: string };

/**
 * Plans from disk. A pause the session's OMC never reads is refused before anything is planned, in words that end
 * with `howToCancel` (each surface names its own cancel: "press c", "use Cancel").
 */
export function planCancelFor(
  store: OmcStore,
  req: { sessionId: string | null; mode: string | null; pauseOnly: boolean },
  now: number,
  howToCancel: string,
): PlannedCancel {
  const install = installFor(store, req.sessionId);
  const refused = req.pauseOnly ? pauseRefusal(install) : null;
  if (refused)
    return { ok: false, message: `${refused}; ${howToCancel} (its files are removed). Nothing was written.` };
  // Every enabled OMC plugin's Stop hook runs: the plan warns by each one's book.
  // The session's hooks fall back to ~/.omc copies: the plan names one that would hold the loop after it.
  const where = { projectDir: store.projectDir ?? path.dirname(store.root), home: store.home };
  const r = planCancel(store.root, req, now, { rules: cancelBooks(install), where });
  return r.ok ? { ok: true, plan: r.plan } : { ok: false, message: r.message };
}

/** Where the outcome depends on an OMC version that was not found, in words (the cancel command says the same). */
function versionLines(install: OmcInstall, plan: CancelPlan): string[] {
  if (!install.assumed || !plan.request.pauseOnly) return [];
  return [
    '⚠ The OMC version was not found: OMC 4.6.1 and later honour this pause (4.15 only where flock is installed); OMC 4.6.0 and older never read cancel signals, and their Stop hook keeps the loop going (start omc-top with --omc-version to be sure).',
  ];
}

/** A pause leaves the loop active: OMC 5.6's budget guard may still block a stop of a loop at its budget. */
function budgetLines(store: OmcStore, plan: CancelPlan): string[] {
  if (!plan.request.pauseOnly) return [];
  const w = store.runs.pauseWarnings(plan.modes);
  return w.length === 0 ? [] : ['', ...w.map((x) => `⚠ budget: ${x}`)];
}

/**
 * The books the plan and the verdict after it are judged by, in words: the session's OMC's, or with several OMC plugins
 * enabled, each one's (Claude Code runs every enabled plugin's Stop hook, and a block from any holds the agent).
 */
function judgedWithLine(install: OmcInstall): string {
  if (install.assumed) return `Judged with OMC ${install.rules}'s Stop-hook rules (no OMC install found: assumed).`;
  const all = enabledInstalls(install);
  if (all.length < 2)
    return `Judged with OMC ${install.rules}'s Stop-hook rules (OMC ${install.version ?? '?'} from ${install.source}).`;
  const each = all.map((i) => `OMC ${i.rules}'s (OMC ${i.version ?? '?'} from ${ownSource(i)})`);
  return `Judged with the Stop-hook rules of every enabled OMC plugin (Claude Code runs each one's Stop hook; a block from any holds the agent): ${each.join(', ')}.`;
}

/** The confirmation's words: `changed` names what moved on disk while the person read an earlier plan. */
export function cancelDialog(
  store: OmcStore,
  plan: CancelPlan,
  changed: string | null = null,
): { title: string; lines: string[]; prompt: string } {
  const install = installFor(store, plan.request.sessionId);
  const text = describePlan(plan);
  const warnings = [...budgetLines(store, plan), ...versionLines(install, plan)];
  const rulesLine = judgedWithLine(install);
  return {
    title: changed ? `Changed on disk. ${text.title}` : text.title,
    lines: changed
      ? [
          `The session changed while you were reading (${changed}). Re-read; this is what happens now:`,
          ...text.lines,
          ...warnings,
        ]
      : [...text.lines, ...warnings, rulesLine],
    prompt: text.prompt,
  };
}

/** A confirmed plan carried out: as execute.ts says, with this process's tracker's entry when it was written. */
export type CarriedOut =
  | Exclude<ExecuteOutcome, { kind: 'done' }>
  | { kind: 'done'; done: Extract<ExecuteOutcome, { kind: 'done' }>; entry: TrackedCancel };

/**
 * A confirmed plan carried out, whoever confirmed it (the TUI's dialog, the serve page's Confirm): written under OMC's
 * locks (execute.ts), then followed by this process's tracker (store.cancels), which records the cancel for every
 * other omc-top process (the same record `omc-top cancel` writes) and, once it sees it, its settlement.
 */
export async function carryOutCancel(store: OmcStore, plan: CancelPlan, opts: ExecuteOptions): Promise<CarriedOut> {
  const out = await executeCancel(store.root, plan, opts);
  if (out.kind === 'refused' && out.ended === true && !plan.request.pauseOnly)
    return { ...out, message: alreadyEnded(store, plan, out.message, opts.now()) };
  if (out.kind !== 'done') return out;
  return { kind: 'done', done: out, entry: store.cancels.track(out) };
}

/**
 * The loop the dialog showed active ended before "y" was carried out (a second monitor's cancel a moment earlier,
 * OMC's own /cancel, the loop's end): said as already ended, and by whom when omc-top's cancel records tell (the
 * record is read again here: the other monitor wrote it a moment ago).
 */
function alreadyEnded(store: OmcStore, plan: CancelPlan, why: string, now: number): string {
  store.cancelRecords.load();
  const rec = store.cancelRecords.getSnapshot().records.get(trackerKey(plan.request.sessionId));
  return alreadyEndedText({
    rec: endedByRecord(rec, plan.modes, now),
    what: [...plan.modes, ...plan.linked].join(', '),
    label: plan.label,
    when: 'while this dialog was open',
    why,
  });
}
