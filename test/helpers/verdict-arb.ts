/**
 * A fast-check generator of OMC state trees around one session S, aimed at the fields the
 * Stop hooks read: every mode they know, session ids present / absent / another session's /
 * only in `_meta`, copies in another session's directory and in `state/`, timestamps on both
 * sides of every threshold (2 h staleness, 2 min confirmation, 24 h tombstone, 30 s / 5 s
 * cancel), reinforcement counts and iterations around every cap, wrong-typed values, cancel
 * signals of every form and age (generic, targeted, autopilot digest — right and wrong — and
 * legacy), pending async work, unparseable files.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';

export const S = '0b5e9c1e-1111-4222-8333-444455556666';
export const OTHER = '7f3a2b10-aaaa-4bbb-8ccc-ddddeeeeffff';
export const NOW = Date.parse('2026-06-01T12:00:00.000Z');

const H = 3_600_000;
/** Ages around every threshold the hooks use (ms before now; negative = in the future). */
const AGES = [0, 1_000, 60_000, 119_000, 121_000, 2 * H - 1_000, 2 * H + 1_000, 3 * H, 23 * H, 25 * H, -10_000];
const iso = (ageMs: number) => new Date(NOW - ageMs).toISOString();

const absent = Symbol('absent');
type Maybe<T> = T | typeof absent;
const maybe = <T>(arb: fc.Arbitrary<T>, weight = 1) =>
  fc.oneof({ arbitrary: fc.constant(absent), weight }, { arbitrary: arb, weight: 2 });

const timestamp = fc.oneof(
  { arbitrary: fc.constantFrom(0, 1_000, 60_000).map(iso), weight: 8 },
  { arbitrary: fc.constantFrom(...AGES).map(iso), weight: 6 },
  { arbitrary: fc.constantFrom(...AGES).map((a) => NOW - a), weight: 1 },
  { arbitrary: fc.constantFrom('garbage', ''), weight: 1 },
);
const count = fc.constantFrom<unknown>(
  0,
  1,
  3,
  14,
  15,
  19,
  20,
  21,
  49,
  50,
  99,
  100,
  150,
  '5',
  '3',
  'many',
  -1,
  1.5,
  null,
);
const activeArb = fc.oneof(
  { arbitrary: fc.constant<unknown>(true), weight: 8 },
  { arbitrary: fc.constantFrom<unknown>(false, 'yes', 1, 'true'), weight: 2 },
);

export interface GenState {
  mode: string;
  where: 'own' | 'other' | 'legacy';
  value: Record<string, unknown>;
}

function common(cwd: string) {
  return fc.record({
    active: fc.oneof({ arbitrary: fc.constant<unknown>(absent), weight: 1 }, { arbitrary: activeArb, weight: 12 }),
    session_id: fc.oneof(
      { arbitrary: fc.constant<Maybe<string>>(S), weight: 8 },
      { arbitrary: fc.constantFrom<Maybe<string>>(absent, OTHER, ''), weight: 3 },
    ),
    meta: fc.boolean(),
    started_at: maybe(timestamp, 1),
    last_checked_at: maybe(timestamp, 1),
    updated_at: maybe(timestamp, 2),
    project_path: fc.oneof(
      { arbitrary: fc.constant<Maybe<string>>(absent), weight: 4 },
      { arbitrary: fc.constantFrom<Maybe<string>>(cwd, `${cwd}/`, '/elsewhere/project'), weight: 2 },
    ),
    awaiting: fc.oneof(
      { arbitrary: fc.constant<Maybe<unknown>>(absent), weight: 6 },
      { arbitrary: fc.constantFrom<Maybe<unknown>>(true, false, 'true'), weight: 2 },
    ),
    awaiting_set_at: maybe(fc.constantFrom(...AGES).map(iso)),
  });
}

