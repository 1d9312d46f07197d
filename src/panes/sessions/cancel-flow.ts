/**
 * What pressing `c` (cancel) or `p` (pause) on a session, or on one mode of
 * it in the detail view, does: plan from disk, ask with the exact files, then
 * (on "y") re-read, re-ask if what would be done changed meanwhile (a loop
 * that only wrote its next iteration is still the loop to end), run the recipe
 * and hand the result to the tracker that shows the countdown and the verdict.
 */
import { describePlan } from '../../store/cancel/describe.js';
import { executeCancel } from '../../store/cancel/execute.js';
import { planCancel, type CancelPlan } from '../../store/cancel/plan.js';
import { isValidSessionId } from '../../store/sessions/omc-rules.js';
import type { SessionView } from '../../store/sessions/model.js';
import { claudeWords, type TrackedPhase } from '../../store/cancel/tracker.js';
import type { KeyContext } from '../../kit/pane.js';
import type { SessionsPaneState } from './reducer.js';

/** A flash's tone: ✓ (success) only for what omc-top saw happen. */
function phaseTone(p: TrackedPhase): 'success' | 'info' | 'error' {
  if (p === 'not-taken' || p === 'waiting' || p === 'failed') return 'error';
  return p === 'stopped' || p === 'cancelled' ? 'success' : 'info';
}

export function requestCancel(
  ctx: KeyContext<SessionsPaneState>,
  s: SessionView,
  mode: string | null,
  pauseOnly: boolean,
): void {
  const verb = pauseOnly ? 'pause' : 'cancel';
  if (ctx.app.readonly) {
    ctx.app.flash(`--readonly: ${verb} is disabled (nothing is written)`, 'error');
    return;
  }
  // The session's own OMC (its Claude process's --plugin-dir), else the project's.
  const install = s.kind === 'legacy' ? ctx.store.sessions.omc : ctx.store.sessions.installOf(s.id);
  const rules = install.rules;
  if (pauseOnly && rules === '4.4.4' && !install.assumed) {
    // 4.4.4's wired Stop hook (persistent-mode.cjs) has no cancel-signal check: a pause would pause nothing.
    ctx.app.flash(
      `pause: OMC 4.4.4's Stop hook never reads cancel signals, so a pause would not stop the loop; press c to cancel it (its files are removed). Nothing was written.`,
      'error',
    );
    return;
  }
  if (s.kind === 'session' && !isValidSessionId(s.id)) {
    ctx.app.flash(`${verb}: ${s.id} is not a valid OMC session id; nothing was written`, 'error');
    return;
  }
  const planned = planCancel(
    ctx.store.root,
    { sessionId: s.kind === 'legacy' ? null : s.id, mode, pauseOnly },
    ctx.app.now(),
    { rules: install.assumed ? null : rules },
  );
  if (!planned.ok) {
    ctx.app.flash(`${verb}: ${planned.message}`, 'error');
    return;
  }
  ask(ctx, planned.plan, null, s.kind === 'legacy' ? null : s.id);
}

/** Where the outcome depends on an OMC version that was not found, in words (the cancel command says the same). */
function versionLines(ctx: KeyContext<SessionsPaneState>, plan: CancelPlan, sid: string | null): string[] {
  const install = sid === null ? ctx.store.sessions.omc : ctx.store.sessions.installOf(sid);
  if (!install.assumed) return [];
  return plan.request.pauseOnly
    ? [
        '⚠ The OMC version was not found: OMC 4.6.1 and later honour this pause (4.15 only where flock is installed); OMC 4.6.0 and older never read cancel signals, and their Stop hook keeps the loop going (start omc-top with --omc-version to be sure).',
      ]
    : [];
}

/** A pause leaves the loop active: OMC 5.6's budget guard may still block a stop of a loop at its budget. */
function budgetLines(ctx: KeyContext<SessionsPaneState>, plan: CancelPlan): string[] {
  if (!plan.request.pauseOnly) return [];
  const w = ctx.store.runs.pauseWarnings(plan.modes);
  return w.length === 0 ? [] : ['', ...w.map((x) => `⚠ budget: ${x}`)];
}

function ask(ctx: KeyContext<SessionsPaneState>, plan: CancelPlan, changed: string | null, sid: string | null): void {
  const verb = plan.request.pauseOnly ? 'pause' : 'cancel';
  const text = describePlan(plan);
  const budget = [...budgetLines(ctx, plan), ...versionLines(ctx, plan, sid)];
  const omc = sid === null ? ctx.store.sessions.omc : ctx.store.sessions.installOf(sid);
  const rulesLine = `Judged with OMC ${omc.rules}'s Stop-hook rules (${omc.assumed ? 'no OMC install found: assumed' : `OMC ${omc.version ?? '?'} from ${omc.source}`}).`;
  ctx.app.confirm({
    id: 'cancel',
    title: changed ? `Changed on disk. ${text.title}` : text.title,
    lines: changed
      ? [
          `The session changed while you were reading (${changed}). Re-read; this is what happens now:`,
          ...text.lines,
          ...budget,
        ]
      : [...text.lines, ...budget, rulesLine],
    prompt: text.prompt,
    onConfirm: () =>
      ctx.app.run(verb, async () => {
        const out = await executeCancel(ctx.store.root, plan, { now: ctx.app.now, readonly: ctx.app.readonly });
        if (out.kind === 'changed') {
          ask(ctx, out.plan, out.what, sid);
          return;
        }
        if (out.kind === 'refused') {
          ctx.app.flash(`${verb}: ${out.message}`, 'error');
          return;
        }
        const tracker = ctx.store.cancels;
        const entry = tracker.track(out);
        // The message says what the tracker (the verdict engine on a fresh read, and Claude as omc-top sees
        // it) says, and follows it until it is final: a loop re-armed inside the window turns into "not ended
        // yet"; a ✓ only once omc-top saw what it marks (Claude stopped, or was not in a turn).
        // Said with every later message too: the cancel on disk happened, only other omc-tops were not told.
        let unrecorded = '';
        let lastSaid: [string, 'success' | 'info' | 'error'] | null = null;
        const say = (text: string, tone: 'success' | 'info' | 'error') => {
          lastSaid = [text, tone];
          const moved = out.movedOn ? ` (it moved on while you confirmed: ${out.movedOn})` : '';
          ctx.app.flash(`${text}${moved}${unrecorded}`, tone);
        };
        void tracker.recorded(out).then((why) => {
          if (why === null) return;
          unrecorded = `; its cancel record was not written (${why}): other omc-tops will not say if it does not take`;
          if (lastSaid) say(...lastSaid);
        });
        let last = entry.text;
        // execute's summary when the verdict agrees; else what the verdict says instead.
        if (!out.ok) say(out.summary, 'error');
        else if (phaseTone(entry.phase) === 'error') say(entry.text, 'error');
        else if (phaseTone(entry.phase) === 'success') say(entry.text.replace(/ ✓/g, ''), 'success');
        else say(`${out.summary}; ${claudeWords(entry.claude, entry.requestedMs, entry.pauseOnly)}`, 'info');
        if (!entry.final) {
          const stop = tracker.subscribe(() => {
            const e = tracker.get(entry.key);
            if (!e || e.result !== out) return stop();
            if (e.text !== last) {
              last = e.text;
              const tone = phaseTone(e.phase);
              say(tone === 'success' ? e.text.replace(/ ✓/g, '') : e.text, tone);
            }
            if (e.final) stop();
          });
        }
      }),
    onDecline: () => ctx.app.flash(`${verb} not confirmed: nothing was written`, 'info'),
  });
}
