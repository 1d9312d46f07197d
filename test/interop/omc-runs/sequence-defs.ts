/**
 * The driven sequences: deterministic, version-independent step lists that run the same way against
 * every OMC version. A prompt goes through the keyword hooks, the model's Skill call through the tool
 * hooks, and then come Stop events, cancels (omc-top's own, OMC's `state_clear`, the cancel skill's
 * flow, raw signals), two sessions at once, the payload's escapes and the caps. Sessions A and B;
 * times in ms after T0.
 */
export const T0 = Date.parse('2026-06-01T12:00:00.000Z');
export const SESSIONS: Record<string, string> = {
  A: 'aaaaaaaa-1111-4222-8333-000000000001',
  B: 'bbbbbbbb-2222-4222-8333-000000000002',
};

export type Step =
  | { t: number; op: 'prompt'; s: string; text: string }
  | { t: number; op: 'skill'; s: string; skill: string }
  | { t: number; op: 'stop'; s: string; payload?: Record<string, unknown> }
  | { t: number; op: 'signal'; s: string | null; mode: string; form?: 'generic' | 'autopilot' }
  | { t: number; op: 'omctop-cancel'; s: string | null; mode?: string; signalOnly?: boolean }
  | { t: number; op: 'state'; tool: string; args: Record<string, unknown> }
  | { t: number; op: 'skill-cancel'; s: string }
  | { t: number; op: 'patch'; rel: string; set: Record<string, unknown> }
  | { t: number; op: 'transcript'; s: string; pct: number }
  /** Claude Code's transcript lines of a turn: the typed prompt, and the Stop hook's block when there was one. */
  | { t: number; op: 'turn'; s: string; blocked: boolean };

export interface Sequence {
  name: string;
  family: string;
  steps: Step[];
}

const s = 1_000;
const m = 60_000;

const PROMPTS: Record<string, string> = {
  ralph: 'ralph fix the failing tests in src/parser',
  ulw: 'ultrawork refactor the parser module',
  autopilot: 'autopilot build a small todo app',
  ultragoal: 'use ultragoal to ship the v2 release checklist',
  'ralph+ulw': 'ralph ulw fix every lint error',
  plain: 'please explain what this function does',
};
/** The skill the model then calls for each prompt (the keyword hook asks for it). */
const SKILL: Record<string, string | null> = {
  ralph: 'ralph',
  ulw: 'ultrawork',
  autopilot: 'autopilot',
  ultragoal: 'ultragoal',
  'ralph+ulw': 'ralph',
  plain: null,
};

const stops = (sess: string, ...ts: number[]): Step[] => ts.map((t) => ({ t, op: 'stop', s: sess }));

function start(sess: string, kind: string, confirm: boolean, t = 0): Step[] {
  const out: Step[] = [{ t, op: 'prompt', s: sess, text: PROMPTS[kind] as string }];
  const sk = SKILL[kind];
  if (confirm && sk) out.push({ t: t + 5 * s, op: 'skill', s: sess, skill: sk });
  return out;
}

const primaryMode = (kind: string): string => (kind === 'ulw' ? 'ultrawork' : kind === 'ralph+ulw' ? 'ralph' : kind);

