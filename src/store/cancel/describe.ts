/**
 * A cancel plan in words: exactly which files are written, removed or set
 * inactive, which linked modes go with it, and what is left alone. Used by the
 * confirmation dialog and by `omc-top cancel` (everything here is already
 * sanitised: paths are built from validated names, notes from cleanLine).
 */
import type { CancelPlan, PlannedStep } from './plan.js';

const ACTION: Record<PlannedStep['action'], string> = {
  remove: 'remove',
  deactivate: 'set active:false in',
  'pause-named': 'pause (active:false) named run',
};

const STEP_TAIL: Record<PlannedStep['action'], string> = {
  remove: '',
  deactivate: 'progress kept for resume',
  'pause-named': 'exact pause: nothing else changes',
};

export function modesPhrase(plan: CancelPlan): string {
  const all = [...plan.modes, ...plan.linked];
  return all.length === 0 ? 'nothing' : all.join(' + ');
}

/** What the run ledger's append is, for the dialog and the CLI: "an end line for ralph (OMC 5.6's run ledger)". */
export function ledgerTail(runs: readonly string[]): string {
  return `an end line for ${runs.join(', ')} (OMC 5.6's run ledger: the run reads as cancelled, not crashed)`;
}

export interface Confirmation {
  title: string;
  lines: string[];
  prompt: string;
}

export function describePlan(plan: CancelPlan): Confirmation {
  const pause = plan.request.pauseOnly;
  const prefix = `${plan.dir}/`;
  const inDir: string[] = [];
  const outside: string[] = [];
  const put = (rel: string, verb: string, tail: string) => {
    const local = rel.startsWith(prefix) && !rel.slice(prefix.length).includes('/');
    const line = `  ${verb} ${local ? rel.slice(prefix.length) : rel}${tail ? `  (${tail})` : ''}`;
    (local ? inDir : outside).push(line);
  };
  const sig = plan.signal;
  put(
    sig.rel,
    'write',
    sig.form === 'autopilot'
      ? `autopilot form: target_state_sha256 of ${sig.autopilotRel?.startsWith(prefix) ? sig.autopilotRel.slice(prefix.length) : sig.autopilotRel}, source omc-top, 30 s`
      : `generic signal, mode ${sig.mode}, source omc-top, 30 s`,
  );
  for (const s of plan.steps) put(s.rel, ACTION[s.action], [s.note, STEP_TAIL[s.action]].filter(Boolean).join('; '));
  for (const a of plan.artifacts) put(a, 'remove', 'runtime artifact');
  if (plan.skillActive)
    put(plan.skillActive.rel, 'remove', 'workflow-slot ledger, last, only if everything else worked');
  if (plan.ledger) put(plan.ledger.rel, 'append to', ledgerTail(plan.ledger.runs));

  const lines: string[] = [`In ${plan.dir}/:`, ...inDir];
  if (outside.length > 0) lines.push('Elsewhere under .omc:', ...outside);
  if (plan.linked.length > 0) lines.push(`Linked modes that go with it: ${plan.linked.join(', ')}`);
  for (const s of plan.skipped) lines.push(`Left alone: ${s.rel}: ${s.reason}`);
  const one = plan.modes.length + plan.linked.length === 1;
  if (pause)
    lines.push(
      `Nothing is removed: ${modesPhrase(plan)} ${one ? 'keeps its' : 'keep their'} state for a later resume.`,
    );
  for (const w of plan.warnings) lines.push(`⚠ ${w}`);
  lines.push(
    pause
      ? 'The pause lasts 30 s: the agent may stop at its next Stop event; after that the loop is enforced again. omc-top shows the countdown and whether OMC honours the signal.'
      : 'omc-top then checks on disk for 30 s that the loop stays ended, and shows "stopped ✓" only when it sees Claude stop.',
  );
  const who = plan.request.sessionId === null ? 'session-less (legacy) state' : `session ${plan.label}`;
  return {
    title: `${pause ? 'Pause' : 'Cancel'} ${modesPhrase(plan)} of ${who}?`,
    lines,
    prompt: pause ? 'y: pause for 30 s   n/Esc: keep going' : 'y: cancel the loop   n/Esc: keep it',
  };
}
