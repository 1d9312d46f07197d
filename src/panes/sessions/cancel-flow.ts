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
import type { KeyContext } from '../types.js';
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

function ask(ctx: KeyContext<SessionsPaneState>, plan: CancelPlan, changed: string | null): void {
  const verb = plan.request.pauseOnly ? 'pause' : 'cancel';
  const text = describePlan(plan);
  ctx.app.confirm({
    title: changed ? `Changed on disk. ${text.title}` : text.title,
    lines: changed
      ? [`The session changed while you were reading (${changed}). Re-read; this is what happens now:`, ...text.lines]
      : text.lines,
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
        ctx.store.cancels.track(out);
        // The verdict first (the message line is cut to the width); then that it acted on newer contents.
        ctx.app.flash(
          out.movedOn ? `${out.summary} (it moved on while you confirmed: ${out.movedOn})` : out.summary,
          out.ok ? 'success' : 'error',
        );
      }),
    onDecline: () => ctx.app.flash(`${verb} not confirmed: nothing was written`, 'info'),
  });
}
