/** A `--host` root's id on the page (source.ts: the host's group key). */
const isRemoteId = (id: unknown): id is string => typeof id === 'string' && id.startsWith('remote|');
const NOT_ANSWERED_REMOTELY: ActionResult = {
  status: 501,
  body: {
    error:
      "permission prompts and OMC gates of a --host project are answered on that machine (omc-top there: ! lists them); this page answers this machine's only",
  },
};

/**
 * The page's actions, with the TUI's confirmation and verification: cancel
 * or pause is planned first (the page shows what would be done, as the TUI's
 * dialog does), then executed only for that plan (a plan that changed in
 * between is refused and shown again), verified on disk by executeCancel, and
 * followed and recorded as the TUI's is (feeds/answers/cancel-plan.ts carryOutCancel).
 * Answers go through the TUI's own code (feeds/answers/answer.ts): a
 * permission request is answered at once, as the TUI's y / n / A, bound to
 * the request and digest the page was shown; an OMC gate is planned, then
 * decided on confirm. What follows (the hook's receipt, OMC's journal) lands
 * in the root's outcome lines, which the page shows.
 */
import crypto from 'node:crypto';
import type { CancelPlan } from '../../store/cancel/plan.js';
import { cancelDialog, carryOutCancel, planCancelFor } from '../../feeds/answers/cancel-plan.js';
import { unrecordedText } from '../../store/cancel/words.js';
import { cancelTargetOf, parseCancelTarget } from '../../store/cancel/target.js';
import { cleanLine } from '../../io/sanitize.js';
import { decideGateAndFollow, planGate, sendPermissionAnswer } from '../../feeds/answers/answer.js';
import { answerInputOf } from '../../feeds/answers/items.js';
import type { PermissionDecision } from '../../store/permissions/protocol.js';
import type { GateDecision } from '../../store/graph/files.js';
import type { GateView } from '../../store/graph/model.js';
import type { ServeRoot, ServeSource } from './source.js';
import type { FleetRow } from '../../fleet/model.js';

type Planned =
  | { kind: 'cancel'; rootId: string; plan: CancelPlan; at: number }
  | { kind: 'remote-cancel'; rootId: string; row: FleetRow; pause: boolean; at: number }
  | { kind: 'gate'; rootId: string; gate: GateView; decision: GateDecision; cli: string | null; at: number };

const PERMISSION_DECISIONS: readonly PermissionDecision[] = ['allow', 'deny', 'always'];
const GATE_DECISIONS: readonly GateDecision[] = ['approved', 'denied'];
const READONLY: ActionResult = { status: 403, body: { error: '--readonly: nothing can be changed' } };
const NO_ROOT: ActionResult = { status: 404, body: { error: 'no such project here' } };

const PLAN_TTL_MS = 120_000;

export type ActionResult = { status: number; body: Record<string, unknown> };

export class Actions {
  private readonly plans = new Map<string, Planned>();

