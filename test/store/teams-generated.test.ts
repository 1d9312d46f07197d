/**
 * Generated teams of 8 workers and 200 tasks: omc-top must reach OMC's
 * conclusions (getTeamSummary, list-tasks + inferPhase, the HUD mission board)
 * and follow changes live, reading events.jsonl incrementally.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from '../helpers/it.js';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import type { TeamView } from '../../src/store/teams/model.js';
import { inferTeamPhase, parseTask, workerLiveness } from '../../src/store/teams/omc-team-rules.js';
import { waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { omcTeam } from '../helpers/omc-team.js';
import { generateTeam, type Status } from '../helpers/team-gen.js';

function open(
  newStore: (o: OmcStoreOptions) => OmcStore,
  root: string,
  watch: 'none' | 'auto' = 'none',
  clock?: () => number,
) {
  const store = newStore({ root, watch, clock, teams: { pidAlive: () => true } });
  store.start();
  return { teams: store.teams, store };
}

describe('a generated team of 8 workers and 200 tasks', () => {
  it("matches OMC's getTeamSummary, list-tasks + inferPhase and the mission board", async ({
    emptyProject: p,
    newStore,
  }) => {
    const now = Date.now();
    generateTeam({
      root: p.root,
      name: 'big-team',
      workers: 8,
      tasks: 200,
      now,
      beatAgeMs: (w) => (w === 8 ? 10 * 60_000 : 2_000 * w),
    });
    const omc = await omcTeam();
    const summary = await omc.getTeamSummary('big-team', p.dir);
    const listed = await omc.teamListTasks('big-team', p.dir);
    const board = omc.refreshMissionBoardState(
      p.dir,
      { enabled: true, maxAgentsPerMission: 8, maxMissions: 5 },
      'gen-session',
    );
    const mission = board.missions.find((m: any) => m.teamName === 'big-team');

    const { teams } = open(newStore, p.root);
    const team = teams.getSnapshot().teams.find((t) => t.name === 'big-team') as TeamView;
    expect(team.problems).toEqual([]);
    expect(team.counts).toEqual(summary.tasks);
    expect(team.counts.total).toBe(200);
    expect(team.phase).toBe(omc.inferPhase(listed.map((t: any) => ({ status: t.status }))));
    expect(team.tasks.map((t) => t.id)).toEqual(listed.map((t: any) => t.id));
    expect(team.workers.map((w) => [w.name, w.heartbeat?.reportedAlive])).toEqual(
      summary.workers.map((w: any) => [w.name, w.alive]),
    );
    expect(team.board).toBe(mission.status);
    expect(team.workers.map((w) => [w.name, w.board])).toEqual(mission.agents.map((a: any) => [a.name, a.status]));
    // Worker 8 last beat 10 minutes ago: OMC still says alive (what it wrote); omc-top flags it.
    const w8 = team.workers[7];
    expect(w8 && workerLiveness(w8, now, teams.heartbeatStaleMs)).toMatchObject({ alive: false, flag: 'not-beating' });
    expect(team.workers.slice(0, 7).every((w) => workerLiveness(w, now, teams.heartbeatStaleMs).alive)).toBe(true);
  });

  it('follows task claims, completions and new events live, and reads events.jsonl incrementally', async ({
    emptyProject: p,
    newStore,
  }) => {
    const now = Date.now();
    const { dir } = generateTeam({ root: p.root, name: 'live-team', workers: 8, tasks: 200, now, events: 2_000 });
    const { teams, store } = open(newStore, p.root, 'auto');
    const first = teams.getSnapshot().teams[0] as TeamView;
    expect(first.eventsSeen).toBeGreaterThan(0);
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });

    // A worker claims pending task 4 and finishes task 3.
    const t4 = JSON.parse(fs.readFileSync(path.join(dir, 'tasks/task-4.json'), 'utf8'));
    writeOmcJson(path.join(dir, 'tasks/task-4.json'), {
      ...t4,
      status: 'in_progress',
      owner: 'worker-2',
      version: 2,
      claim: { owner: 'worker-2', token: 'x', leased_until: new Date(now + 900_000).toISOString() },
    });
    const t3 = JSON.parse(fs.readFileSync(path.join(dir, 'tasks/task-3.json'), 'utf8'));
    writeOmcJson(path.join(dir, 'tasks/task-3.json'), {
      ...t3,
      status: 'completed',
      completed_at: new Date().toISOString(),
      version: 3,
    });
    fs.appendFileSync(
      path.join(dir, 'events.jsonl'),
      JSON.stringify({
        event_id: 'new-1',
        team: 'live-team',
        created_at: new Date().toISOString(),
        type: 'task_completed',
        worker: 'worker-3',
        task_id: '3',
      }) + '\n',
    );
    const counts = { ...first.counts, pending: first.counts.pending - 1, completed: first.counts.completed + 1 };
    const updated = await waitFor(
      () => {
        const t = teams.getSnapshot().teams[0];
        return t &&
          t.counts.completed === counts.completed &&
          t.counts.pending === counts.pending &&
          t.events.at(-1)?.taskId === '3'
          ? t
          : null;
      },
      { what: 'claim + completion + event' },
    );
    expect(updated.counts).toEqual(counts);
    expect(updated.tasks.find((t) => t.id === '4')).toMatchObject({ status: 'in_progress', owner: 'worker-2' });
    expect(updated.eventsSeen).toBe(first.eventsSeen + 1);

    // A new task file appears (create-task) and is counted.
    writeOmcJson(path.join(dir, 'tasks/task-201.json'), {
      subject: 'late task',
      description: 'd',
      status: 'pending',
      id: '201',
      depends_on: [],
      version: 1,
      created_at: new Date().toISOString(),
    });
    await waitFor(() => teams.getSnapshot().teams[0]?.counts.total === 201, { what: 'task 201' });
  });
});

describe("omc-top's phase and counting rules equal OMC's for any task mix", () => {
  const statusArb = fc.constantFrom<Status>('pending', 'blocked', 'in_progress', 'completed', 'failed');
  const taskArb = fc.record({
    status: statusArb,
    permanentlyFailed: fc.boolean(),
    retryCount: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    maxRetries: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  });

  it('inferPhase, with and without metadata', async () => {
    const omc = await omcTeam();
    fc.assert(
      fc.property(fc.array(taskArb, { maxLength: 12 }), (arr) => {
        const raw = arr.map((t, i) => ({
          id: String(i + 1),
          subject: 's',
          description: 'd',
          created_at: '2026-01-01T00:00:00.000Z',
          status: t.status,
          metadata: {
            permanentlyFailed: t.permanentlyFailed,
            ...(t.retryCount !== undefined ? { retryCount: t.retryCount } : {}),
            ...(t.maxRetries !== undefined ? { maxRetries: t.maxRetries } : {}),
          },
        }));
        const parsed = raw.map((r) => {
          const v = parseTask(r, r.id);
          if (!('task' in v)) throw new Error(v.error);
          return v.task;
        });
        expect(inferTeamPhase(parsed, true)).toBe(omc.inferPhase(raw));
        expect(inferTeamPhase(parsed, false)).toBe(omc.inferPhase(raw.map((r) => ({ status: r.status }))));
      }),
      { numRuns: 500 },
    );
  });
});
