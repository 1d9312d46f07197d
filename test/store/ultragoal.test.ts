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
});
