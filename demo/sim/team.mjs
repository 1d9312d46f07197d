// Team runtimes as OMC writes them under state/team/<team>/ (OMC's src/team/state-paths.ts):
// "demo-team" (the team sessions.mjs's team-state.json names, so its session links here)
// whose workers heartbeat every turn, claim tasks whose dependencies are done, finish or
// fail them and append events to events.jsonl — and answer shutdown requests the way
// OMC's inbox instructions ask; and "night-shift", a team that went silent: its workers
// still say alive:true but stopped beating, and one worker's process is gone.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { every } from '../lib.mjs';

export const name = 'team';

const SUBJECTS = [
  'Type the checkout reducer',
  'Fix TS2345 in CartSummary.tsx',
  'Narrow the PaymentResult union',
  'Remove non-null assertions in main.tsx',
  'Add a regression test for cents rounding',
  'Make getJson<T> take a zod schema',
  'Split AddressForm into fields',
  'Debounce the address autocomplete',
  'Add aria labels to the stepper',
  'Snapshot the order summary',
  'Retry idempotent POSTs once',
  'Move currency formatting to Intl',
];

/** A pid that certainly is not running: a child that already exited. */
function deadPid() {
  const r = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return r.pid ?? 999_999;
}

/** A config.json of the shape OMC's startTeamV2 builds (trimmed to what readers use). */
function teamConfig(ctx, team, workers, nTasks, createdMs) {
  const root = ctx.abs(`state/team/${team}`);
  return {
    name: team,
    state_revision: 1,
    task: `${team}: ${SUBJECTS.slice(0, 3).join('; ')}…`,
    agent_type: 'claude',
    worker_launch_mode: 'interactive',
    worker_count: workers,
    max_workers: 20,
    workers: Array.from({ length: workers }, (_, i) => ({
      name: `worker-${i + 1}`,
      index: i + 1,
      role: i === 0 ? 'executor' : i === 1 ? 'test-engineer' : 'claude',
      worker_cli: 'claude',
      assigned_tasks: [],
      working_dir: ctx.projectDir,
      team_state_root: root,
      pane_id: `%${40 + i}`,
    })),
    created_at: ctx.iso(createdMs),
    tmux_session: `omc-team-${team}`,
    next_task_id: nTasks + 1,
    leader_cwd: ctx.projectDir,
    team_state_root: root,
    workspace_mode: 'single',
    worktree_mode: 'disabled',
    lifecycle_state: 'active',
  };
}

/**
 * One simulated team. `tick(now)` advances every worker by one turn, so tests
 * can drive it without timers; `start` below drives it with jittered timers.
 */
