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
import type { KeyContext } from '../../kit/pane.js';
import type { SessionsPaneState } from './reducer.js';

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
  const rules = ctx.store.sessions.rules;
  if (pauseOnly && rules === '4.4.4') {
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
  );
  if (!planned.ok) {
    ctx.app.flash(`${verb}: ${planned.message}`, 'error');
    return;
  }
  ask(ctx, planned.plan, null);
}

/** A pause leaves the loop active: OMC 5.6's budget guard may still block a stop of a loop at its budget. */
function budgetLines(ctx: KeyContext<SessionsPaneState>, plan: CancelPlan): string[] {
  if (!plan.request.pauseOnly) return [];
  const w = ctx.store.runs.pauseWarnings(plan.modes);
  return w.length === 0 ? [] : ['', ...w.map((x) => `⚠ budget: ${x}`)];
}

function ask(ctx: KeyContext<SessionsPaneState>, plan: CancelPlan, changed: string | null): void {
  const verb = plan.request.pauseOnly ? 'pause' : 'cancel';
  const text = describePlan(plan);
  const budget = budgetLines(ctx, plan);
  const omc = ctx.store.omc;
  const rulesLine = `Judged with OMC ${ctx.store.sessions.rules}'s Stop-hook rules (${omc ? (omc.assumed ? 'no OMC install found: assumed' : `OMC ${omc.version ?? '?'} from ${omc.source}`) : 'default'}).`;
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
          ask(ctx, out.plan, out.what);
          return;
        }
        if (out.kind === 'refused') {
          ctx.app.flash(`${verb}: ${out.message}`, 'error');
          return;
        }
        const tracker = ctx.store.cancels;
        const entry = tracker.track(out);
        // The message says what the tracker (the verdict engine on a fresh read) says, and follows it
        // until it is final: a loop re-armed inside the window turns "cancelled ✓" into "not ended yet".
        const say = (text: string, ok: boolean) =>
          ctx.app.flash(
            out.movedOn ? `${text} (it moved on while you confirmed: ${out.movedOn})` : text,
            ok ? 'success' : 'error',
          );
        const okPhase = (p: string) => p === 'ended' || p === 'cancelled' || p === 'paused' || p === 'pause-over';
        let last = entry.text;
        // execute's summary when the verdict agrees; else what the verdict says instead.
        say(
          out.ok && okPhase(entry.phase) ? out.summary : out.ok ? entry.text : out.summary,
          out.ok && okPhase(entry.phase),
        );
        if (!entry.final) {
          const stop = tracker.subscribe(() => {
            const e = tracker.get(entry.key);
            if (!e || e.result !== out) return stop();
            if (e.text !== last) {
              last = e.text;
              say(e.text, okPhase(e.phase));
            }
            if (e.final) stop();
          });
        }
      }),
    onDecline: () => ctx.app.flash(`${verb} not confirmed: nothing was written`, 'info'),
  });
}