function specific(mode: string): fc.Arbitrary<Record<string, unknown>> {
  const m = (o: Record<string, fc.Arbitrary<unknown>>) => fc.record(o);
  switch (mode) {
    case 'ralph':
      return m({ iteration: maybe(count), max_iterations: maybe(count), prompt: fc.constant('task') });
    case 'ultragoal':
      return m({
        reinforcement_count: maybe(count),
        max_reinforcements: maybe(fc.constantFrom<unknown>(3, 50, '2')),
        completed_at: maybe(fc.constantFrom<unknown>(iso(60_000), '')),
        done: maybe(fc.constantFrom<unknown>(true, false)),
        current_phase: maybe(fc.constantFrom<unknown>('executing', 'complete', ' Done ')),
      });
    case 'autopilot':
      return m({
        phase: maybe(fc.constantFrom<unknown>('execution', 'complete', ' Complete ', '', { x: 1 }, 'planning')),
        reinforcement_count: maybe(count),
        originalIdea: fc.constantFrom<unknown>('build it', '[MAGIC KEYWORD: AUTOPILOT]', '/autopilot'),
        workflowRunId: fc.oneof(
          { arbitrary: fc.constant<unknown>(absent), weight: 12 },
          { arbitrary: fc.constant<unknown>('3b2c1a00-0000-4000-8000-000000000001'), weight: 1 },
        ),
      });
    case 'ultrapilot':
      return m({
        workers: maybe(
          fc.constantFrom<unknown>([], [{ status: 'running' }], [{ status: 'complete' }, { status: 'failed' }], 'bad'),
        ),
        reinforcement_count: maybe(count),
      });
    case 'pipeline':
      return m({
        current_stage: maybe(fc.constantFrom<unknown>(0, 1, 2, '1')),
        stages: maybe(fc.constantFrom<unknown>([], ['a', 'b'], 'ab')),
        reinforcement_count: maybe(count),
      });
    case 'team':
    case 'omc-teams':
      return m({
        current_phase: maybe(fc.constantFrom<unknown>('team-exec', ' Executing ', 'complete', 'weird', 42)),
        stage: maybe(fc.constantFrom<unknown>('fix', 'done')),
        reinforcement_count: maybe(count),
      });
    case 'ultraqa':
      return m({
        cycle: maybe(count),
        max_cycles: maybe(fc.constantFrom<unknown>(3, 10, '5')),
        all_passing: maybe(fc.constantFrom<unknown>(true, false)),
      });
    case 'ultrawork':
      return m({ reinforcement_count: maybe(count), max_reinforcements: maybe(fc.constantFrom<unknown>(3, 50)) });
    default:
      return m({});
  }
}

export const MODES = [
  'ralph',
  'ultragoal',
  'autopilot',
  'ultrapilot',
  'pipeline',
  'team',
  'omc-teams',
  'ultraqa',
  'ultrawork',
];

const strip = (o: Record<string, unknown>) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== absent) out[k] = v;
  return out;
};

function stateArb(mode: string, cwd: string): fc.Arbitrary<GenState> {
  return fc
    .record({
      c: common(cwd),
      s: specific(mode),
      where: fc.oneof(
        { arbitrary: fc.constant<'own'>('own'), weight: 8 },
        { arbitrary: fc.constantFrom<'other' | 'legacy'>('other', 'legacy'), weight: 2 },
      ),
    })
    .map(({ c, s, where }) => {
      const value = strip({
        active: c.active,
        session_id: c.session_id,
        started_at: c.started_at,
        last_checked_at: c.last_checked_at,
        updated_at: c.updated_at,
        project_path: c.project_path,
        awaiting_confirmation: c.awaiting,
        awaiting_confirmation_set_at: c.awaiting_set_at,
        ...strip(s),
      });
      if (c.meta) value._meta = { sessionId: S, written_at: iso(10_000), mode };
      return { mode, where, value };
    });
}

export interface GenCase {
  states: GenState[];
  /** rel under .omc → a value (written as pretty JSON) or { raw } text. */
  extra: Array<{ rel: string; value?: unknown; raw?: string }>;
}

const signalArb = fc.record({
  where: fc.constantFrom('own', 'legacy', 'other'),
  active: fc.oneof(
    { arbitrary: fc.constant<unknown>(true), weight: 6 },
    { arbitrary: fc.constantFrom<unknown>(false, 'true'), weight: 1 },
  ),
  reqAge: fc.constantFrom(0, 5_000, 29_000, 31_000, -4_000, -6_000, 60_000),
  ttl: fc.constantFrom<unknown>(30_000, 31_000, 10_000, absent, 'bad', 0),
  mode: fc.constantFrom('ralph', 'autopilot', 'skill-active'),
  target: fc.constantFrom('none', 'digest', 'wrong-digest', 'run-id'),
  source: fc.constantFrom<unknown>('state_clear', 'omc-top', '', absent),
});

