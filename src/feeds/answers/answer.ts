/**
 * Answering an item, whoever asks (the TUI's keys, the `serve` page's buttons): one code path that writes the
 * answer and then follows what is observed. A permission answer says "sent" at once and ✓ only once the hook's
 * receipt says it replied to Claude with that answer; a gate is planned first (the words a person confirms),
 * decided through OMC's CLI or a validated decision file, and ✓ only once OMC's journal records the decision.
 * The caller gives a `report` for the words: a flash in the TUI, the page's outcome lines in `serve`.
 */
import { answerPermission } from '../../store/permissions/answer.js';
import type { PermissionDecision } from '../../store/permissions/protocol.js';
import type { PermissionRequestView, ReceiptView } from '../../store/permissions/model.js';
import { claudeGoneWhy } from '../../store/permissions/liveness.js';
import { askerRegistry } from '../../store/permissions/asker-registry.js';
import { answeredFirst, handedThenGone, lostWords, toldClaude } from '../../store/permissions/words.js';
import { runningStartIdentity } from '../../io/process-start.js';
import { decideGate, findOmcCli, type DecideResult } from '../../store/graph/decide.js';
import type { GateDecision } from '../../store/graph/files.js';
import type { GateView, GraphRunView } from '../../store/graph/model.js';
import type { OmcStore } from '../../store/store.js';
import { runProgressLines } from './items.js';

export type ReportKind = 'info' | 'success' | 'error';
export type Report = (text: string, kind: ReportKind) => void;

/** How long an answer's outcome is watched for (the hook's wait is at most 10 min; OMC polls every 2 s). */
const WATCH_MS = 11 * 60_000;

function watch(subscribe: (l: () => void) => () => void, check: () => boolean): void {
  let stop: () => void = () => undefined;
  let done = false;
  const timer = setTimeout(() => stop(), WATCH_MS);
  timer.unref?.();
  const run = () => {
    if (done || !check()) return;
    done = true;
    stop();
    clearTimeout(timer);
  };
  stop = subscribe(run);
  run();
}

/**
 * What the hook's receipt says became of this answer, in the shared words (store/permissions/words.ts): ✓ only when
 * it handed this answer to a Claude still there to take it. A receipt with the answer means the reply left the hook
 * whole (it writes the receipt after the write completed); a Claude gone by now took it or not, nobody can tell:
 * "handed to Claude; Claude exited right after" (or "has exited since" for a receipt read late), never ✓ and never
 * "lost" (the answer did leave omc-top's side).
 */
export function receiptWords(
  decision: PermissionDecision,
  rec: ReceiptView,
  claudeNowGone: string | null,
  nowMs = Date.now(),
): { text: string; kind: ReportKind } {
  if (rec.outcome === decision)
    return claudeNowGone
      ? { text: handedThenGone(decision, claudeNowGone, nowMs - rec.atMs), kind: 'info' }
      : { text: toldClaude(decision), kind: 'success' };
  if (rec.outcome === 'allow' || rec.outcome === 'deny' || rec.outcome === 'always')
    return { text: `not used: ${answeredFirst(rec.outcome, true)}`, kind: 'error' };
  if (rec.outcome === 'claude-gone') return { text: lostWords(rec.detail), kind: 'error' };
  return { text: `the hook did not use the answer: ${rec.detail}`, kind: 'error' };
}

export type SendResult = { ok: true; message: string } | { ok: false; message: string };

/**
 * Writes the answer the hook waits for (bound to the request's nonce and digest), says so through `report`, and
 * follows the hook's receipt: ✓ when it replied to Claude with this answer, an error when it did something else.
 */
