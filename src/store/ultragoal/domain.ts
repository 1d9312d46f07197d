/**
 * The ultragoal domain (`store.ultragoal`): every plan under `ultragoal/` —
 * the legacy `goals.json` + `ledger.jsonl`, and `plans/<planId>/` — followed
 * by the tree watcher: goals.json by the last-good rule (OMC writes it with a
 * plain writeFile), the ledger incrementally (its last 64 KB first). Which
 * plan a session works on is OMC's own resolution: the legacy plan when it
 * exists, else the only plan; with several plans nothing records which one.
 */
import { LastGoodFile } from '../../io/last-good.js';
import { LogTail } from '../../io/log-tail.js';
import { listDirSync, parseJsonText } from '../../io/safe-fs/index.js';
import type { Domain, Problem, WatchEvent } from '../types.js';
import { lastEvents, parseGoals, planProgress, type GoalsFile, type PlanProgress } from './plans.js';

const PLAN_ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$/;
const PLAN_FILE = /^ultragoal\/(?:plans\/([a-zA-Z0-9][a-zA-Z0-9._-]{0,127})\/)?(goals\.json|ledger\.jsonl)$/;
const KEEP_LEDGER_LINES = 300;
export const MAX_PLANS = 50;

interface Plan {
  id: string | null;
  goals: LastGoodFile<GoalsFile>;
  ledger: LogTail;
  lines: string[];
  progress: PlanProgress | null;
}

const base = (id: string | null) => (id === null ? 'ultragoal' : `ultragoal/plans/${id}`);

export class UltragoalDomain implements Domain {
  readonly name = 'ultragoal';
  private plans = new Map<string, Plan>();
  private listeners = new Set<() => void>();
  private list: PlanProgress[] = [];
  private problemList: Problem[] = [];
  version = 0;

  constructor(private readonly opts: { root: string }) {}

  wants(rel: string, isDir: boolean | undefined): boolean {
    if (isDir !== false && (rel === 'ultragoal' || rel === 'ultragoal/plans')) return true;
    if (isDir !== false && /^ultragoal\/plans\/[^/]+$/.test(rel)) return true;
    return PLAN_FILE.test(rel);
  }

  private plan(id: string | null): Plan {
    const key = id ?? '';
    let p = this.plans.get(key);
    if (!p) {
      const dir = base(id);
      p = {
        id,
        goals: new LastGoodFile(this.opts.root, `${dir}/goals.json`, {
          parse: (r) => {
            const j = parseJsonText(r.text, r);
            return j.ok ? parseGoals(j.value) : { ok: false, problem: j.message };
          },
        }),
        ledger: new LogTail(this.opts.root, `${dir}/ledger.jsonl`, 256 * 1024, { firstBytes: 64 * 1024 }),
        lines: [],
        progress: null,
      };
      this.plans.set(key, p);
    }
    return p;
  }

  private readPlan(p: Plan, edge: 'leading' | 'trailing' | 'scan', onlyIfChanged: boolean): void {
    if (onlyIfChanged) p.goals.readIfChanged(edge);
    else p.goals.read(edge);
    const t = p.ledger.poll();
    if (t.kind === 'missing') p.lines = [];
    else if (t.kind === 'lines')
      p.lines = [...(t.reset ? [] : p.lines), ...t.lines.map((l) => l.text)].slice(-KEEP_LEDGER_LINES);
    const g = p.goals.value;
    p.progress = g ? planProgress(p.id, `${base(p.id)}/goals.json`, g, lastEvents(p.lines)) : null;
  }

  scan(): void {
    const ids: (string | null)[] = [null];
    const dirs = listDirSync(this.opts.root, 'ultragoal/plans');
    if (dirs.ok)
      for (const d of dirs.entries)
        if (d.kind === 'dir' && !d.invalidName && PLAN_ID.test(d.name) && ids.length <= MAX_PLANS) ids.push(d.name);
    const keep = new Set(ids.map((i) => i ?? ''));
    for (const k of [...this.plans.keys()]) if (!keep.has(k)) this.plans.delete(k);
    for (const id of ids) this.readPlan(this.plan(id), 'scan', true);
    this.publish();
  }

  refresh(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    let relist = false;
    const touched = new Set<string | null>();
    for (const e of events) {
      if (e.rel === 'ultragoal' || e.rel === 'ultragoal/plans' || /^ultragoal\/plans\/[^/]+$/.test(e.rel))
        relist = true;
      const m = PLAN_FILE.exec(e.rel);
      if (m) touched.add(m[1] ?? null);
    }
    if (relist) return this.scan();
    for (const id of touched) this.readPlan(this.plan(id), edge, false);
    if (touched.size > 0) this.publish();
  }

  private publish(): void {
    const list = [...this.plans.values()].flatMap((p) => (p.progress ? [p.progress] : []));
    list.sort(
      (a, b) => Number(a.planId !== null) - Number(b.planId !== null) || (b.updatedMs ?? 0) - (a.updatedMs ?? 0),
    );
    const problems: Problem[] = [];
    for (const p of this.plans.values()) {
      const why = p.goals.problem;
      if (why) problems.push({ path: `${base(p.id)}/goals.json`, message: why, severity: 'warning' });
      for (const message of p.goals.value?.warnings ?? [])
        problems.push({ path: `${base(p.id)}/goals.json`, message, severity: 'warning' });
    }
    const key = JSON.stringify([list, problems]);
    if (key === JSON.stringify([this.list, this.problemList])) return;
    this.list = list;
    this.problemList = problems;
    this.version += 1;
    for (const l of this.listeners) l();
  }

  /** Every plan, the legacy one first, then the most recently updated. */
  plansNow = (): readonly PlanProgress[] => this.list;

  /**
   * The plan OMC resolves without --plan-id: the legacy plan when it exists, else the only plan; null with
   * none or with several (then `plansNow()` lists them and nothing says which is the session's).
   */
  resolved(): PlanProgress | null {
    const legacy = this.list.find((p) => p.planId === null);
    if (legacy) return legacy;
    return this.list.length === 1 ? (this.list[0] as PlanProgress) : null;
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  problems(): readonly Problem[] {
    return this.problemList;
  }

  report(): Record<string, unknown> {
    return {
      ultragoal: {
        resolved_plan: this.resolved()?.planId ?? (this.resolved() ? 'legacy' : null),
        plans: this.list.map((p) => ({
          plan: p.planId ?? 'legacy',
          path: p.rel,
          complete: p.complete,
          total: p.total,
          truncated: p.truncated,
          failed: p.failed,
          review_blocked: p.reviewBlocked,
          pending: p.pending,
          current: p.current && {
            id: p.current.id,
            title: p.current.title,
            status: p.current.status,
            attempt: p.current.attempt,
          },
          blocked: p.blocked,
          done: p.done,
          // The first KEEP_GOALS goals (`truncated` says when there are more; the counts are over every one).
          goals: p.goals.map((g) => ({ id: g.id, title: g.title, status: g.status, attempt: g.attempt })),
        })),
      },
    };
  }
}