  constructor(
    private readonly source: ServeSource,
    private readonly readonly: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** Acknowledges items of one root: only ids that are open there now (no arbitrary strings reach the file). */
  async ack(body: Record<string, unknown>): Promise<ActionResult> {
    if (this.readonly) return { status: 403, body: { error: '--readonly: nothing can be changed' } };
    if (isRemoteId(body.root)) return this.ackRemote(body.root, body);
    const root = typeof body.root === 'string' ? this.source.root(body.root) : undefined;
    if (!root) return { status: 404, body: { error: 'no such project here' } };
    const acks = root.monitor.acks;
    if (!acks) return { status: 501, body: { error: 'acknowledgements are not kept here' } };
    const asked = new Set(Array.isArray(body.ids) ? body.ids.filter((i): i is string => typeof i === 'string') : []);
    const items = root.monitor.view.getSnapshot().open.filter((n) => asked.has(n.id));
    if (items.length === 0) return { status: 409, body: { error: 'nothing of that needs you now' } };
    try {
      await acks.ack(
        items.map((n) => n.id),
        this.now(),
      );
    } catch (e) {
      // Not kept (the state directory read-only, full, under a file): said to the page, as in the TUI, never a
      // rejection left to end the server.
      return { status: 500, body: { error: cleanLine((e as Error).message) } };
    }
    if (acks.problem) return { status: 500, body: { error: cleanLine(acks.problem) } };
    const what = items.length === 1 ? items[0]?.reason : `${items.length} items`;
    return {
      status: 200,
      body: { message: cleanLine(`acknowledged: ${what} (back in the count only if it arises anew)`) },
    };
  }

  /**
   * A `--host` item: acknowledged on its machine (`omc-top ack` there over ssh: the acknowledgement lives in that
   * machine's file, which every omc-top there reads), only for an item that host's stream lists as open now.
   */
  private async ackRemote(rootId: string, body: Record<string, unknown>): Promise<ActionResult> {
    const found = this.remoteHost(rootId);
    if (!found) return NO_ROOT;
    const asked = new Set(Array.isArray(body.ids) ? body.ids.filter((i): i is string => typeof i === 'string') : []);
    const items = found.host.needs().open.filter((n) => asked.has(n.id));
    if (items.length === 0) return { status: 409, body: { error: 'nothing of that needs you there now' } };
    const r = await found.host.ack(items.map((n) => n.id));
    return r.ok
      ? { status: 200, body: { message: cleanLine(r.text) } }
      : { status: 409, body: { error: cleanLine(r.text) } };
  }

  private remoteHost(rootId: string) {
    const remote = this.source.remote;
    const host = remote?.hostsList.find((h) => `remote|${h.spec.label}` === rootId);
    return remote && host ? { remote, host } : null;
  }

  /** Cancel or pause of a `--host` session: the fleet view's c / p (the same words, the same ssh command). */
  private planRemote(rootId: string, body: Record<string, unknown>): ActionResult {
    const found = this.remoteHost(rootId);
    if (!found) return NO_ROOT;
    // The row as a cancel names it (row.target): "legacy" the session-less state, "session:legacy" a directory.
    const session = body.session;
    if (typeof session !== 'string' || !parseCancelTarget(session))
      return { status: 400, body: { error: 'not a session id' } };
    const row = found.host.group().rows.find((r) => cancelTargetOf(r) === session);
    if (!row) return { status: 409, body: { error: `no session ${session} on ${found.host.spec.label} now` } };
    const pause = body.pause === true;
    // The fleet view's refusal, in its words: no OMC loop there, or a cancel of the row still under way.
    const refused = found.host.cancelRefusal(row, pause);
    if (refused !== null) return { status: 409, body: { error: refused } };
    if (found.host.phase !== 'live')
      return { status: 409, body: { error: `${found.host.spec.label} is not connected now: ask again once it is` } };
    return this.keep(
      { kind: 'remote-cancel', rootId, row, pause, at: this.now() },
      {
        title: `${pause ? 'Pause' : 'Cancel'} ${session} on ${row.host}?`,
        lines: found.remote.describeCancel(row, pause),
        prompt: 'Confirm runs it there; omc-top there checks that it took.',
      },
    );
  }

  plan(body: Record<string, unknown>): ActionResult {
    if (this.readonly) return READONLY;
    if (isRemoteId(body.root)) return this.planRemote(body.root, body);
    const root = typeof body.root === 'string' ? this.source.root(body.root) : undefined;
    if (!root) return { status: 404, body: { error: 'no such project here' } };
    // As omc-top cancel names it: "legacy" the session-less state, "session:legacy" a directory named so.
    const target = typeof body.session === 'string' ? parseCancelTarget(body.session) : null;
    if (!target) return { status: 400, body: { error: 'not a session id' } };
    const pauseOnly = body.pause === true;
    // The TUI's plan and words: the session's own OMC refuses a pause it never reads and judges the warnings.
    const r = planCancelFor(
      root.store,
      { sessionId: target.sessionId, mode: null, pauseOnly },
      this.now(),
      'use Cancel to end the loop',
    );
    if (!r.ok) return { status: 409, body: { error: cleanLine(r.message) } };
    return this.keep(
      { kind: 'cancel', rootId: root.id, plan: r.plan, at: this.now() },
      cancelDialog(root.store, r.plan),
    );
  }

  /** Keeps a plan for its confirmation and returns what the page shows before it. */
  private keep(p: Planned, c: { title: string; lines: string[]; prompt: string }): ActionResult {
    for (const [id, old] of this.plans) if (this.now() - old.at > PLAN_TTL_MS) this.plans.delete(id);
    const id = crypto.randomBytes(12).toString('base64url');
    this.plans.set(id, p);
    return {
      status: 200,
      body: { plan: id, title: cleanLine(c.title), lines: c.lines.map(cleanLine), prompt: cleanLine(c.prompt) },
    };
  }

  private rootOf(body: Record<string, unknown>): ServeRoot | undefined {
    return typeof body.root === 'string' ? this.source.root(body.root) : undefined;
  }

  /**
   * Answers a permission request, as the TUI's y / n / A: only the request the page was shown (its id and
   * digest) while it is still listed; the answer file is then written and checked by the TUI's own code.
   */
  answerPermission(body: Record<string, unknown>): ActionResult {
    if (this.readonly) return READONLY;
    if (isRemoteId(body.root)) return NOT_ANSWERED_REMOTELY;
    const root = this.rootOf(body);
    if (!root) return NO_ROOT;
    const decision = PERMISSION_DECISIONS.find((d) => d === body.decision);
    if (!decision) return { status: 400, body: { error: 'decision: allow, deny or always' } };
    const req = root.store.permissions.getSnapshot().requests.find((r) => r.id === body.request);
    if (!req)
      return { status: 409, body: { error: 'that request no longer waits here (answered, or its wait ended)' } };
    if (req.file.digest !== body.digest)
      return { status: 409, body: { error: 'that request changed since the page showed it: look again' } };
    if (decision === 'always' && req.alwaysRefused) return { status: 400, body: { error: req.alwaysRefused } };
    const r = sendPermissionAnswer(root.store, req, decision, (text, kind) => root.outcomes.add(text, kind));
    return r.ok
      ? { status: 200, body: { message: cleanLine(r.message) } }
      : { status: 409, body: { error: cleanLine(r.message) } };
  }

  /** Plans an OMC gate decision: the TUI's dialog words; nothing is written before the confirmation. */
  planGate(body: Record<string, unknown>): ActionResult {
    if (this.readonly) return READONLY;
    if (isRemoteId(body.root)) return NOT_ANSWERED_REMOTELY;
    const root = this.rootOf(body);
    if (!root) return NO_ROOT;
    const decision = GATE_DECISIONS.find((d) => d === body.decision);
    if (!decision) return { status: 400, body: { error: 'decision: approved or denied' } };
    const input = answerInputOf(root.store);
    const gate = input.gates.find((g) => g.runId === body.run && g.activationId === body.activation);
    if (!gate)
      return { status: 409, body: { error: 'that gate no longer waits (decided, timed out, or the run ended)' } };
    const run = input.runs.find((r) => r.runId === gate.runId) ?? null;
    const plan = planGate(root.store, gate, run, decision, { yes: 'Confirm', no: 'Back' });
    return this.keep({ kind: 'gate', rootId: root.id, gate, decision, cli: plan.cli, at: this.now() }, plan);
  }

  async confirm(body: Record<string, unknown>): Promise<ActionResult> {
    const id = typeof body.plan === 'string' ? body.plan : '';
    const p = this.plans.get(id);
    if (!p) return { status: 404, body: { error: 'that confirmation expired: ask again' } };
    this.plans.delete(id);
    if (this.now() - p.at > PLAN_TTL_MS)
      return { status: 404, body: { error: 'that confirmation expired: ask again' } };
    if (p.kind === 'remote-cancel') {
      const found = this.remoteHost(p.rootId);
      if (!found) return { status: 404, body: { error: 'that host is gone' } };
      // omc-top cancel there plans, executes and verifies on that machine's disk; its exit code is the verdict.
      const r = await found.remote.cancel(p.row, p.pause);
      return { status: r.ok ? 200 : 409, body: { ok: r.ok, summary: cleanLine(r.text) } };
    }
    const root = this.source.root(p.rootId);
    if (!root) return { status: 404, body: { error: 'the project is gone' } };
    if (p.kind === 'gate') {
      const report = (text: string, kind: 'info' | 'success' | 'error') => root.outcomes.add(text, kind);
      const r = await decideGateAndFollow(root.store, p.gate, p.decision, p, report);
      if (!r.ok) report(r.message, 'error');
      return r.ok
        ? { status: 200, body: { ok: true, summary: cleanLine(r.message) } }
        : { status: 409, body: { error: cleanLine(r.message) } };
    }
    // As the TUI's: this process's tracker follows it and records it for every other omc-top (and its settlement).
    const out = await carryOutCancel(root.store, p.plan, { now: this.now, readonly: this.readonly });
    if (out.kind === 'refused') return { status: 409, body: { error: cleanLine(out.message) } };
    if (out.kind === 'changed')
      return { status: 409, body: { error: cleanLine(`the session changed (${out.what}): ask again`) } };
    const why = await root.store.cancels.recorded(out.done);
    const summary = why === null ? out.done.summary : `${out.done.summary}; ${unrecordedText(why)}`;
    return { status: out.done.ok ? 200 : 500, body: { ok: out.done.ok, summary: cleanLine(summary) } };
  }
}