const asyncArb = fc.constantFrom(
  null,
  { rel: `state/sessions/${S}/scheduled-wakeup-state.json`, value: { due_at: iso(-60_000) } },
  { rel: `state/sessions/${S}/wakeup-state.json`, value: { due_at: iso(60_000), status: 'pending' } },
  { rel: 'state/subagent-tracking.json', value: { agents: [{ status: 'running', started_at: iso(60_000) }] } },
  { rel: 'state/subagent-tracking.json', value: { agents: [{ status: 'running', started_at: iso(2 * H) }] } },
  { rel: `state/sessions/${S}/hud-state.json`, value: { backgroundTasks: [{ status: 'running', startedAt: iso(H) }] } },
);

const tombArb = fc.option(
  fc.record({
    mode: fc.constantFrom('ralph', 'ultragoal', 'autopilot'),
    completed_at: fc.constantFrom<unknown>(iso(H), iso(25 * H), 'bad', ''),
  }),
  { freq: 3 },
);

const brokenArb = fc.option(
  fc.record({ mode: fc.constantFrom(...MODES), raw: fc.constantFrom('{"active": tru', 'null', '[]', '"x"') }),
  {
    freq: 6,
  },
);

const digest = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const dirOf = (where: string) =>
  where === 'own' ? `state/sessions/${S}` : where === 'other' ? `state/sessions/${OTHER}` : 'state';

export function caseArb(cwd: string): fc.Arbitrary<GenCase> {
  return fc
    .record({
      picks: fc.subarray(MODES, { minLength: 1, maxLength: 4 }),
      seeds: fc.tuple(...MODES.map((m) => stateArb(m, cwd))),
      signals: fc.array(signalArb, { maxLength: 2 }),
      async: fc.oneof({ arbitrary: fc.constant(null), weight: 8 }, { arbitrary: asyncArb, weight: 1 }),
      tomb: tombArb,
      broken: brokenArb,
    })
    .map(({ picks, seeds, signals, async, tomb, broken }) => {
      const states = seeds.filter((s) => picks.includes(s.mode));
      const extra: GenCase['extra'] = [];
      const ap = states.find((s) => s.mode === 'autopilot');
      for (const g of signals) {
        const req = NOW - g.reqAge;
        const sig: Record<string, unknown> = {
          active: g.active,
          requested_at: new Date(req).toISOString(),
          mode: g.mode,
        };
        if (g.ttl !== absent) sig.expires_at = typeof g.ttl === 'number' ? new Date(req + g.ttl).toISOString() : g.ttl;
        if (g.source !== absent) sig.source = g.source;
        if (g.target === 'digest' && ap) sig.target_state_sha256 = digest(ap.value);
        if (g.target === 'wrong-digest') sig.target_state_sha256 = 'a'.repeat(64);
        if (g.target === 'run-id') sig.target_workflow_run_id = 'run-1';
        extra.push({ rel: `${dirOf(g.where)}/cancel-signal-state.json`, value: sig });
      }
      if (async) extra.push(async);
      if (tomb)
        extra.push({
          rel: `state/sessions/${S}/skill-active-state.json`,
          value: { version: 2, active_skills: { [tomb.mode]: { completed_at: tomb.completed_at } } },
        });
      if (broken) extra.push({ rel: `state/sessions/${S}/${broken.mode}-state.json`, raw: broken.raw });
      return { states, extra };
    });
}

/** Every file of a case, rel under .omc → text (later entries win, as the last write would). */
export function caseFiles(c: GenCase): Map<string, string> {
  const files = new Map<string, string>();
  files.set(`state/sessions/${S}/session-started.json`, JSON.stringify({ session_id: S, started_at: iso(60_000) }));
  for (const s of c.states) files.set(`${dirOf(s.where)}/${s.mode}-state.json`, JSON.stringify(s.value, null, 2));
  for (const e of c.extra) files.set(e.rel, e.raw ?? JSON.stringify(e.value, null, 2));
  return files;
}