export function createTeam(ctx, opts) {
  const { team, workers, tasks: nTasks } = opts;
  const base = `state/team/${team}`;
  const events = ctx.abs(`${base}/events.jsonl`);
  const turns = new Map();
  let round = 0;

  const appendEvent = (ev, now) => {
    fs.mkdirSync(path.dirname(events), { recursive: true });
    // OMC appends with O_APPEND, one JSON object per line.
    fs.appendFileSync(
      events,
      JSON.stringify({ event_id: ctx.uuid(), team, created_at: ctx.iso(now), message_id: null, ...ev }) + '\n',
    );
  };
  const taskRel = (id) => `${base}/tasks/task-${id}.json`;
  const readTask = (id) => ctx.readJson(taskRel(id));
  const beat = (w, now, pid = process.pid, alive = true) => {
    const n = (turns.get(w) ?? 0) + 1;
    turns.set(w, n);
    ctx.writeJson(`${base}/workers/${w}/heartbeat.json`, { pid, last_turn_at: ctx.iso(now), turn_count: n, alive });
  };
  const status = (w, s, now) => ctx.writeJson(`${base}/workers/${w}/status.json`, { ...s, updated_at: ctx.iso(now) });
  const phase = (current, transitions, now) =>
    ctx.writeJson(`${base}/phase-state.json`, {
      current_phase: current,
      max_fix_attempts: 3,
      current_fix_attempt: opts.fixAttempt ?? 0,
      transitions,
      updated_at: ctx.iso(now),
    });

  const seed = (now) => {
    round += 1;
    ctx.remove(`${base}/tasks`);
    ctx.writeJson(`${base}/config.json`, teamConfig(ctx, team, workers, nTasks, now - 60_000));
    for (let i = 1; i <= nTasks; i++) {
      const deps = i > 2 && i % 4 === 0 ? [String(i - 1)] : [];
      ctx.writeJson(taskRel(i), {
        subject: SUBJECTS[(i - 1 + round) % SUBJECTS.length],
        description: `Round ${round}, task ${i}`,
        status: 'pending',
        id: String(i),
        depends_on: deps,
        ...(deps.length ? { blocked_by: deps } : {}),
        version: 1,
        created_at: ctx.iso(now - 50_000 + i),
      });
    }
    phase(
      'team-exec',
      [
        { from: 'team-plan', to: 'team-prd', at: ctx.iso(now - 40_000) },
        { from: 'team-prd', to: 'team-exec', at: ctx.iso(now - 30_000), reason: 'plan approved' },
      ],
      now,
    );
    for (let w = 1; w <= workers; w++) {
      // A worker that was shut down stays down across rounds.
      if (ctx.readJson(`${base}/workers/worker-${w}/status.json`)?.state === 'done') continue;
      status(`worker-${w}`, { state: 'idle', reason: 'waiting for tasks' }, now);
    }
  };

  const all = () => Array.from({ length: nTasks }, (_, i) => readTask(i + 1)).filter(Boolean);

  /** One turn of one worker: answer a shutdown request, or work on / claim a task. */
  const turn = (w, now) => {
    const wdir = `${base}/workers/${w}`;
    const st = ctx.readJson(`${wdir}/status.json`) ?? {};
    if (st.state === 'done') return; // shut down: no more turns, no more heartbeats
    const req = ctx.readJson(`${wdir}/shutdown-request.json`);
    const ack = ctx.readJson(`${wdir}/shutdown-ack.json`);
    if (req && !(ack && Date.parse(ack.updated_at) >= Date.parse(req.requested_at))) {
      ctx.writeJson(`${wdir}/shutdown-ack.json`, {
        status: 'accept',
        reason: 'demo worker wrapping up',
        updated_at: ctx.iso(now),
      });
      appendEvent({ type: 'shutdown_ack', worker: w, reason: 'accept' }, now);
      status(w, { state: 'done', reason: 'shut down on request' }, now);
      beat(w, now, process.pid, false);
      return;
    }
    beat(w, now);
    const tasks = all();
    const mine = tasks.find((t) => t.status === 'in_progress' && t.owner === w);
    if (mine) {
      // Work takes a few turns; one task in eight fails.
      if ((turns.get(w) ?? 0) % 3 !== 0) return;
      const failed = Number(mine.id) % 8 === 5;
      const { claim, ...rest } = mine;
      void claim;
      ctx.writeJson(taskRel(mine.id), {
        ...rest,
        status: failed ? 'failed' : 'completed',
        version: mine.version + 1,
        ...(failed
          ? { error: 'tsc still reports 2 errors after the change' }
          : { completed_at: ctx.iso(now), result: `Done: ${mine.subject}` }),
      });
      appendEvent(
        {
          type: failed ? 'task_failed' : 'task_completed',
          worker: w,
          task_id: mine.id,
          ...(failed ? { reason: 'tsc still reports 2 errors' } : {}),
        },
        now,
      );
      status(w, { state: 'idle', reason: 'looking for the next task' }, now);
      return;
    }
    const done = new Set(tasks.filter((t) => t.status === 'completed').map((t) => t.id));
    const next = tasks.find((t) => t.status === 'pending' && (t.depends_on ?? []).every((d) => done.has(d)));
    if (next) {
      ctx.writeJson(taskRel(next.id), {
        ...next,
        status: 'in_progress',
        owner: w,
        version: next.version + 1,
        claim: { owner: w, token: ctx.uuid(), leased_until: ctx.iso(now + 15 * 60_000) },
      });
      status(w, { state: 'working', current_task_id: next.id }, now);
      return;
    }
    if (st.state !== 'idle' || st.reason !== 'no claimable tasks') {
      status(w, { state: 'idle', reason: 'no claimable tasks' }, now);
      appendEvent({ type: 'worker_idle', worker: w, reason: 'no claimable tasks' }, now);
    }
  };

  return {
    seed,
    /** True while at least one worker has not been shut down. */
    anyoneLeft: () =>
      Array.from(
        { length: workers },
        (_, i) => ctx.readJson(`${base}/workers/worker-${i + 1}/status.json`)?.state,
      ).some((s) => s !== 'done'),
    tick(now) {
      for (let w = 1; w <= workers; w++) turn(`worker-${w}`, now);
      const tasks = all();
      const terminal = tasks.length > 0 && tasks.every((t) => t.status === 'completed' || t.status === 'failed');
      return { terminal, failed: tasks.some((t) => t.status === 'failed') };
    },
    finish(now, failed) {
      const cur = ctx.readJson(`${base}/phase-state.json`) ?? { transitions: [] };
      const to = failed ? 'team-fix' : 'complete';
      if (cur.current_phase !== to)
        phase(to, [...(cur.transitions ?? []), { from: cur.current_phase ?? 'team-exec', to, at: ctx.iso(now) }], now);
    },
  };
}

