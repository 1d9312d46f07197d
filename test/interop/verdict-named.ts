/**
 * Issue 11's observed cases, each run through the real Stop hook of a version and through the
 * verdict engine: both must give the decision the issue reports (a named regression per case).
 */
import { expect } from 'vitest';
import { HookRunner, hookDecision, type HookVersion } from '../helpers/stop-hook.js';
import { NOW, S, type GenCase } from '../helpers/verdict-arb.js';
import { Bench, CWD_TOKEN, engineSays, withCwd } from './verdict-differential.js';

const iso = (ago: number) => new Date(NOW - ago).toISOString();
const fresh = { started_at: iso(60_000), last_checked_at: iso(5_000) };
const own = (mode: string, value: Record<string, unknown>) => ({ mode, where: 'own' as const, value });
const signal = (extra: Record<string, unknown> = {}) => ({
  active: true,
  requested_at: iso(2_000),
  expires_at: iso(2_000 - 30_000),
  mode: 'ralph',
  source: 'omc-top',
  ...extra,
});

export interface Named {
  name: string;
  tree: GenCase;
  expect: Partial<Record<HookVersion, { decision: 'block' | 'stop'; mode: string | null }>>;
}

export const NAMED: Named[] = [
  {
    name: 'ralph written by state_write (only _meta.sessionId)',
    tree: { states: [own('ralph', { active: true, iteration: 3, _meta: { sessionId: S }, ...fresh })], extra: [] },
    expect: { '5.5.0': { decision: 'stop', mode: null }, '4.4.4': { decision: 'stop', mode: null } },
  },
  {
    name: 'team written by state_write (only _meta.sessionId)',
    tree: {
      states: [own('team', { active: true, current_phase: 'team-exec', _meta: { sessionId: S }, ...fresh })],
      extra: [],
    },
    expect: { '5.5.0': { decision: 'stop', mode: null } },
  },
  {
    name: 'autopilot after 20 reinforcements',
    tree: {
      states: [
        own('autopilot', { active: true, phase: 'execution', reinforcement_count: 20, session_id: S, ...fresh }),
      ],
      extra: [],
    },
    expect: { '5.5.0': { decision: 'stop', mode: null }, '4.4.4': { decision: 'stop', mode: null } },
  },
  {
    name: 'a 4.x ultrawork: ignored by 5.5.0, enforced by 4.4.4',
    tree: { states: [own('ultrawork', { active: true, reinforcement_count: 4, session_id: S, ...fresh })], extra: [] },
    expect: { '5.5.0': { decision: 'stop', mode: null }, '4.4.4': { decision: 'block', mode: 'ultrawork' } },
  },
  {
    name: "state_clear(ralph)'s targeted signal is not honoured",
    tree: {
      states: [own('ralph', { active: true, session_id: S, ...fresh })],
      extra: [
        {
          rel: `state/sessions/${S}/cancel-signal-state.json`,
          value: signal({ source: 'state_clear', target_state_sha256: 'c'.repeat(64) }),
        },
      ],
    },
    expect: { '5.5.0': { decision: 'block', mode: 'ralph' } },
  },
  {
    name: 'a legacy signal pauses the session',
    tree: {
      states: [own('ralph', { active: true, session_id: S, ...fresh })],
      extra: [{ rel: 'state/cancel-signal-state.json', value: signal() }],
    },
    expect: { '5.5.0': { decision: 'stop', mode: null }, '4.4.4': { decision: 'block', mode: 'ralph' } },
  },
  {
    name: '4.4.4 ignores an in-force session signal',
    tree: {
      states: [own('ralph', { active: true, iteration: 3, max_iterations: 100, session_id: S, ...fresh })],
      extra: [{ rel: `state/sessions/${S}/cancel-signal-state.json`, value: signal() }],
    },
    expect: { '4.4.4': { decision: 'block', mode: 'ralph' }, '5.5.0': { decision: 'stop', mode: null } },
  },
  {
    name: 'wrong-typed fields: "active": "yes" is truthy to both hooks',
    tree: {
      states: [own('ralph', { active: 'yes', iteration: 'many', phase: { x: 1 }, session_id: S, ...fresh })],
      extra: [],
    },
    expect: { '5.5.0': { decision: 'block', mode: 'ralph' } },
  },
  {
    name: 'a stranded ralph of S in another session directory (5.5.0 finds it)',
    tree: { states: [{ mode: 'ralph', where: 'other', value: { active: true, session_id: S, ...fresh } }], extra: [] },
    expect: { '5.5.0': { decision: 'block', mode: 'ralph' }, '4.4.4': { decision: 'stop', mode: null } },
  },
];

export async function runNamed(version: HookVersion): Promise<void> {
  const bench = new Bench();
  const runner = new HookRunner(version);
  try {
    for (const c of NAMED) {
      const want = c.expect[version];
      const cwd = bench.nextCwd();
      bench.lay(withCwd(c.tree, cwd));
      const ours = engineSays(version, cwd);
      const hook = hookDecision(await runner.run({ cwd, sessionId: S, home: bench.home, now: NOW }));
      expect({ case: c.name, decision: hook.decision, mode: hook.mode }).toEqual({
        case: c.name,
        decision: ours.decision,
        mode: ours.mode,
      });
      if (want) expect({ case: c.name, ...want }).toEqual({ case: c.name, decision: hook.decision, mode: hook.mode });
    }
  } finally {
    runner.close();
    bench.cleanup();
  }
}

export { CWD_TOKEN };
