/**
 * The demo's team simulator writes what OMC writes: OMC's own strict readers
 * accept it, its workers heartbeat, claim and finish tasks with events, answer
 * shutdown requests, the silent team gets flagged, and demo-team links to the
 * session that sessions.mjs gives a team-state.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
// @ts-expect-error plain ESM without types
import { makeContext } from '../../demo/lib.mjs';
// @ts-expect-error plain ESM without types
import { start as startSessions } from '../../demo/sim/sessions.mjs';
// @ts-expect-error plain ESM without types
import { createTeam, seedSilentTeam, start as startTeam } from '../../demo/sim/team.mjs';
import type { TeamsDomain } from '../../src/store/teams/domain.js';
import type { TeamView } from '../../src/store/teams/model.js';
import { workerLiveness } from '../../src/store/teams/omc-team-rules.js';
import { requestWorkerShutdown } from '../../src/store/teams/shutdown.js';
import { waitFor } from '../helpers/fixtures.js';
import { omcTeam } from '../helpers/omc-team.js';
import { teamsDomain } from '../helpers/teams-domain.js';

const stops: Array<() => void> = [];
afterEach(() => {
  stops.splice(0).forEach((s) => s());
});

describe('demo/sim/team.mjs', () => {
  it('runs a team whose workers heartbeat, claim and finish tasks, and a team that went silent', async ({
    emptyProject: p,
  }) => {
    const ctx = makeContext(p.root, p.dir);
    // The sim's clock starts now: its heartbeats carry this process's pid, and a heartbeat dated before the process
    // holding the pid started is not that process's (store/teams: a pid given to a later process is a dead worker).
    const t0 = Date.now();
    const sim = createTeam(ctx, { team: 'demo-team', workers: 4, tasks: 12 });
    sim.seed(t0);
    seedSilentTeam(ctx, t0);
    let now = t0;
    const domain = () => {
      const d = teamsDomain({ root: p.root, clock: () => now });
      d.scan();
      return d;
    };
    const team = (d: TeamsDomain, name: string) => d.getSnapshot().teams.find((t) => t.name === name) as TeamView;

    const first = team(domain(), 'demo-team');
    expect(first.counts).toMatchObject({ total: 12, pending: 12 });
    expect(first.phase).toBe('planning');

    let result = { terminal: false, failed: false };
    for (let i = 0; i < 80 && !result.terminal; i++) {
      now += 1_500;
      result = sim.tick(now);
    }
    expect(result.terminal).toBe(true);
    sim.finish(now, result.failed);

    const d = domain();
    const demo = team(d, 'demo-team');
    expect(demo.problems).toEqual([]);
    expect(demo.counts.completed + demo.counts.failed).toBe(12);
    expect(demo.counts.failed).toBeGreaterThan(0);
    const kinds = demo.events.map((e) => e.type);
    expect(kinds.filter((k) => k === 'task_completed')).toHaveLength(demo.counts.completed);
    expect(kinds.filter((k) => k === 'task_failed')).toHaveLength(demo.counts.failed);
    expect(demo.pipelinePhase).toBe('team-fix');
    expect(demo.workers.every((w) => workerLiveness(w, now, d.heartbeatStaleMs).alive)).toBe(true);

    // OMC's own readers accept both teams and count what omc-top counts.
    const omc = await omcTeam();
    for (const name of ['demo-team', 'night-shift']) {
      const summary = await omc.getTeamSummary(name, p.dir);
      expect(team(d, name).counts).toEqual(summary.tasks);
      const listed = await omc.teamListTasks(name, p.dir);
      expect(team(d, name).phase).toBe(omc.inferPhase(listed.map((t: any) => ({ status: t.status }))));
    }

    // The silent team: OMC still reports every worker alive; omc-top flags all three.
    const silent = team(d, 'night-shift');
    const summary = await omc.getTeamSummary('night-shift', p.dir);
    expect(summary.workers.map((w: any) => w.alive)).toEqual([true, true, true]);
    // The two whose pid runs name this process, which started after their last heartbeat: not theirs, gone too.
    expect(silent.workers.map((w) => workerLiveness(w, now, d.heartbeatStaleMs).flag)).toEqual([
      'pid-gone',
      'pid-gone',
      'pid-gone',
    ]);
  });

  it('answers a shutdown request with an ack OMC accepts, and stops beating', async ({ emptyProject: p }) => {
    const ctx = makeContext(p.root, p.dir);
    let now = Date.parse('2026-12-01T09:00:00.000Z');
    const sim = createTeam(ctx, { team: 'demo-team', workers: 2, tasks: 4 });
    sim.seed(now);
    sim.tick((now += 1_500));
    const d = teamsDomain({ root: p.root, clock: () => now });
    d.scan();
    const requestedAt = (now += 1_000);
    requestWorkerShutdown(
      { domain: d, teamKey: 'demo-team', teamName: 'demo-team', readonly: false, now: requestedAt },
      'worker-2',
    );
    sim.tick((now += 1_500));
    d.scan();
    const w2 = d.getSnapshot().teams[0]?.workers[1];
    expect(w2?.shutdown?.ack).toMatchObject({ status: 'accept', stale: false });
    expect(w2?.state).toBe('done');
    expect(w2?.heartbeat?.reportedAlive).toBe(false);
    expect(d.getSnapshot().teams[0]?.events.at(-1)).toMatchObject({ type: 'shutdown_ack', worker: 'worker-2' });
    const omc = await omcTeam();
    expect(
      await omc.readShutdownAck('demo-team', 'worker-2', p.dir, new Date(requestedAt).toISOString()),
    ).toMatchObject({ status: 'accept' });
  });

  it('runs on timers next to sessions.mjs, whose team session owns demo-team', async ({ emptyProject: p }) => {
    const ctx = makeContext(p.root, p.dir);
    stops.push(startSessions(ctx), startTeam(ctx));
    const hb = path.join(p.root, 'state/team/demo-team/workers/worker-1/heartbeat.json');
    await waitFor(() => fs.existsSync(hb) && JSON.parse(fs.readFileSync(hb, 'utf8')).turn_count >= 2, {
      what: 'a second heartbeat',
      timeoutMs: 8_000,
    });
    const d = teamsDomain({ root: p.root });
    d.scan();
    const demo = d.getSnapshot().teams.find((t) => t.name === 'demo-team');
    const owner = demo?.owner?.sessionId ?? '';
    expect(demo?.owner?.source).toBe('team-state.json');
    expect(
      JSON.parse(fs.readFileSync(path.join(p.root, 'state/sessions', owner, 'team-state.json'), 'utf8')).team_name,
    ).toBe('demo-team');
  });
});
