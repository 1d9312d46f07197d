/**
 * The page's actions, with the TUI's confirmation and verification: cancel
 * or pause is planned first (the page shows what would be done, as the TUI's
 * dialog does), then executed only for that plan (a plan that changed in
 * between is refused and shown again), and verified on disk by executeCancel.
 */
import crypto from 'node:crypto';
import { executeCancel } from '../../store/cancel/execute.js';
import { describePlan } from '../../store/cancel/describe.js';
import { planCancel, type CancelPlan } from '../../store/cancel/plan.js';
import { isValidSessionId } from '../../store/sessions/omc-rules.js';
import { cleanLine } from '../../io/sanitize.js';
import type { ServeSource } from './source.js';

interface Planned {
  rootId: string;
  plan: CancelPlan;
  at: number;
}

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
    const root = typeof body.root === 'string' ? this.source.root(body.root) : undefined;
    if (!root) return { status: 404, body: { error: 'no such project here' } };
    const acks = root.monitor.acks;
    if (!acks) return { status: 501, body: { error: 'acknowledgements are not kept here' } };
    const asked = new Set(Array.isArray(body.ids) ? body.ids.filter((i): i is string => typeof i === 'string') : []);
    const items = root.monitor.view.getSnapshot().open.filter((n) => asked.has(n.id));
    if (items.length === 0) return { status: 409, body: { error: 'nothing of that needs you now' } };
    await acks.ack(
      items.map((n) => n.id),
      this.now(),
    );
    if (acks.problem) return { status: 500, body: { error: cleanLine(acks.problem) } };
    const what = items.length === 1 ? items[0]?.reason : `${items.length} items`;
    return {
      status: 200,
      body: { message: cleanLine(`acknowledged: ${what} (back in the count only if it arises anew)`) },
    };
  }

  plan(body: Record<string, unknown>): ActionResult {
    if (this.readonly) return { status: 403, body: { error: '--readonly: nothing can be changed' } };
    const root = typeof body.root === 'string' ? this.source.root(body.root) : undefined;
    const session = body.session;
    if (!root) return { status: 404, body: { error: 'no such project here' } };
    if (typeof session !== 'string' || (session !== 'legacy' && !isValidSessionId(session))) {
      return { status: 400, body: { error: 'not a session id' } };
    }
    const pauseOnly = body.pause === true;
    const r = planCancel(
      root.root,
      { sessionId: session === 'legacy' ? null : session, mode: null, pauseOnly },
      this.now(),
    );
    if (!r.ok) return { status: 409, body: { error: cleanLine(r.message) } };
    for (const [id, p] of this.plans) if (this.now() - p.at > PLAN_TTL_MS) this.plans.delete(id);
    const id = crypto.randomBytes(12).toString('base64url');
    this.plans.set(id, { rootId: root.id, plan: r.plan, at: this.now() });
    const c = describePlan(r.plan);
    return {
      status: 200,
      body: { plan: id, title: cleanLine(c.title), lines: c.lines.map(cleanLine), prompt: cleanLine(c.prompt) },
    };
  }

  async confirm(body: Record<string, unknown>): Promise<ActionResult> {
    const id = typeof body.plan === 'string' ? body.plan : '';
    const p = this.plans.get(id);
    if (!p) return { status: 404, body: { error: 'that confirmation expired: ask again' } };
    this.plans.delete(id);
    const root = this.source.root(p.rootId);
    if (!root) return { status: 404, body: { error: 'the project is gone' } };
    const out = await executeCancel(root.root, p.plan, { now: this.now, readonly: this.readonly });
    if (out.kind === 'refused') return { status: 409, body: { error: cleanLine(out.message) } };
    if (out.kind === 'changed')
      return { status: 409, body: { error: cleanLine(`the session changed (${out.what}): ask again`) } };
    return { status: out.ok ? 200 : 500, body: { ok: out.ok, summary: cleanLine(out.summary) } };
  }
}
