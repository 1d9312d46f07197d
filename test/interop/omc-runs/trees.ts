/**
 * Generated state trees for the 4.15.10 fixtures, beside the driven sequences: omc-top's own
 * generator (test/helpers/verdict-arb.ts, the one 5.5.0 and 4.4.4 are checked with) and a second one
 * aimed at what 4.15 adds: ultrawork and ultraqa (caps, confirmation, tombstones, scoping, the link
 * to ralph), their order against the other modes, legacy signals, global ~/.omc/state copies, and
 * the Stop payload's escapes (stop_hook_active, stop reasons, user abort, session-less, a
 * transcript at ≥ 95 % context). A case is its files and its payload; `layTree` writes it out.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { NOW, OTHER, S, caseArb, caseFiles } from '../../helpers/verdict-arb.js';

export const CWD_TOKEN = '/__CASE_CWD__';
export const H = 3_600_000;
/** Every input file's mtime, relative to NOW (the hooks read none; recorded for replays). */
export const MTIME_REL_MS = -5_000;

export interface TreeCase {
  batch: 'arb' | '415';
  /** [rel under <cwd>/.omc, or "~/rel" under HOME; text with CWD_TOKEN for the case's directory]. */
  files: Array<[string, string]>;
  /** Stop payload fields over the plain ones. */
  payload: Record<string, unknown>;
  /** The payload's session id; null = left out. */
  sid: string | null;
}

export function arbCases(n: number, seed: number): TreeCase[] {
  return fc.sample(caseArb(CWD_TOKEN), { seed, numRuns: n }).map((c) => ({
    batch: 'arb',
    files: [...caseFiles(c).entries()],
    payload: {},
    sid: S,
  }));
}

const absent = Symbol('absent');
type Maybe = unknown;
const maybe = <T>(a: fc.Arbitrary<T>, w = 1): fc.Arbitrary<Maybe> =>
  fc.oneof({ arbitrary: fc.constant<Maybe>(absent), weight: w }, { arbitrary: a as fc.Arbitrary<Maybe>, weight: 2 });
const iso = (age: number) => new Date(NOW - age).toISOString();
const ts = fc.constantFrom(0, 0, 0, 60_000, 119_000, 121_000, 2 * H - 1_000, 2 * H + 1_000, 25 * H, -10_000).map(iso);
const sidArb = fc.oneof(
  { arbitrary: fc.constant<Maybe>(S), weight: 8 },
  { arbitrary: fc.constantFrom<Maybe>(OTHER, absent, ''), weight: 3 },
);
const commonArb = fc.record({
  active: fc.oneof(
    { arbitrary: fc.constant<Maybe>(true), weight: 10 },
    { arbitrary: fc.constantFrom<Maybe>(false, 'yes', absent), weight: 2 },
  ),
  session_id: sidArb,
  started_at: maybe(ts),
  last_checked_at: maybe(ts),
  project_path: fc.oneof(
    { arbitrary: fc.constant<Maybe>(absent), weight: 4 },
    { arbitrary: fc.constantFrom<Maybe>(CWD_TOKEN, `${CWD_TOKEN}/`, '/elsewhere/project'), weight: 2 },
  ),
  awaiting_confirmation: fc.oneof(
    { arbitrary: fc.constant<Maybe>(absent), weight: 5 },
    { arbitrary: fc.constantFrom<Maybe>(true, false), weight: 2 },
  ),
  awaiting_confirmation_set_at: maybe(fc.constantFrom(0, 60_000, 119_000, 121_000, -10_000).map(iso)),
});
const cnt = (...v: unknown[]) => maybe(fc.constantFrom<unknown>(...v));
const SPEC: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  ultrawork: fc.record({
    reinforcement_count: cnt(0, 1, 2, 48, 49, 50, 51, '5', null),
    max_reinforcements: cnt(3, 50, '4'),
    linked_to_ralph: cnt(true),
    original_prompt: fc.constant('task'),
    current_objective: cnt('ship it'),
  }),
  ultraqa: fc.record({
    cycle: cnt(1, 2, 9, 10, 11, '3', 0),
    max_cycles: cnt(3, 10, '5'),
    all_passing: cnt(true, false),
    goal_type: fc.constant('tests'),
  }),
  ralph: fc.record({
    iteration: cnt(1, 5, 99, 100),
    max_iterations: cnt(100, 5),
    linked_ultrawork: cnt(true),
    prompt: fc.constant('task'),
  }),
  autopilot: fc.record({
    phase: cnt('execution', 'complete', 'planning'),
    reinforcement_count: cnt(0, 18, 19, 20, 21),
    originalIdea: fc.constant('build it'),
  }),
  ultragoal: fc.record({
    reinforcement_count: cnt(0, 49, 50),
    max_reinforcements: cnt(50, 2),
    current_phase: cnt('executing', 'complete'),
  }),
  team: fc.record({
    current_phase: cnt('team-exec', 'complete'),
    reinforcement_count: cnt(0, 19, 20),
  }),
};
const whereArb = fc.oneof(
  { arbitrary: fc.constant('own'), weight: 8 },
  { arbitrary: fc.constantFrom('other', 'legacy', 'global'), weight: 3 },
);
const stateArb = (mode: string) =>
  fc
    .record({ c: commonArb, s: SPEC[mode] as fc.Arbitrary<Record<string, unknown>>, where: whereArb })
    .map(({ c, s, where }) => {
      const value: Record<string, unknown> = {};
      for (const [k, v] of Object.entries({ ...c, ...s })) if (v !== absent) value[k] = v;
      return { mode, where, value };
    });
