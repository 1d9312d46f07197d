/**
 * Answering an inbox item where it is listed: y / n / A on a permission request (the answer file the hook is
 * waiting for), y / n on an OMC gate (OMC's own CLI, else the decision file; asked first, a gate is a person's
 * decision). Each says what was done at once and what was then observed: the hook's receipt (it replied to
 * Claude), OMC taking the decision (the gate left the pending list). Never a ✓ before that.
 */
import { answerPermission } from '../store/permissions/answer.js';
import type { PermissionDecision } from '../store/permissions/protocol.js';
import type { PermissionRequestView } from '../store/permissions/model.js';
import { decideGate, findOmcCli } from '../store/graph/decide.js';
import type { GateDecision } from '../store/graph/files.js';
import type { OmcStore } from '../store/store.js';
import type { AppActions } from '../kit/pane.js';
import type { AnswerItem } from '../feeds/answers/items.js';
import { runProgressLines } from '../feeds/answers/items.js';

/** How long an answer's outcome is watched for (the hook's wait is at most 10 min; OMC polls every 2 s). */
const WATCH_MS = 11 * 60_000;

function watch(subscribe: (l: () => void) => () => void, check: () => boolean): void {
  let stop: () => void = () => undefined;
  const timer = setTimeout(() => stop(), WATCH_MS);
  timer.unref?.();
  const run = () => {
    if (!check()) return;
    stop();
    clearTimeout(timer);
  };
  stop = subscribe(run);
  run();
}

const RECEIPT_WORDS: Record<string, string> = {
  allow: 'the hook told Claude: allow ✓',
  always: 'the hook told Claude: always allow this command ✓',
  deny: 'the hook told Claude: deny ✓',
};

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
  const r = answerPermission(store.permissions.stateDir, req, decision, {
    claudeEnv: { CLAUDE_CONFIG_DIR: store.claude.getSnapshot().configDir },
  });
  if (!r.ok) {
    app.flash(`${req.toolName} ${req.subject}: ${r.message}`, 'error');
    store.permissions.reread();
    return;
  }
  app.flash(r.message, 'info');
  store.permissions.reread();
  watch(store.permissions.subscribe, () => {
    const rec = store.permissions.getSnapshot().receipts.get(req.id);
    if (!rec) return false;
    const ok = rec.outcome === decision;
    app.flash(
      ok
        ? `${req.toolName} ${req.subject}: ${RECEIPT_WORDS[decision]}`
        : `${req.toolName} ${req.subject}: the hook did not use the answer (${rec.detail})`,
      ok ? 'success' : 'error',
    );
    return true;
  });
}

export function decideGateItem(
  store: OmcStore,
  app: AppActions,
  item: Extract<AnswerItem, { kind: 'gate' }>,
  decision: GateDecision,
  /** Where to go once the dialog closes either way (back to the list the gate was picked from). */
  back: () => void = () => undefined,
): void {
  const g = item.gate;
  const cli = findOmcCli(store.omc);
  const verb = decision === 'approved' ? 'Approve' : 'Deny';
  app.confirm({
    id: 'gate-decision',
    title: `${verb} OMC gate ${g.nodeId} of run ${g.runId}?`,
    lines: [
      g.prompt,
      '',
      ...(item.run ? runProgressLines(item.run) : []),
      '',
      cli
        ? `With OMC's own CLI: omc graph approvals decide ${g.runId} ${g.activationId} ${decision} --by omc-top`
        : `OMC's CLI is not installed here: omc-top writes the decision file OMC reads (approvals/decisions/${g.activationId}.json).`,
      decision === 'denied'
        ? 'A denied gate ends the run as failed: nothing after it runs.'
        : 'The run goes on past the gate.',
    ],
    prompt: `y: ${decision === 'approved' ? 'approve' : 'deny'}   n/Esc: not now`,
    onDecline: back,
    onConfirm: () => {
      back();
      app.run('gate', async () => {
        const r = await decideGate({
          root: store.root,
          runId: g.runId,
          activationId: g.activationId,
          decision,
          omcCli: cli,
        });
        if (!r.ok) throw new Error(r.message);
        app.flash(r.message, 'info');
        store.graph.reread(g.runId);
        watch(store.graph.subscribe, () => {
          const snap = store.graph.getSnapshot();
          if (snap.gates.some((x) => x.runId === g.runId && x.activationId === g.activationId)) return false;
          const run = snap.runs.find((x) => x.runId === g.runId);
          const t = run?.lastTransitions.find((x) => x.activationId === g.activationId);
          if (t?.outcome === decision)
            app.flash(
              `OMC took the decision ✓: gate ${g.nodeId} of run ${g.runId} ${decision} (its journal says so)`,
              'success',
            );
          else
            app.flash(
              `gate ${g.nodeId} of run ${g.runId} is no longer pending${t ? `; OMC recorded ${t.outcome}` : ''}`,
              t ? 'error' : 'info',
            );
          return true;
        });
      });
    },
  });
}
