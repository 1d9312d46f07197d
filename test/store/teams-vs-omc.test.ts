/**
 * omc-top's teams domain must agree with OMC's own team readers on the real
 * fixture: the recorded reader outputs (readers/team.json, the HUD mission
 * board in readers/hud_omc_state.json) and OMC 5.5.0's dist run live on a copy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import type { TeamView } from '../../src/store/teams/model.js';
import { workerLiveness } from '../../src/store/teams/omc-team-rules.js';
import {
  FIXTURE_TREE,
  READERS_CAPTURED_AT,
  makeProject,
  readReader,
  SESSION,
  type TempProject,
} from '../helpers/fixtures.js';
import { omcTeam } from '../helpers/omc-team.js';

const TEAM = 'fix-ts-errors';

function fixtureStore(now: number, pidAlive: (pid: number) => boolean | null = () => true) {
  const store = new OmcStore({
    root: FIXTURE_TREE,
    watch: 'none',
    clock: () => now,
    teams: { pidAlive, heartbeatStaleMs: 180_000 },
  });
  const teams = store.teams;
  store.start();
  return { store, teams };
}

describe('teams on the real OMC fixture', () => {
  const { store, teams } = fixtureStore(READERS_CAPTURED_AT);
  const team = teams.getSnapshot().teams.find((t) => t.name === TEAM) as TeamView;
  afterAll(() => store.close());

  it('finds the one team runtime with no problems', () => {
    expect(teams.getSnapshot().teams.map((t) => t.name)).toEqual([TEAM]);
    expect(team.problems).toEqual([]);
    expect(teams.problems()).toEqual([]);
  });

  it("counts tasks exactly as OMC's get-summary and list-tasks did", () => {
    const summary = readReader('team.json')['get-summary'].data.summary;
    expect(team.counts).toEqual(summary.tasks);
    const listed = readReader('team.json')['list-tasks'].data.tasks;
    expect(team.tasks.map((t) => [t.id, t.status, t.owner])).toEqual(
      listed.map((t: any) => [t.id, t.status, t.owner ?? null]),
    );
  });

  it("reports each worker's alive flag and last turn as getTeamSummary does (alive = what the worker wrote)", () => {
    const summary = readReader('team.json')['get-summary'].data.summary;
    expect(team.workers.map((w) => w.name)).toEqual(summary.workers.map((w: any) => w.name));
    for (const w of summary.workers) {
      const ours = team.workers.find((x) => x.name === w.name);
      expect(ours?.heartbeat?.reportedAlive).toBe(w.alive);
      expect(ours?.heartbeat?.lastBeatMs).toBe(Date.parse(w.lastTurnAt));
    }
    expect(team.workers.filter((w) => w.nonReporting).map((w) => w.name)).toEqual(summary.nonReportingWorkers);
  });

  it("agrees with the HUD mission board: team status, counts, each worker's status and current step", () => {
    const mission = readReader('hud_omc_state.json').mission_board.team.readMissionBoardState.missions[0];
    expect(team.board).toBe(mission.status);
    const c = mission.taskCounts;
    expect(team.counts).toEqual({
      total: c.total,
      pending: c.pending,
      blocked: c.blocked,
      in_progress: c.inProgress,
      completed: c.completed,
      failed: c.failed,
    });
    expect(team.workers.map((w) => [w.name, w.board])).toEqual(mission.agents.map((a: any) => [a.name, a.status]));
    // The mission board's current step is "#<id> <subject>" for working workers.
    for (const a of mission.agents.filter((x: any) => x.status === 'running')) {
      const w = team.workers.find((x) => x.name === a.name);
      expect(a.currentStep).toBe(`#${w?.currentTaskId} ${w?.currentTaskSubject}`);
    }
  });

  it('links the team to the session whose team-state.json names it, and reads phase history and fix loop', () => {
    expect(team.owner).toMatchObject({ sessionId: SESSION.team, source: 'team-state.json', modeActive: true });
    expect(team.pipelinePhase).toBe('team-exec');
    expect(team.phaseHistory.map((p) => p.phase)).toEqual(['team-plan', 'team-prd', 'team-exec']);
    expect(team.phaseHistory[2]).toMatchObject({
      atMs: Date.parse('2026-11-30T17:45:23.314Z'),
      reason: 'plan approved',
    });
    expect([team.fixAttempt, team.maxFixAttempts]).toEqual([0, 3]);
    expect(team.tasks.find((t) => t.id === '5')).toMatchObject({
      status: 'pending',
      blockedBy: ['3'],
      openBlockers: ['3'],
    });
  });

  it('tails events.jsonl', () => {
    expect(team.eventsSeen).toBe(6);
    expect(team.events.map((e) => e.type)).toEqual([
      'task_completed',
      'task_failed',
      'message_received',
      'task_completed',
      'message_received',
      'worker_idle',
    ]);
    expect(team.events[1]).toMatchObject({
      worker: 'worker-2',
      taskId: '2',
      text: expect.stringContaining('formatCents'),
    });
  });

  it("flags worker-3, whose last heartbeat is 25 min old, though OMC's summary still calls it alive", () => {
    const staleMs = teams.getSnapshot().heartbeatStaleMs;
    const verdict = Object.fromEntries(
      team.workers.map((w) => [w.name, workerLiveness(w, READERS_CAPTURED_AT, staleMs)]),
    );
    expect(verdict['worker-1']).toMatchObject({ alive: true, flag: null });
    expect(verdict['worker-2']).toMatchObject({ alive: true, flag: null });
    expect(verdict['worker-3']).toMatchObject({ alive: false, flag: 'not-beating', late: true });
  });

  it('flags a worker whose pid is gone even while its heartbeat is fresh', () => {
    const { store: s2, teams: t2 } = fixtureStore(READERS_CAPTURED_AT, () => false);
    const w1 = t2.getSnapshot().teams[0]?.workers[0];
    expect(w1 && workerLiveness(w1, READERS_CAPTURED_AT, 180_000)).toMatchObject({ alive: false, flag: 'pid-gone' });
    void s2.close();
  });

  it('puts a "teams" array with the fixed fields into --json', () => {
    const doc = buildJsonReport({
      root: FIXTURE_TREE,
      rootRule: 'test',
      notices: [],
      sessions: store.sessions.getSnapshot(),
      extra: store.reportExtras(),
    }) as any;
    expect(doc.teams).toHaveLength(1);
    const t = doc.teams[0];
    expect(Object.keys(t).slice(0, 4)).toEqual(['name', 'phase', 'workers', 'tasks']);
    expect(t).toMatchObject({
      name: TEAM,
      phase: 'executing',
      tasks: { pending: 1, blocked: 0, in_progress: 2, completed: 2, failed: 1 },
    });
    expect(t.workers).toEqual([
      expect.objectContaining({ name: 'worker-1', status: 'idle', heartbeat_age_s: 42, alive: true }),
      expect.objectContaining({ name: 'worker-2', status: 'working', heartbeat_age_s: 122, alive: true }),
      expect.objectContaining({
        name: 'worker-3',
        status: 'working',
        heartbeat_age_s: 1502,
        alive: false,
        not_beating: true,
        reported_alive: true,
      }),
    ]);
    expect(t.owner_session).toBe(SESSION.team);
    // Each task's body (what its worker was asked to do) is what OMC's list-tasks read; the count is the whole log's.
    const listed = readReader('team.json')['list-tasks'].data.tasks;
    expect(t.task_list.map((k: any) => [k.id, k.description])).toEqual(listed.map((k: any) => [k.id, k.description]));
    expect(t.events_seen_is_total).toBe(true);
  });
});

describe("teams vs OMC 5.5.0's readers run live on a copy of the fixture", () => {
  let p: TempProject;
  beforeAll(() => {
    p = makeProject({ withFixture: true });
  });
  afterAll(() => p.cleanup());

  it('getTeamSummary, list-tasks + inferPhase and the phase omc-top reports agree', async () => {
    const omc = await omcTeam();
    const summary = await omc.getTeamSummary(TEAM, p.dir);
    const tasks = await omc.teamListTasks(TEAM, p.dir);
    const store = new OmcStore({ root: p.root, watch: 'none', teams: { pidAlive: () => true } });
    const teams = store.teams;
    store.start();
    const team = teams.getSnapshot().teams[0] as TeamView;
    expect(team.counts).toEqual(summary.tasks);
    // `omc team status` (monitorTeamV2) infers the phase from tasks without metadata.
    expect(team.phase).toBe(omc.inferPhase(tasks.map((t: any) => ({ status: t.status }))));
    expect(team.workers.map((w) => [w.name, w.heartbeat?.reportedAlive])).toEqual(
      summary.workers.map((w: any) => [w.name, w.alive]),
    );
    await store.close();
  });
});