const signalArb = fc.record({
  where: fc.constantFrom('own', 'legacy', 'legacy', 'other'),
  reqAge: fc.constantFrom(0, 5_000, 31_000, -6_000),
  form: fc.constantFrom('generic', 'generic', 'generic', 'autopilot-digest', 'targeted'),
});
const payloadArb = fc.record({
  stop_hook_active: fc.oneof(
    { arbitrary: fc.constant<Maybe>(false), weight: 10 },
    { arbitrary: fc.constantFrom<Maybe>(true, 'true'), weight: 2 },
  ),
  stop_reason: fc.oneof(
    { arbitrary: fc.constant<Maybe>(absent), weight: 12 },
    {
      arbitrary: fc.constantFrom<Maybe>(
        'end_turn',
        'context_limit',
        'max_tokens',
        'user_cancel',
        'cancel',
        'aborted',
        'rate_limit',
        'rate_limit_error',
        'overloaded_error',
        'authentication_error',
        'scheduled_wakeup',
      ),
      weight: 4,
    },
  ),
  user_requested: fc.oneof(
    { arbitrary: fc.constant<Maybe>(absent), weight: 12 },
    { arbitrary: fc.constant(true), weight: 1 },
  ),
  sid: fc.oneof(
    { arbitrary: fc.constant<Maybe>(S), weight: 12 },
    { arbitrary: fc.constantFrom<Maybe>(absent, '', 'not a valid id!'), weight: 3 },
  ),
  transcriptPct: fc.oneof(
    { arbitrary: fc.constant<Maybe>(absent), weight: 12 },
    { arbitrary: fc.constantFrom(96, 80), weight: 2 },
  ),
});

const dirOf = (w: string) =>
  w === 'own'
    ? `state/sessions/${S}`
    : w === 'other'
      ? `state/sessions/${OTHER}`
      : w === 'legacy'
        ? 'state'
        : '~/.omc/state';

