/**
 * Writes an OMC-shaped team runtime (the layout of OMC's src/team/state-paths.ts,
 * the shapes OMC's writers produce in the real fixture): config.json
 * built from the fixture's (which OMC's saveTeamConfig wrote), task files,
 * worker heartbeat/status files, phase-state.json and events.jsonl. OMC's own
 * strict readers accept the result, which the tests check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURE_TREE, writeOmcJson } from './fixtures.js';

export type Status = 'pending' | 'blocked' | 'in_progress' | 'completed' | 'failed';

export interface GenOptions {
  root: string;
  name: string;
  workers: number;
  tasks: number;
  /** Status of task i (1-based); default cycles through a realistic mix. */
  status?: (i: number) => Status;
  now: number;
  /** Heartbeat age of worker w (1-based), ms. */
  beatAgeMs?: (w: number) => number;
  leaderSessionId?: string;
  events?: number;
}

export const MIX: Status[] = [
  'completed',
  'completed',
  'in_progress',
  'pending',
  'completed',
  'failed',
  'pending',
  'blocked',
  'completed',
  'pending',
];

export function generateTeam(o: GenOptions): { dir: string; statuses: Status[] } {
  const dir = path.join(o.root, 'state', 'team', o.name);
  const base = JSON.parse(fs.readFileSync(path.join(FIXTURE_TREE, 'state/team/fix-ts-errors/config.json'), 'utf8'));
  const proto = base.workers[0];
  const workers = Array.from({ length: o.workers }, (_, i) => ({
    ...proto,
    name: `worker-${i + 1}`,
    index: i + 1,
    pane_id: `%${30 + i}`,
    team_state_root: dir,
  }));
  const iso = (ms: number) => new Date(ms).toISOString();
  writeOmcJson(path.join(dir, 'config.json'), {
    ...base,
    name: o.name,
    task: `generated team ${o.name}`,
    worker_count: o.workers,
    workers,
    next_task_id: o.tasks + 1,
    team_state_root: dir,
    created_at: iso(o.now - 3_600_000),
    ...(o.leaderSessionId ? { leader_session_id: o.leaderSessionId } : {}),
  });
  const statuses: Status[] = [];
  for (let i = 1; i <= o.tasks; i++) {
    const status = o.status?.(i) ?? (MIX[(i - 1) % MIX.length] as Status);
    statuses.push(status);
    const owner = status === 'pending' ? undefined : `worker-${((i - 1) % o.workers) + 1}`;
    const dep = i > 1 && i % 7 === 0 ? [String(i - 1)] : [];
    writeOmcJson(path.join(dir, 'tasks', `task-${i}.json`), {
      subject: `Generated task ${i}`,
      description: `Description of task ${i}`,
      status,
      id: String(i),
      depends_on: dep,
      ...(dep.length ? { blocked_by: dep } : {}),
      version: status === 'pending' ? 1 : 2,
      created_at: iso(o.now - 3_000_000 + i),
      ...(owner ? { owner } : {}),
      ...(status === 'in_progress' ? { claim: { owner, token: `tok-${i}`, leased_until: iso(o.now + 600_000) } } : {}),
      ...(status === 'completed' ? { completed_at: iso(o.now - 60_000), result: `done ${i}` } : {}),
      ...(status === 'failed' ? { error: `failed ${i}` } : {}),
    });
  }
  for (let w = 1; w <= o.workers; w++) {
    const wd = path.join(dir, 'workers', `worker-${w}`);
    const age = o.beatAgeMs?.(w) ?? 5_000 * w;
    writeOmcJson(path.join(wd, 'heartbeat.json'), {
      pid: process.pid,
      last_turn_at: iso(o.now - age),
      turn_count: w,
      alive: true,
    });
    const working = statuses.findIndex((s, i) => s === 'in_progress' && (i % o.workers) + 1 === w);
    writeOmcJson(
      path.join(wd, 'status.json'),
      working >= 0
        ? { state: 'working', current_task_id: String(working + 1), updated_at: iso(o.now - age) }
        : { state: 'idle', reason: 'no claimable tasks', updated_at: iso(o.now - age) },
    );
  }
  writeOmcJson(path.join(dir, 'phase-state.json'), {
    current_phase: 'team-exec',
    max_fix_attempts: 3,
    current_fix_attempt: 1,
    transitions: [
      { from: 'team-plan', to: 'team-prd', at: iso(o.now - 3_000_000) },
      { from: 'team-prd', to: 'team-exec', at: iso(o.now - 2_900_000), reason: 'plan approved' },
    ],
    updated_at: iso(o.now - 2_900_000),
  });
  const lines: string[] = [];
  for (let e = 0; e < (o.events ?? 50); e++) {
    lines.push(
      JSON.stringify({
        event_id: `ev-${e}`,
        team: o.name,
        created_at: iso(o.now - 100_000 + e),
        type: 'task_completed',
        worker: `worker-${(e % o.workers) + 1}`,
        task_id: String((e % o.tasks) + 1),
        message_id: null,
      }),
    );
  }
  fs.writeFileSync(path.join(dir, 'events.jsonl'), lines.map((l) => l + '\n').join(''));
  return { dir, statuses };
}
