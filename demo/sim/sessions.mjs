// Mode loops as OMC writes them: a ralph loop whose Stop hook bumps the
// iteration, an ultrawork left by OMC 4.x (nothing reinforces it under 5.5.0),
// an autopilot walking its phases, a team-mode state moving through its
// pipeline, sessions that start (pending confirmation first), go stale and
// finish, and OMC 5.6's run ledger lines for the ralph runs (History).
import { cancelInForce, every } from '../lib.mjs';

export const name = 'sessions';

const LEDGER = 'state/runs/ledger.jsonl';

const AUTOPILOT_PHASES = ['expansion', 'planning', 'execution', 'qa', 'validation', 'complete'];
// The pipeline keeps cycling exec → verify → fix while the simulated team runtime works, so the
// session and the Teams pane tell the same story (no "finished" session with a working team).
const TEAM_PHASES = ['team-plan', 'team-prd', 'team-exec', 'team-verify', 'team-fix'];
const TEAM_LOOP_FROM = 2;
const PROMPTS = [
  'ralph: make the checkout e2e tests pass',
  'ralph: migrate the cart store to zustand',
  'ralph: remove every any from src/api',
  'ralph: fix the flaky Vitest timers',
];

export function start(ctx) {
  const project = ctx.projectDir;
  const sessionDir = (sid) => `state/sessions/${sid}`;
  const stops = [];
  // OMC 5.6's run ledger: a start line when a watched loop starts, an end line with its outcome when it ends.
  const ledger = (sid, event, extra = {}, ms = Date.now()) =>
    ctx.appendJsonLine(LEDGER, { ts: ctx.iso(ms), run: 'ralph', sessionId: sid, event, ...extra });
  // A few runs from earlier today, so History has rows from the start.
  const HOUR = 3600_000;
  for (const [ago, took, outcome, closeout] of [
    [5 * HOUR, 40 * 60_000, 'completed', true],
    [4 * HOUR, 12 * 60_000, 'cancelled', false],
    [3 * HOUR, 25 * 60_000, 'failed', false],
    [2 * HOUR, 55 * 60_000, 'completed', true],
  ]) {
    const sid = ctx.uuid();
    ledger(sid, 'start', {}, Date.now() - ago);
    ledger(sid, 'end', { outcome, closeoutWritten: closeout }, Date.now() - ago + took);
  }
  const marker = (sid, ms) =>
    ctx.writeJson(`${sessionDir(sid)}/session-started.json`, {
      session_id: sid,
      started_at: ctx.iso(ms),
      cwd: project,
      pid: process.pid,
    });

  // A ralph loop, driven the way the Stop hook drives it.
  const startRalph = (sid, prompt, max = 10, pending = false) => {
    const t = Date.now();
    marker(sid, t);
    ctx.writeJson(`${sessionDir(sid)}/ralph-state.json`, {
      active: true,
      iteration: 1,
      max_iterations: max,
      started_at: ctx.iso(t),
      prompt,
      session_id: sid,
      project_path: project,
      ...(pending ? { awaiting_confirmation: true, awaiting_confirmation_set_at: ctx.iso(t) } : {}),
      last_checked_at: ctx.iso(t),
    });
    ledger(sid, 'start');
  };
  const tickRalph = (sid) => {
    const rel = `${sessionDir(sid)}/ralph-state.json`;
    const s = ctx.readJson(rel);
    if (!s || s.active !== true) return false; // cancelled (deleted) or finished
    if (cancelInForce(ctx, sid)) return true; // the Stop hook lets the agent stop: no iteration
    const now = ctx.iso();
    if (s.awaiting_confirmation) {
      // pre-tool-enforcer clears the flag when the Skill call confirms the mode.
      delete s.awaiting_confirmation;
      ctx.writeJson(rel, { ...s, last_checked_at: now });
      return true;
    }
    if (s.iteration >= s.max_iterations) {
      ctx.writeJson(rel, { ...s, active: false, current_phase: 'complete', completed_at: now, last_checked_at: now });
      ledger(sid, 'end', { outcome: 'completed', closeoutWritten: false });
      return false;
    }
    ctx.writeJson(rel, { ...s, iteration: s.iteration + 1, last_checked_at: now });
    return true;
  };

  // 1. A long ralph loop that ticks every ~3 s.
  const ralphA = ctx.uuid();
  startRalph(ralphA, PROMPTS[0], 40);
  stops.push(every(ctx, 3000, () => tickRalph(ralphA)));

  // 2. An ultrawork left by OMC 4.x: 5.5.0's Stop hook no longer reads ultrawork, so nothing
  //    reinforces it (omc-top: "not enforced: retired in 5.5.0"). It never moves.
  const ulw = ctx.uuid();
  marker(ulw, Date.now());
  ctx.writeJson(`${sessionDir(ulw)}/ultrawork-state.json`, {
    active: true,
    started_at: ctx.iso(),
    original_prompt: 'ulw: refactor the api client to zod-validated responses',
    session_id: ulw,
    project_path: project,
    reinforcement_count: 5,
    last_checked_at: ctx.iso(),
  });

  // 2b. A ralph written through OMC's state_write tool: only _meta.sessionId, no top-level
  //     session_id, so 5.5.0's Stop hook ignores it (state_list_active still lists it).
  const sw = ctx.uuid();
  marker(sw, Date.now());
  ctx.writeJson(`${sessionDir(sw)}/ralph-state.json`, {
    active: true,
    iteration: 2,
    max_iterations: 10,
    started_at: ctx.iso(),
    prompt: 'ralph: written by state_write (no session_id)',
    _meta: { mode: 'ralph', sessionId: sw, updatedAt: ctx.iso(), updatedBy: 'state_write_tool' },
  });

  // 3. An autopilot walking its phases.
  const ap = ctx.uuid();
  marker(ap, Date.now());
  const apRel = `${sessionDir(ap)}/autopilot-state.json`;
  ctx.writeJson(apRel, {
    active: true,
    phase: 'expansion',
    current_phase: 'expansion',
    iteration: 1,
    max_iterations: 10,
    originalIdea: 'Build a one-page checkout with address autocomplete',
    execution: {
      ralph_iterations: 0,
      ultrawork_active: false,
      tasks_completed: 0,
      tasks_total: 9,
      files_created: [],
      files_modified: [],
    },
    started_at: ctx.iso(),
    completed_at: null,
    session_id: ap,
    project_path: project,
    reinforcement_count: 0,
    last_checked_at: ctx.iso(),
  });
  stops.push(
    every(ctx, 5000, () => {
      const s = ctx.readJson(apRel);
      if (!s || s.active !== true || cancelInForce(ctx, ap)) return;
      const exec = { ...(s.execution ?? {}) };
      let phase = s.phase;
      if (phase === 'execution' && exec.tasks_completed < exec.tasks_total) {
        exec.tasks_completed += 1;
      } else {
        phase = AUTOPILOT_PHASES[Math.min(AUTOPILOT_PHASES.indexOf(phase) + 1, AUTOPILOT_PHASES.length - 1)];
      }
      const done = phase === 'complete';
      ctx.writeJson(apRel, {
        ...s,
        phase,
        current_phase: phase,
        iteration: Math.min(s.iteration + 1, s.max_iterations),
        // The Stop hook's own bookkeeping: one reinforcement per Stop, at most 20.
        reinforcement_count: Math.min((s.reinforcement_count ?? 0) + 1, 20),
        execution: exec,
        last_checked_at: ctx.iso(),
        ...(done ? { active: false, completed_at: ctx.iso() } : {}),
      });
    }),
  );

  // 4. Team mode state (the runtime under state/team/ is simulated separately).
  const team = ctx.uuid();
  marker(team, Date.now());
  const teamRel = `${sessionDir(team)}/team-state.json`;
  let teamStep = 0;
  let teamStops = 0;
  const writeTeam = () =>
    ctx.writeJson(teamRel, {
      active: true,
      current_phase: TEAM_PHASES[teamStep],
      // The Stop hook reinforces team mode at most 20 times; the demo's pipeline resets it per phase.
      reinforcement_count: teamStops,
      started_at: ctx.iso(Date.now() - 60_000),
      team_name: 'demo-team',
      agent_count: 3,
      fix_loop_count: Math.min(3, Math.floor(teamStops / TEAM_PHASES.length)),
      max_fix_loops: 3,
      session_id: team,
      last_checked_at: ctx.iso(),
      _meta: { mode: 'team', sessionId: team, updatedAt: ctx.iso(), updatedBy: 'state_write_tool' },
    });
  writeTeam();
  stops.push(
    every(ctx, 9000, () => {
      if (!ctx.exists(teamRel) || cancelInForce(ctx, team)) return;
      teamStep = teamStep + 1 < TEAM_PHASES.length ? teamStep + 1 : TEAM_LOOP_FROM;
      teamStops = (teamStops + 1) % 20;
      writeTeam();
    }),
  );

  // 5. A session that was abandoned hours ago: stale by OMC's 2 h rule.
  const stale = ctx.uuid();
  const threeHoursAgo = Date.now() - 3 * 3600_000;
  marker(stale, threeHoursAgo);
  ctx.writeJson(`${sessionDir(stale)}/ralph-state.json`, {
    active: true,
    iteration: 6,
    max_iterations: 10,
    started_at: ctx.iso(threeHoursAgo),
    last_checked_at: ctx.iso(threeHoursAgo + 20 * 60_000),
    prompt: 'ralph: upgrade to React 19 (abandoned when the laptop slept)',
    session_id: stale,
    project_path: project,
  });

  // 6. New sessions keep arriving: each starts pending (awaiting confirmation),
  //    runs a short loop and finishes.
  let n = 1;
  const live = new Set();
  const spawnSession = () => {
    const sid = ctx.uuid();
    startRalph(sid, PROMPTS[n % PROMPTS.length], 4 + (n % 4), true);
    n += 1;
    live.add(sid);
  };
  spawnSession();
  stops.push(every(ctx, 20000, spawnSession));
  stops.push(
    every(ctx, 2500, () => {
      for (const sid of [...live]) if (!tickRalph(sid)) live.delete(sid);
    }),
  );

  return () => stops.forEach((s) => s());
}
