/**
 * Ultragoal plans as progress (issue 26), on `.omc/ultragoal/` trees written by OMC 5.5.0's own
 * `omc ultragoal` CLI (test/fixtures/omc-5.5-cost/ultragoal), compared with what OMC's own readers
 * conclude from the same files (readUltragoalPlan, summarizeUltragoalPlan, isUltragoalDone,
 * resolveActivePlanId).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UltragoalDomain } from '../../src/store/ultragoal/domain.js';
import { OMC55, importOmc } from '../helpers/omc-packages.mjs';
import { waitFor } from '../helpers/fixtures.js';
import { OmcStore } from '../../src/store/store.js';

const FIX = path.resolve(__dirname, '../fixtures/omc-5.5-cost/ultragoal');
let project: string;
beforeEach(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-ultragoal-'));
  // OMC resolves its root from the git top level (getOmcRoot).
  execFileSync('git', ['init', '-q', project]);
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

const put = (step: string) => {
  fs.rmSync(path.join(project, '.omc', 'ultragoal'), { recursive: true, force: true });
  fs.mkdirSync(path.join(project, '.omc'), { recursive: true });
  fs.cpSync(path.join(FIX, step), path.join(project, '.omc', 'ultragoal'), { recursive: true });
};
const scan = () => {
  const d = new UltragoalDomain({ root: path.join(project, '.omc') });
  d.scan();
  return d;
};

describe('ultragoal plans', () => {
  it.each(['02-start-G001', '12-review-blockers-G002', '17-next-when-done'])(
    '%s (legacy layout): counts, current goal and done exactly as OMC reads the plan',
    async (step) => {
      put(step);
      const art = await importOmc(OMC55, 'dist/ultragoal/artifacts.js');
      const plan = await art.readUltragoalPlan(project);
      const sum = art.summarizeUltragoalPlan(plan);
      const p = scan().resolved();
      expect(p).toMatchObject({
        planId: null,
        total: sum.total,
        complete: sum.complete,
        failed: sum.failed,
        reviewBlocked: sum.reviewBlocked,
        pending: sum.pending,
        done: art.isUltragoalDone(plan),
      });
      const active =
        plan.goals.find((g: { id: string }) => g.id === plan.activeGoalId) ??
        plan.goals.find((g: { status: string }) => g.status === 'in_progress');
      expect(p?.current?.id ?? null).toBe(active?.id ?? null);
    },
  );

  it("the multi-plan layout: the only plan is the session's, its goal blocked by the ledger (not a status)", async () => {
    put('21-plan-blocked');
    const art = await importOmc(OMC55, 'dist/ultragoal/artifacts.js');
    expect(await art.resolveActivePlanId(project)).toBe('api-v2');
    const p = scan().resolved();
    expect(p).toMatchObject({ planId: 'api-v2', complete: 0, total: 2, blocked: 'legacy /goal blocks' });
    expect(p?.current).toMatchObject({ id: 'G001-schema', status: 'in_progress' });
  });

  it('two plans: OMC refuses to pick one, and so does omc-top (both listed)', async () => {
    put('23-plans-ambiguous-status');
    const art = await importOmc(OMC55, 'dist/ultragoal/artifacts.js');
    await expect(art.resolveActivePlanId(project)).rejects.toThrow(/Multiple ultragoal plans/);
    const d = scan();
    expect(d.resolved()).toBeNull();
    expect(
      d
        .plansNow()
        .map((p) => p.planId)
        .sort(),
    ).toEqual(['1796164805257-cleanup-logging', 'api-v2']);
  });

  it('live: a goal completed by OMC shows without a restart; a broken goals.json keeps the last good plan', async () => {
    put('02-start-G001');
    const store = new OmcStore({
      root: path.join(project, '.omc'),
      watch: 'auto',
      projectDir: project,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: path.join(project, 'cfg'), HOME: project } },
    });
    store.start();
    try {
      await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'the watcher' });
      expect(store.ultragoal.resolved()?.complete).toBe(0);
      const next = fs.readFileSync(path.join(FIX, '12-review-blockers-G002', 'goals.json'));
      fs.writeFileSync(path.join(project, '.omc', 'ultragoal', 'goals.json'), next);
      await waitFor(() => store.ultragoal.resolved()?.complete === 2, { what: 'the new goals', timeoutMs: 20_000 });
      fs.writeFileSync(path.join(project, '.omc', 'ultragoal', 'goals.json'), '{"version": 1, "goals": [');
      await waitFor(() => store.ultragoal.problems().length === 1, { what: 'the problem line', timeoutMs: 20_000 });
      expect(store.ultragoal.resolved()?.complete).toBe(2);
    } finally {
      await store.close();
    }
  });

  describe('odd plans (sweep 3, finding 8)', () => {
    const goalsFile = () => path.join(project, '.omc', 'ultragoal', 'goals.json');
    const rewrite = (edit: (g: { goals: Record<string, unknown>[]; activeGoalId?: string }) => void) => {
      const g = JSON.parse(fs.readFileSync(goalsFile(), 'utf8'));
      edit(g);
      fs.writeFileSync(goalsFile(), JSON.stringify(g));
    };
    /** `n` goals shaped like OMC's own, the first `complete` of them complete and the rest in progress. */
    const many = (n: number, complete: number) =>
      rewrite((g) => {
        const base = g.goals[0] as Record<string, unknown>;
        g.goals = Array.from({ length: n }, (_, i) => ({
          ...base,
          id: `G${String(i).padStart(4, '0')}-x`,
          title: `goal ${i}`,
          status: i < complete ? 'complete' : 'in_progress',
        }));
        delete g.activeGoalId;
      });

    it('501 goals, 500 complete and 1 in progress: 500/501, the open goal is current, not done; the list cut is said', async () => {
      put('17-next-when-done');
      many(501, 500);
      const art = await importOmc(OMC55, 'dist/ultragoal/artifacts.js');
      const sum = art.summarizeUltragoalPlan(await art.readUltragoalPlan(project));
      const d = scan();
      const p = d.resolved();
      expect(p).toMatchObject({ total: sum.total, complete: sum.complete, done: false, truncated: true });
      expect(p?.total).toBe(501);
      expect(p?.current?.id).toBe('G0500-x');
      const json = (d.report().ultragoal as { plans: Record<string, unknown>[] }).plans[0];
      expect(json).toMatchObject({
        complete: 500,
        total: 501,
        truncated: true,
        done: false,
        current: { id: 'G0500-x' },
      });
      expect((json?.goals as unknown[]).length).toBe(500);
      expect(d.problems().map((x) => x.message)).toEqual([
        'the plan has 501 goals: only the first 500 are listed (every one is counted)',
      ]);
    });

    it('3,001 goals, 100 complete: 100/3001 (not 100/500)', () => {
      put('17-next-when-done');
      many(3001, 100);
      const p = scan().resolved();
      expect(p).toMatchObject({ complete: 100, total: 3001, done: false, truncated: true });
      expect(p?.current?.id).toBe('G0100-x');
    });

    it('a plan at the cap is not cut and says nothing', () => {
      put('17-next-when-done');
      many(500, 500);
      const d = scan();
      expect(d.resolved()).toMatchObject({ complete: 500, total: 500, done: true, truncated: false });
      expect(d.problems()).toEqual([]);
    });

    it('a dangling activeGoalId and a repeated goal id get a problem line each', () => {
      put('12-review-blockers-G002');
      rewrite((g) => {
        g.activeGoalId = 'G9999-missing';
        g.goals.push({ ...(g.goals[0] as Record<string, unknown>) });
      });
      const d = scan();
      const messages = d.problems().map((x) => `${x.path}: ${x.message}`);
      expect(messages).toEqual([
        expect.stringMatching(
          /^ultragoal\/goals\.json: "activeGoalId" is "G9999-missing", which is no goal of the plan/,
        ),
        expect.stringMatching(/^ultragoal\/goals\.json: goal id "G001-[^"]+" appears more than once/),
      ]);
      expect(d.resolved()?.total).toBe(5);
    });
  });
});