export function sendPermissionAnswer(
  store: OmcStore,
  req: PermissionRequestView,
  decision: PermissionDecision,
  report: Report,
): SendResult {
  const claudeEnv = { CLAUDE_CONFIG_DIR: store.claude.getSnapshot().configDir };
  const r = answerPermission(store.permissions.stateDir, req, decision, { claudeEnv });
  store.permissions.reread();
  if (!r.ok) {
    const message = `${req.toolName} ${req.subject}: ${r.message}`;
    report(message, 'error');
    return { ok: false, message };
  }
  report(r.message, 'info');
  watch(store.permissions.subscribe, () => {
    const rec = store.permissions.getSnapshot().receipts.get(req.id);
    if (!rec) return false;
    // A reply handed to a Claude that is gone now may never have been read: the receipt alone is no ✓.
    const gone =
      rec.outcome === decision
        ? claudeGoneWhy(askerRegistry(req.file, claudeEnv), req.file, runningStartIdentity)
        : null;
    const w = receiptWords(decision, rec, gone);
    report(`${req.toolName} ${req.subject}: ${w.text}`, w.kind);
    return true;
  });
  return { ok: true, message: r.message };
}

/** What a person confirms before a gate is decided: the words of the TUI's dialog, and how it will be written. */
export interface GatePlan {
  title: string;
  lines: string[];
  prompt: string;
  /** OMC's CLI where installed (it writes the decision), else null (omc-top writes the decision file). */
  cli: string | null;
}

export function planGate(
  store: OmcStore,
  gate: GateView,
  run: GraphRunView | null,
  decision: GateDecision,
  /** How the confirming answer is named on this surface (a key in the TUI, a button on the page). */
  choices: { yes: string; no: string },
): GatePlan {
  const cli = findOmcCli(store.omc);
  const verb = decision === 'approved' ? 'Approve' : 'Deny';
  return {
    title: `${verb} OMC gate ${gate.nodeId} of run ${gate.runId}?`,
    lines: [
      gate.prompt,
      '',
      ...(run ? runProgressLines(run) : []),
      '',
      cli
        ? `With OMC's own CLI: omc graph approvals decide ${gate.runId} ${gate.activationId} ${decision} --by omc-top`
        : `OMC's CLI is not installed here: omc-top writes the decision file OMC reads (approvals/decisions/${gate.activationId}.json).`,
      ...(run?.owner?.alive === 'alive'
        ? [
            decision === 'denied'
              ? 'A denied gate ends the run as failed: nothing after it runs.'
              : 'The run goes on past the gate.',
          ]
        : [
            // Nothing reads a decision of a run nobody runs: say when it takes effect, not that it does now.
            `Nobody runs this run now (no live owner): the decision waits on disk until the run is resumed; then ${decision === 'denied' ? 'it ends as failed' : 'it goes on past the gate'}.`,
          ]),
    ],
    prompt: `${choices.yes}: ${decision === 'approved' ? 'approve' : 'deny'}   ${choices.no}: not now`,
    cli,
  };
}

/**
 * Decides a planned gate (decideGate checks it is still pending and undecided, and reads back what landed), says
 * what was written, then follows the run: ✓ once the gate left the pending list and OMC's journal records it.
 */
export async function decideGateAndFollow(
  store: OmcStore,
  gate: Pick<GateView, 'runId' | 'activationId' | 'nodeId'>,
  decision: GateDecision,
  plan: Pick<GatePlan, 'cli'>,
  report: Report,
): Promise<DecideResult> {
  const g = gate;
  const run = store.graph.getSnapshot().runs.find((x) => x.runId === g.runId);
  const r = await decideGate({
    root: store.root,
    runId: g.runId,
    activationId: g.activationId,
    decision,
    omcCli: plan.cli,
    ownerLive: run?.owner?.alive === 'alive',
  });
  if (!r.ok) return r;
  report(r.message, 'info');
  store.graph.reread(g.runId);
  watch(store.graph.subscribe, () => {
    const snap = store.graph.getSnapshot();
    if (snap.gates.some((x) => x.runId === g.runId && x.activationId === g.activationId)) return false;
    const run = snap.runs.find((x) => x.runId === g.runId);
    const t = run?.lastTransitions.find((x) => x.activationId === g.activationId);
    if (t?.outcome === decision)
      report(
        // No mark in the words: the surface puts its one ✓ in front of a success (the decision itself says which).
        `OMC took the decision: gate ${g.nodeId} of run ${g.runId} ${decision} (its journal says so)`,
        'success',
      );
    else
      report(
        `gate ${g.nodeId} of run ${g.runId} is no longer pending${t ? `; OMC recorded ${t.outcome}` : ''}`,
        t ? 'error' : 'info',
      );
    return true;
  });
  return r;
}
