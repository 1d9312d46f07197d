/**
 * Answering an inbox item where it is listed: y / n / A on a permission request (the answer file the hook is
 * waiting for), y / n on an OMC gate (OMC's own CLI, else the decision file; asked first, a gate is a person's
 * decision). The writing and the following are feeds/answers/answer.ts, shared with the `serve` page; here they
 * report through the app's flash line. Never a ✓ before the outcome was observed.
 */
import { decideGateAndFollow, planGate, sendPermissionAnswer } from '../feeds/answers/answer.js';
import type { PermissionDecision } from '../store/permissions/protocol.js';
import type { PermissionRequestView } from '../store/permissions/model.js';
import type { GateDecision } from '../store/graph/files.js';
import type { OmcStore } from '../store/store.js';
import type { AppActions } from '../kit/pane.js';
import type { AnswerItem } from '../feeds/answers/items.js';

export function answerPermissionItem(
  store: OmcStore,
  app: AppActions,
  item: Extract<AnswerItem, { kind: 'permission' }>,
  decision: PermissionDecision,
): void {
  answerPermissionRequest(store, app, item.request, decision);
}

/** Answers one request: "sent" at once, then what the hook's receipt says it told Claude. */
export function answerPermissionRequest(
  store: OmcStore,
  app: AppActions,
  req: PermissionRequestView,
  decision: PermissionDecision,
): void {
  sendPermissionAnswer(store, req, decision, (text, kind) => app.flash(text, kind));
}

export function decideGateItem(
  store: OmcStore,
  app: AppActions,
  item: Extract<AnswerItem, { kind: 'gate' }>,
  decision: GateDecision,
  /** Where to go once the dialog closes either way (back to the list the gate was picked from). */
  back: () => void = () => undefined,
): void {
  const plan = planGate(store, item.gate, item.run, decision, { yes: 'y', no: 'n/Esc' });
  app.confirm({
    id: 'gate-decision',
    title: plan.title,
    lines: plan.lines,
    prompt: plan.prompt,
    onDecline: back,
    onConfirm: () => {
      back();
      app.run('gate', async () => {
        const r = await decideGateAndFollow(store, item.gate, decision, plan, (text, kind) => app.flash(text, kind));
        if (!r.ok) throw new Error(r.message);
      });
    },
  });
}