/** The silent team: heartbeats that stopped ~2.5 minutes before the demo started, one dead pid. */
export function seedSilentTeam(ctx, now) {
  const team = 'night-shift';
  const base = `state/team/${team}`;
  ctx.writeJson(`${base}/config.json`, teamConfig(ctx, team, 3, 4, now - 3_600_000));
  const gone = deadPid();
  for (let i = 1; i <= 4; i++) {
    const w = `worker-${((i - 1) % 3) + 1}`;
    ctx.writeJson(`${base}/tasks/task-${i}.json`, {
      subject: SUBJECTS[(i + 6) % SUBJECTS.length],
      description: 'Overnight batch',
      status: i === 4 ? 'pending' : 'in_progress',
      id: String(i),
      depends_on: [],
      version: i === 4 ? 1 : 2,
      created_at: ctx.iso(now - 3_500_000 + i),
      ...(i === 4 ? {} : { owner: w, claim: { owner: w, token: ctx.uuid(), leased_until: ctx.iso(now - 600_000) } }),
    });
  }
  for (let w = 1; w <= 3; w++) {
    const last = now - 150_000 - w * 10_000;
    ctx.writeJson(`${base}/workers/worker-${w}/heartbeat.json`, {
      pid: w === 1 ? gone : process.pid,
      last_turn_at: ctx.iso(last),
      turn_count: 40 + w,
      alive: true,
    });
    ctx.writeJson(`${base}/workers/worker-${w}/status.json`, {
      state: 'working',
      current_task_id: String(w),
      updated_at: ctx.iso(last),
    });
  }
  fs.mkdirSync(ctx.abs(base), { recursive: true });
  fs.writeFileSync(
    ctx.abs(`${base}/events.jsonl`),
    JSON.stringify({
      event_id: ctx.uuid(),
      team,
      created_at: ctx.iso(now - 200_000),
      type: 'team_leader_nudge',
      worker: 'leader-fixed',
      reason: 'workers stopped reporting',
      message_id: null,
    }) + '\n',
  );
  ctx.writeJson(`${base}/phase-state.json`, {
    current_phase: 'team-exec',
    max_fix_attempts: 3,
    current_fix_attempt: 0,
    transitions: [{ from: 'team-plan', to: 'team-exec', at: ctx.iso(now - 3_400_000) }],
    updated_at: ctx.iso(now - 3_400_000),
  });
}

export function start(ctx) {
  const sim = createTeam(ctx, { team: 'demo-team', workers: 4, tasks: 12 });
  sim.seed(Date.now());
  seedSilentTeam(ctx, Date.now());
  let restartAt = null;
  const stop = every(ctx, 1500, () => {
    const now = Date.now();
    if (restartAt !== null && now >= restartAt && sim.anyoneLeft()) {
      restartAt = null;
      sim.seed(now);
    }
    // Idle workers keep taking turns (heartbeats, shutdown requests) between rounds too.
    const r = sim.tick(now);
    if (r.terminal && restartAt === null) {
      sim.finish(now, r.failed);
      // Show the finished team for a while, then start the next round.
      restartAt = now + 20_000;
    }
  });
  return stop;
}
