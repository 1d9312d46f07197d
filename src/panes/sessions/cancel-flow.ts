/**
 * What pressing `c` (cancel) or `p` (pause) on a session, or on one mode of
 * it in the detail view, does: plan from disk, ask with the exact files, then
 * (on "y") re-read, re-ask if what would be done changed meanwhile (a loop
 * that only wrote its next iteration is still the loop to end), run the recipe
 * and hand the result to the tracker that shows the countdown and the verdict.
 */
import { readonlyRefusal } from '../../io/readonly-words.js';
import type { CancelPlan } from '../../store/cancel/plan.js';
import { cancelDialog, carryOutCancel, planCancelFor } from '../../feeds/answers/cancel-plan.js';
import { movedOnText, unrecordedText } from '../../store/cancel/words.js';
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
    ctx.app.flash(readonlyRefusal(verb), 'error');
    return;
  }
  if (s.kind === 'session' && !isValidSessionId(s.id)) {
    ctx.app.flash(`${verb}: ${s.id} is not a valid OMC session id; nothing was written`, 'error');
    return;
  }
  // The session's own OMC (its Claude process's --plugin-dir), else the project's: a pause it never reads is refused.
  const planned = planCancelFor(
    ctx.store,
    { sessionId: s.kind === 'legacy' ? null : s.id, mode, pauseOnly },
    ctx.app.now(),
    'press c to cancel it',
  );
  if (!planned.ok) {
    ctx.app.flash(`${verb}: ${planned.message}`, 'error');
    return;
  }
  ask(ctx, planned.plan, null);
}

function ask(ctx: KeyContext<SessionsPaneState>, plan: CancelPlan, changed: string | null): void {
  const verb = plan.request.pauseOnly ? 'pause' : 'cancel';
  ctx.app.confirm({
    id: 'cancel',
    ...cancelDialog(ctx.store, plan, changed),
    onConfirm: () =>
      ctx.app.run(verb, async () => {
        const carried = await carryOutCancel(ctx.store, plan, { now: ctx.app.now, readonly: ctx.app.readonly });
        if (carried.kind === 'changed') {
          ask(ctx, carried.plan, carried.what);
          return;
        }
        if (carried.kind === 'refused') {
          ctx.app.flash(`${verb}: ${carried.message}`, 'error');
          return;
        }
        const tracker = ctx.store.cancels;
        const { done: out, entry } = carried;
        // The message says what the tracker (the verdict engine on a fresh read, and Claude as omc-top sees
        // it) says, and follows it until it is final: a loop re-armed inside the window turns into "not ended
        // yet"; a ✓ only once omc-top saw what it marks (Claude stopped, or was not in a turn).
        // Said with every later message too: the cancel on disk happened, only other omc-tops were not told.
        let unrecorded = '';
        let lastSaid: [string, 'success' | 'info' | 'error'] | null = null;
        const say = (text: string, tone: 'success' | 'info' | 'error') => {
          lastSaid = [text, tone];
          const moved = out.movedOn ? `; ${movedOnText(out.movedOn)}` : '';
          ctx.app.flash(`${text}${moved}${unrecorded}`, tone);
        };
        void tracker.recorded(out).then((why) => {
          if (why === null) return;
          unrecorded = `; ${unrecordedText(why)}`;
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