export const case415Arb: fc.Arbitrary<TreeCase> = fc
  .record({
    base: fc.subarray(['ralph', 'autopilot', 'ultragoal', 'team'], { maxLength: 2 }),
    uw: fc.boolean(),
    uwBias: fc.integer({ min: 0, max: 9 }),
    qa: fc.integer({ min: 0, max: 9 }),
    seeds: fc.record(Object.fromEntries(Object.keys(SPEC).map((m) => [m, stateArb(m)]))),
    signals: fc.array(signalArb, { maxLength: 2 }),
    tomb: fc.oneof(
      { arbitrary: fc.constant(null), weight: 3 },
      {
        arbitrary: fc.record({
          mode: fc.constantFrom('ultrawork', 'ultrawork', 'ralph', 'ultraqa'),
          completed_at: fc.constantFrom(iso(H), iso(25 * H), 'bad'),
        }),
        weight: 1,
      },
    ),
    async: fc.oneof(
      { arbitrary: fc.constant(null), weight: 11 },
      { arbitrary: fc.constant({ agents: [{ status: 'running', started_at: iso(60_000) }] }), weight: 1 },
    ),
    payload: payloadArb,
  })
  .map((g) => {
    const modes = new Set<string>(g.base);
    if (g.uw || g.uwBias < 7) modes.add('ultrawork');
    if (g.qa < 4) modes.add('ultraqa');
    if (modes.size === 0) modes.add('ultrawork');
    const sid = g.payload.sid === absent ? null : (g.payload.sid as string);
    const files = new Map<string, string>();
    files.set(`state/sessions/${S}/session-started.json`, JSON.stringify({ session_id: S, started_at: iso(60_000) }));
    const seeds = g.seeds as Record<string, { mode: string; where: string; value: Record<string, unknown> }>;
    const states = [...modes].map((m) => seeds[m] as { mode: string; where: string; value: Record<string, unknown> });
    for (const st of states) files.set(`${dirOf(st.where)}/${st.mode}-state.json`, JSON.stringify(st.value, null, 2));
    const ap = states.find((st) => st.mode === 'autopilot');
    for (const sg of g.signals) {
      const req = NOW - sg.reqAge;
      const sig: Record<string, unknown> = {
        active: true,
        requested_at: new Date(req).toISOString(),
        expires_at: new Date(req + 30_000).toISOString(),
        mode: sg.form === 'autopilot-digest' ? 'autopilot' : 'ultrawork',
        source: 'omc-top',
      };
      if (sg.form === 'autopilot-digest' && ap) sig.target_state_sha256 = 'DIGEST_OF_AUTOPILOT';
      if (sg.form === 'targeted') sig.target_state_sha256 = 'b'.repeat(64);
      files.set(`${dirOf(sg.where)}/cancel-signal-state.json`, JSON.stringify(sig, null, 2));
    }
    if (g.tomb)
      files.set(
        `state/sessions/${S}/skill-active-state.json`,
        JSON.stringify(
          { version: 2, active_skills: { [g.tomb.mode]: { completed_at: g.tomb.completed_at } } },
          null,
          2,
        ),
      );
    if (g.async) files.set('state/subagent-tracking.json', JSON.stringify(g.async, null, 2));
    if (g.payload.transcriptPct !== absent) {
      const input = Math.round((200_000 * (g.payload.transcriptPct as number)) / 100);
      files.set(
        `~/.claude/projects/x/${sid && sid !== '' ? sid : 'nosid'}.jsonl`,
        JSON.stringify({ type: 'assistant', message: { usage: { input_tokens: input } }, context_window: 200_000 }) +
          '\n',
      );
    }
    const payload: Record<string, unknown> = { stop_hook_active: g.payload.stop_hook_active };
    if (g.payload.stop_reason !== absent) payload.stop_reason = g.payload.stop_reason;
    if (g.payload.user_requested !== absent) payload.user_requested = true;
    return { batch: '415', files: [...files.entries()], payload, sid };
  });

/** Writes a case's files for a case directory and HOME; the texts as written (CWD_TOKEN and digests filled in). */
export function layTree(c: { files: Array<[string, string]> }, cwd: string, home: string): Array<[string, string]> {
  const fix = (t: string) => t.split(CWD_TOKEN).join(cwd);
  const apText = c.files.find(([r]) => /autopilot-state\.json$/.test(r))?.[1];
  const laid: Array<[string, string]> = [];
  for (const [rel, raw] of c.files) {
    let text = fix(raw);
    // An autopilot-digest signal carries the SHA-256 of the autopilot state as the hook parses it.
    if (text.includes('DIGEST_OF_AUTOPILOT') && apText)
      text = text.replace(
        'DIGEST_OF_AUTOPILOT',
        createHash('sha256')
          .update(JSON.stringify(JSON.parse(fix(apText))))
          .digest('hex'),
      );
    const abs = rel.startsWith('~/') ? path.join(home, rel.slice(2)) : path.join(cwd, '.omc', rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    const t = new Date(NOW + MTIME_REL_MS);
    fs.utimesSync(abs, t, t);
    laid.push([rel, text]);
  }
  return laid;
}

/** The Stop payload of a tree case, for a case directory and HOME. */
export function treePayload(c: TreeCase, cwd: string, home: string): Record<string, unknown> {
  const p: Record<string, unknown> = {
    ...(c.sid === null ? {} : { session_id: c.sid }),
    transcript_path: path.join(home, '.claude', 'projects', 'x', `${c.sid ?? 'nosid'}.jsonl`),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: false,
    ...c.payload,
  };
  return p;
}
