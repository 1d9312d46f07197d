/**
 * An ultragoal's Stop under OMC 5.5.0 and 4.15.10: besides the state file, the hook's terminal check reads the
 * project's plan, `<omc>/ultragoal/goals.json` (every goal complete or review_blocked, statuses trimmed and
 * lower-cased, or `aggregateCompletion.status` "complete": the hook lets the agent stop). Each tree is judged by the
 * real hook and by omc-top's `--json` (its verdict and the ultragoal row), which must agree; and a running monitor
 * follows the plan as it changes (a goal marked complete ends the enforcement without any state file changing).
 * 4.15.10's hook is run from a checkout (OMC_TOP_OMC_415) or, without one, its recorded answers are used
 * (test/fixtures/omc-4.15.10/stop-ultragoal-plan.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OmcStore } from '../../src/store/store.js';
import { waitFor, writeOmcJson } from '../helpers/fixtures.js';
import {
  hookProject,
  jsonReport,
  HOOK_VERSIONS,
  hookStop,
  projectStore,
  realStop,
  removeHookProjects,
  writeModeState,
} from './stop-hook-live.js';
import type { OmcVersion } from './omc-runs/omc.js';

const SID = '7b7b7b7b-1111-4222-8333-444455556666';
let store: OmcStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
  removeHookProjects();
});

function project(state: Record<string, unknown>, plan: { rel: string; value: unknown } | null) {
  const w = hookProject('ugplan');
  writeModeState(w, SID, 'ultragoal', { current_phase: 'executing', ...state });
  if (plan) writeOmcJson(path.join(w.cwd, '.omc', plan.rel), plan.value);
  return w;
}

const goal = (id: string, status: unknown) => ({ id, title: id, objective: id, status });
const LEGACY = 'ultragoal/goals.json';

const CASES: Array<{ name: string; state?: Record<string, unknown>; plan: { rel: string; value: unknown } | null }> = [
  { name: 'no plan', plan: null },
  {
    name: 'every goal complete',
    plan: { rel: LEGACY, value: { goals: [goal('G1', 'complete'), goal('G2', 'complete')] } },
  },
  {
    name: 'complete + review_blocked',
    plan: { rel: LEGACY, value: { goals: [goal('G1', 'complete'), goal('G2', 'review_blocked')] } },
  },
  { name: 'a status written " Complete "', plan: { rel: LEGACY, value: { goals: [goal('G1', ' Complete ')] } } },
  {
    name: 'aggregateCompletion.status "complete" with a pending goal',
    plan: { rel: LEGACY, value: { aggregateCompletion: { status: 'complete' }, goals: [goal('G1', 'pending')] } },
  },
  {
    name: 'aggregateCompletion.status " complete" (not trimmed by the hook)',
    plan: { rel: LEGACY, value: { aggregateCompletion: { status: ' complete' }, goals: [goal('G1', 'pending')] } },
  },
  { name: 'goals []', plan: { rel: LEGACY, value: { goals: [] } } },
  { name: 'a failed goal', plan: { rel: LEGACY, value: { goals: [goal('G1', 'complete'), goal('G2', 'failed')] } } },
  { name: 'a goal that is not an object', plan: { rel: LEGACY, value: { goals: [goal('G1', 'complete'), null] } } },
  { name: 'the plan is a list', plan: { rel: LEGACY, value: [goal('G1', 'complete')] } },
  {
    name: 'a complete plan under plans/<id>/ (not read by the hook)',
    plan: { rel: 'ultragoal/plans/p1/goals.json', value: { goals: [goal('G1', 'complete')] } },
  },
  { name: 'done: true in the state', state: { done: true }, plan: null },
  { name: 'current_phase complete in the state', state: { current_phase: 'complete' }, plan: null },
  { name: 'reinforced 50 times', state: { reinforcement_count: 50 }, plan: null },
];

const hookVersions = HOOK_VERSIONS.filter((v) => v !== '4.4.4');

describe.each(hookVersions)("ultragoal's plan (goals.json): omc-top's --json vs OMC %s's real Stop hook", (version) => {
  it.each(CASES)('$name', (c) => {
    const w = project(c.state ?? {}, c.plan);
    const hook = hookStop('ultragoal-plan', c.name, { version, cwd: w.cwd, home: w.home, sessionId: SID, now: w.now });
    const doc = jsonReport({ version: version as OmcVersion, cwd: w.cwd, home: w.home, now: w.now });
    const s = doc.sessions.find((x) => x.id === SID);
    const v = s?.verdict;
    expect({ decision: v?.decision, mode: v?.decision === 'block' ? v.mode : null }).toEqual({
      decision: hook.decision,
      mode: hook.mode,
    });
    const row = s?.modes.find((m) => m.mode === 'ultragoal');
    // The ultragoal row's word says the same: enforced only while the hook blocks for it.
    expect(row?.status === 'enforced').toBe(hook.decision === 'block');
  });

  it('the words: every goal complete says so, and the row is finished', () => {
    const w = project({}, { rel: LEGACY, value: { goals: [goal('G1', 'complete'), goal('G2', 'review_blocked')] } });
    const s = jsonReport({ version, cwd: w.cwd, home: w.home, now: w.now }).sessions.find((x) => x.id === SID);
    expect(s?.verdict).toMatchObject({ decision: 'stop', rule: 'nothing-enforced' });
    const row = s?.modes.find((m) => m.mode === 'ultragoal');
    expect(row?.status).toBe('finished');
    expect(row?.verdict).toEqual({
      rule: 'terminal',
      detail: 'every goal in ultragoal/goals.json is complete (or review_blocked): the hook lets it stop',
    });
  });
});

describe('a running monitor follows the plan', () => {
  it('the last goal marked complete ends the enforcement; a goal reopened brings it back (no state file changes)', async () => {
    const w = project({}, { rel: LEGACY, value: { goals: [goal('G1', 'complete'), goal('G2', 'in_progress')] } });
    const root = path.join(w.cwd, '.omc');
    const s = (store = projectStore(w));
    const decision = () => s.sessions.getSnapshot().sessions.find((v) => v.id === SID)?.verdict?.decision;
    await waitFor(() => decision() === 'block', { what: 'the ultragoal enforced' });
    expect(realStop({ version: '5.5.0', cwd: w.cwd, home: w.home, sessionId: SID, now: Date.now() }).decision).toBe(
      'block',
    );
    const plan = path.join(root, LEGACY);
    fs.writeFileSync(plan, JSON.stringify({ goals: [goal('G1', 'complete'), goal('G2', 'complete')] }));
    await waitFor(() => decision() === 'stop', { what: 'the verdict to follow goals.json', timeoutMs: 10_000 });
    expect(realStop({ version: '5.5.0', cwd: w.cwd, home: w.home, sessionId: SID, now: Date.now() }).decision).toBe(
      'stop',
    );
    fs.writeFileSync(plan, JSON.stringify({ goals: [goal('G1', 'complete'), goal('G2', 'failed')] }));
    await waitFor(() => decision() === 'block', { what: 'the reopened plan enforced again', timeoutMs: 10_000 });
  });
});