export function buildSequences(): Sequence[] {
  const out: Sequence[] = [];

  // Keyword → (skill) → stops, fast (the confirmation window still open) and late (expired).
  for (const kind of Object.keys(PROMPTS))
    for (const confirm of [true, false])
      for (const timing of ['fast', 'late'] as const) {
        const ts = timing === 'fast' ? [20 * s, 40 * s, 60 * s] : [130 * s, 150 * s, 170 * s];
        out.push({
          name: `activate/${kind}/${confirm ? 'skill' : 'no-skill'}/${timing}`,
          family: 'activate',
          steps: [...start('A', kind, confirm), ...stops('A', ...ts)],
        });
      }

  // Cancel a running loop each way there is, then stop at +1 s, +31 s, +3 min.
  const CANCELS: Record<string, (sess: string, t: number, kind: string) => Step[]> = {
    'omctop-full': (x, t) => [{ t, op: 'omctop-cancel', s: x }],
    'omctop-mode-primary': (x, t, kind) => [{ t, op: 'omctop-cancel', s: x, mode: primaryMode(kind) }],
    'omctop-mode-ralph': (x, t) => [{ t, op: 'omctop-cancel', s: x, mode: 'ralph' }],
    'omctop-pause': (x, t) => [{ t, op: 'omctop-cancel', s: x, signalOnly: true }],
    'omctop-legacy': (_x, t) => [{ t, op: 'omctop-cancel', s: null }],
    'state_clear-primary': (x, t, kind) => [
      { t, op: 'state', tool: 'state_clear', args: { mode: primaryMode(kind), session_id: x } },
    ],
    'state_clear-ralph': (x, t) => [{ t, op: 'state', tool: 'state_clear', args: { mode: 'ralph', session_id: x } }],
    'state_clear-no-session': (_x, t, kind) => [
      { t, op: 'state', tool: 'state_clear', args: { mode: primaryMode(kind) } },
    ],
    'skill-cancel': (x, t) => [{ t, op: 'skill-cancel', s: x }],
    'signal-session': (x, t, kind) => [
      { t, op: 'signal', s: x, mode: primaryMode(kind) === 'autopilot' ? 'ralph' : primaryMode(kind) },
    ],
    'signal-legacy': (_x, t, kind) => [
      { t, op: 'signal', s: null, mode: primaryMode(kind) === 'autopilot' ? 'ralph' : primaryMode(kind) },
    ],
    'signal-autopilot-digest': (x, t) => [{ t, op: 'signal', s: x, mode: 'autopilot', form: 'autopilot' }],
  };
  for (const kind of ['ralph', 'ulw', 'autopilot', 'ultragoal'])
    for (const [cname, mk] of Object.entries(CANCELS)) {
      if (cname === 'signal-autopilot-digest' && kind !== 'autopilot') continue;
      if (cname === 'omctop-legacy' && kind !== 'ralph') continue;
      const before: Step[] =
        cname === 'omctop-legacy'
          ? // `omc-top cancel legacy` needs session-less state to end: an unowned ralph from state_write.
            [{ t: 25 * s, op: 'state', tool: 'state_write', args: { mode: 'ralph', active: true } }]
          : [];
      out.push({
        name: `cancel/${kind}/${cname}`,
        family: 'cancel',
        steps: [
          ...start('A', kind, true),
          ...stops('A', 20 * s),
          ...before,
          ...mk('A', 30 * s, kind),
          ...stops('A', 31 * s, 61 * s, 3 * m),
        ],
      });
    }
  // Cancel while the keyword's confirmation window is still open (no skill call yet).
  for (const cname of ['omctop-full', 'state_clear-primary', 'skill-cancel'])
    out.push({
      name: `cancel/ralph-unconfirmed/${cname}`,
      family: 'cancel',
      steps: [
        ...start('A', 'ralph', false),
        ...(CANCELS[cname] as (x: string, t: number, k: string) => Step[])('A', 30 * s, 'ralph'),
        ...stops('A', 31 * s, 3 * m),
      ],
    });

  // Two sessions at once in one project.
  const pairs: Array<[string, string]> = [
    ['ralph', 'ulw'],
    ['ralph', 'ralph'],
    ['autopilot', 'ralph'],
  ];
  for (const [ka, kb] of pairs) {
    const both = [...start('A', ka, true, 0), ...start('B', kb, true, 2 * s)];
    const tag = `${ka}+${kb}`;
    out.push({
      name: `two/${tag}/legacy-signal`,
      family: 'two',
      steps: [
        ...both,
        ...stops('A', 20 * s),
        ...stops('B', 21 * s),
        { t: 30 * s, op: 'signal', s: null, mode: 'ralph' },
        ...stops('A', 31 * s),
        ...stops('B', 32 * s),
        ...stops('A', 70 * s),
        ...stops('B', 71 * s),
      ],
    });
    out.push({
      name: `two/${tag}/omctop-legacy`,
      family: 'two',
      steps: [
        ...both,
        ...stops('A', 20 * s),
        { t: 25 * s, op: 'state', tool: 'state_write', args: { mode: 'ralph', active: true } },
        { t: 30 * s, op: 'omctop-cancel', s: null },
        ...stops('A', 31 * s),
        ...stops('B', 32 * s),
        ...stops('A', 70 * s),
      ],
    });
    out.push({
      name: `two/${tag}/session-signal-A`,
      family: 'two',
      steps: [
        ...both,
        { t: 30 * s, op: 'signal', s: 'A', mode: 'ralph' },
        ...stops('A', 31 * s),
        ...stops('B', 32 * s),
      ],
    });
    out.push({
      name: `two/${tag}/omctop-cancel-A`,
      family: 'two',
      steps: [
        ...both,
        ...stops('A', 20 * s),
        { t: 30 * s, op: 'omctop-cancel', s: 'A' },
        ...stops('A', 31 * s),
        ...stops('B', 32 * s),
        ...stops('A', 3 * m),
        ...stops('B', 3 * m + s),
      ],
    });
    out.push({
      name: `two/${tag}/state_clear-A`,
      family: 'two',
      steps: [
        ...both,
        { t: 30 * s, op: 'state', tool: 'state_clear', args: { mode: primaryMode(ka), session_id: 'A' } },
        ...stops('A', 31 * s),
        ...stops('B', 32 * s),
        ...stops('A', 3 * m),
        ...stops('B', 3 * m + s),
      ],
    });
    out.push({
      name: `two/${tag}/state_clear-broad`,
      family: 'two',
      steps: [
        ...both,
        { t: 30 * s, op: 'state', tool: 'state_clear', args: { mode: primaryMode(ka) } },
        ...stops('A', 31 * s),
        ...stops('B', 32 * s),
        ...stops('A', 3 * m),
        ...stops('B', 3 * m + s),
      ],
    });
  }

  // The Stop payload's own escapes, on a confirmed loop. stop_hook_active follows a block in the same
  // turn, as Claude Code sends it, and the transcript says so.
  const ESC: Record<string, Step[]> = {
    stop_hook_active: [
      { t: 25 * s, op: 'turn', s: 'A', blocked: true },
      { t: 30 * s, op: 'stop', s: 'A', payload: { stop_hook_active: true } },
    ],
    context_limit: [{ t: 30 * s, op: 'stop', s: 'A', payload: { stop_reason: 'context_limit' } }],
    user_cancel: [{ t: 30 * s, op: 'stop', s: 'A', payload: { stop_reason: 'user_cancel' } }],
    user_requested: [{ t: 30 * s, op: 'stop', s: 'A', payload: { user_requested: true } }],
    rate_limit: [{ t: 30 * s, op: 'stop', s: 'A', payload: { stop_reason: 'rate_limit' } }],
    authentication_error: [{ t: 30 * s, op: 'stop', s: 'A', payload: { stop_reason: 'authentication_error' } }],
    end_turn: [{ t: 30 * s, op: 'stop', s: 'A', payload: { stop_reason: 'end_turn' } }],
  };
  for (const kind of ['ralph', 'ulw', 'autopilot'])
    for (const [ename, steps] of Object.entries(ESC))
      out.push({
        name: `escape/${kind}/${ename}`,
        family: 'escape',
        steps: [...start('A', kind, true), ...stops('A', 20 * s), ...steps, ...stops('A', 40 * s)],
      });
  for (const kind of ['ralph', 'ulw'])
    out.push({
      name: `escape/${kind}/transcript-96pct`,
      family: 'escape',
      steps: [
        ...start('A', kind, true),
        ...stops('A', 20 * s),
        { t: 25 * s, op: 'transcript', s: 'A', pct: 96 },
        ...stops('A', 30 * s),
        { t: 35 * s, op: 'transcript', s: 'A', pct: 80 },
        ...stops('A', 40 * s),
      ],
    });

  // Limits and caps.
  out.push({
    name: 'limit/autopilot-21-stops',
    family: 'limit',
    steps: [...start('A', 'autopilot', true), ...stops('A', ...Array.from({ length: 22 }, (_, i) => (20 + i) * s))],
  });
  const patched = (name: string, kind: string, file: string, set: Record<string, unknown>, n: number) =>
    out.push({
      name,
      family: 'limit',
      steps: [
        ...start('A', kind, true),
        ...stops('A', 20 * s),
        { t: 25 * s, op: 'patch', rel: `state/sessions/{A}/${file}`, set },
        ...stops('A', ...Array.from({ length: n }, (_, i) => (30 + i) * s)),
      ],
    });
  patched('limit/ultrawork-48-of-50', 'ulw', 'ultrawork-state.json', { reinforcement_count: 48 }, 3);
  patched('limit/ralph-99-of-100', 'ralph', 'ralph-state.json', { iteration: 99, max_iterations: 100 }, 3);
  patched('limit/ultragoal-49-of-50', 'ultragoal', 'ultragoal-state.json', { reinforcement_count: 49 }, 2);
  patched('limit/autopilot-18-of-20', 'autopilot', 'autopilot-state.json', { reinforcement_count: 18 }, 3);
  out.push({
    name: 'limit/ralph-stale-after-2h',
    family: 'limit',
    steps: [...start('A', 'ralph', true), ...stops('A', 20 * s, 2 * 60 * m + 21 * s, 2 * 60 * m + 22 * s)],
  });
  out.push({
    name: 'limit/ulw-stale-after-2h',
    family: 'limit',
    steps: [...start('A', 'ulw', true), ...stops('A', 20 * s, 2 * 60 * m + 21 * s)],
  });

  // ultraqa, ultrawork and team through state_write, as their skills start them.
  const qa = (max: number, withStart: boolean): Record<string, unknown> => ({
    mode: 'ultraqa',
    active: true,
    session_id: 'A',
    ...(withStart ? { started_at: '2026-06-01T12:00:10.000Z' } : {}),
    state: { cycle: 1, max_cycles: max, goal_type: 'tests', session_id: 'A' },
  });
  for (const withStart of [true, false])
    out.push({
      name: `ultraqa/state_write/${withStart ? 'started_at' : 'no-started_at'}`,
      family: 'state_write',
      steps: [
        { t: 10 * s, op: 'state', tool: 'state_write', args: qa(3, withStart) },
        ...stops('A', 20 * s, 21 * s, 22 * s, 23 * s),
      ],
    });
  out.push({
    name: 'ultraqa/state_write/then-skill-cancel',
    family: 'state_write',
    steps: [
      { t: 10 * s, op: 'state', tool: 'state_write', args: qa(10, true) },
      ...stops('A', 20 * s),
      { t: 25 * s, op: 'skill-cancel', s: 'A' },
      ...stops('A', 26 * s, 3 * m),
    ],
  });
  out.push({
    name: 'ultraqa/state_write/omctop-cancel',
    family: 'state_write',
    steps: [
      { t: 10 * s, op: 'state', tool: 'state_write', args: qa(10, true) },
      ...stops('A', 20 * s),
      { t: 25 * s, op: 'omctop-cancel', s: 'A' },
      ...stops('A', 26 * s, 3 * m),
    ],
  });
  out.push({
    name: 'ultrawork/state_write',
    family: 'state_write',
    steps: [
      {
        t: 10 * s,
        op: 'state',
        tool: 'state_write',
        args: {
          mode: 'ultrawork',
          active: true,
          session_id: 'A',
          started_at: '2026-06-01T12:00:10.000Z',
          state: { session_id: 'A' },
        },
      },
      ...stops('A', 20 * s, 21 * s),
    ],
  });
  out.push({
    name: 'team/state_write',
    family: 'state_write',
    steps: [
      {
        t: 10 * s,
        op: 'state',
        tool: 'state_write',
        args: {
          mode: 'team',
          active: true,
          session_id: 'A',
          current_phase: 'team-exec',
          started_at: '2026-06-01T12:00:10.000Z',
          state: { session_id: 'A', team_name: 't1' },
        },
      },
      ...stops('A', 20 * s, 21 * s),
    ],
  });
  out.push({
    name: 'ralph+ulw/linked-then-omctop-mode-ralph',
    family: 'state_write',
    steps: [
      ...start('A', 'ralph', true),
      ...stops('A', 20 * s),
      { t: 30 * s, op: 'omctop-cancel', s: 'A', mode: 'ralph' },
      { t: 31 * s, op: 'state', tool: 'state_list_active', args: { session_id: 'A' } },
      ...stops('A', 32 * s, 3 * m),
    ],
  });
  // A ralph written by state_write (no link field) while the keyword started an ultrawork beside it.
  out.push({
    name: 'ralph-state_write+ulw-keyword/omctop-mode-ralph',
    family: 'state_write',
    steps: [
      ...start('A', 'ulw', true),
      {
        t: 8 * s,
        op: 'state',
        tool: 'state_write',
        args: {
          mode: 'ralph',
          active: true,
          session_id: 'A',
          started_at: '2026-06-01T12:00:08.000Z',
          state: { session_id: 'A', iteration: 1, max_iterations: 10 },
        },
      },
      ...stops('A', 20 * s),
      { t: 30 * s, op: 'omctop-cancel', s: 'A', mode: 'ralph' },
      ...stops('A', 31 * s, 61 * s),
    ],
  });
  return out;
}
