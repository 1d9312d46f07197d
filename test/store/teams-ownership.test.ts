/**
 * Which session owns a team, from every source OMC has used: 5.5's
 * config.leader_session_id, a session's team / omc-teams mode state naming the
 * team (the skill shape), the pipeline-shaped team-state.json (no team_name;
 * found through its owner), and 4.x's manifest.leader.session_id.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionsDomain } from '../../src/store/sessions/domain.js';
import { TeamsDomain } from '../../src/store/teams/domain.js';
import type { TeamView } from '../../src/store/teams/model.js';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { generateTeam } from '../helpers/team-gen.js';
import { teamsDomain } from '../helpers/teams-domain.js';

const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let p: TempProject;
beforeEach(() => {
  p = makeProject();
});
afterEach(() => p.cleanup());

const scan = () => {
  const d = teamsDomain({ root: p.root, clock: () => NOW });
  d.scan();
  return d;
};
const teamOf = (d: TeamsDomain, name: string) => d.getSnapshot().teams.find((t) => t.name === name) as TeamView;
const session = (sid: string, file: string, value: unknown) =>
  writeOmcJson(path.join(p.root, 'state/sessions', sid, file), value);

describe('team ownership', () => {
  it("5.5: config.leader_session_id, with the pipeline-shaped team-state.json's iteration, fix loop and phase history", () => {
    const { dir } = generateTeam({
      root: p.root,
      name: 'pipe',
      workers: 2,
      tasks: 3,
      now: NOW,
      leaderSessionId: 'sess-pipe',
    });
    fs.rmSync(path.join(dir, 'phase-state.json'));
    session('sess-pipe', 'team-state.json', {
      schema_version: 1,
      mode: 'team',
      active: true,
      session_id: 'sess-pipe',
      project_path: p.dir,
      phase: 'team-verify',
      phase_history: [
        { phase: 'team-plan', entered_at: iso(NOW - 300_000) },
        { phase: 'team-exec', entered_at: iso(NOW - 200_000) },
        { phase: 'team-verify', entered_at: iso(NOW - 100_000), reason: 'all tasks done' },
      ],
      iteration: 4,
      max_iterations: 25,
      fix_loop: { attempt: 1, max_attempts: 3, last_failure_reason: null },
      started_at: iso(NOW - 300_000),
      updated_at: iso(NOW - 100_000),
    });
    const t = teamOf(scan(), 'pipe');
    expect(t.owner).toEqual({
      sessionId: 'sess-pipe',
      source: 'config.leader_session_id',
      modePath: 'state/sessions/sess-pipe/team-state.json',
      modeActive: true,
    });
    expect([t.iteration, t.maxIterations, t.fixAttempt, t.maxFixAttempts, t.pipelinePhase]).toEqual([
      4,
      25,
      1,
      3,
      'team-verify',
    ]);
    expect(t.phaseHistory.map((h) => [h.phase, h.reason])).toEqual([
      ['team-plan', null],
      ['team-exec', null],
      ['team-verify', 'all tasks done'],
    ]);
  });

  it('the skill shape: team_name in omc-teams-state.json, numbers as strings; an active claim beats an older inactive one', () => {
    generateTeam({ root: p.root, name: 'skill', workers: 1, tasks: 2, now: NOW });
    session('sess-old', 'team-state.json', {
      active: false,
      current_phase: 'complete',
      team_name: 'skill',
      _meta: { updatedAt: iso(NOW - 50_000) },
    });
    session('sess-new', 'omc-teams-state.json', {
      active: true,
      current_phase: 'team-exec',
      team_name: 'skill',
      fix_loop_count: '2',
      max_fix_loops: '3',
      _meta: { updatedAt: iso(NOW - 90_000) },
    });
    const t = teamOf(scan(), 'skill');
    expect(t.owner).toMatchObject({ sessionId: 'sess-new', source: 'omc-teams-state.json', modeActive: true });
    // phase-state.json (written by the runtime) wins for the fix loop; the mode state fills what it lacks.
    expect([t.fixAttempt, t.maxFixAttempts]).toEqual([1, 3]);
  });

  it("takes the mode state from the sessions domain's parse, never from a second read of its own", () => {
    generateTeam({ root: p.root, name: 'skill', workers: 1, tasks: 2, now: NOW });
    session('sess-a', 'omc-teams-state.json', { active: true, team_name: 'skill', current_phase: 'team-exec' });
    const sessions = new SessionsDomain({ root: p.root, clock: () => NOW });
    const d = new TeamsDomain({ root: p.root, clock: () => NOW, sessions });
    sessions.scan();
    d.scan();
    expect(teamOf(d, 'skill').owner).toMatchObject({ sessionId: 'sess-a', modeActive: true });
    // The claim moves on disk, but the sessions domain has not read it yet: teams does not either.
    fs.rmSync(path.join(p.root, 'state/sessions/sess-a/omc-teams-state.json'));
    session('sess-b', 'omc-teams-state.json', { active: true, team_name: 'skill', current_phase: 'team-exec' });
    d.scan();
    expect(teamOf(d, 'skill').owner).toMatchObject({ sessionId: 'sess-a' });
    // Once sessions has read the change, teams follows it: the store refreshes sessions first.
    sessions.scan();
    d.scan();
    expect(teamOf(d, 'skill').owner).toMatchObject({ sessionId: 'sess-b', modeActive: true });
  });

  it("4.x: no config.json, the manifest's leader.session_id and worker list", () => {
    const { dir } = generateTeam({ root: p.root, name: 'old', workers: 2, tasks: 2, now: NOW });
    const cfg = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
    fs.rmSync(path.join(dir, 'config.json'));
    writeOmcJson(path.join(dir, 'manifest.json'), {
      schema_version: 2,
      name: 'old',
      task: 'legacy run',
      leader: { session_id: 'sess-4x', worker_id: 'leader-fixed', role: 'leader' },
      workers: cfg.workers,
      worker_count: 2,
      created_at: cfg.created_at,
    });
    fs.mkdirSync(path.join(p.root, 'state/sessions/sess-4x'), { recursive: true });
    const d = scan();
    const t = teamOf(d, 'old');
    expect(t.owner).toMatchObject({ sessionId: 'sess-4x', source: 'manifest.leader.session_id' });
    expect(t.workers.map((w) => [w.name, w.inConfig])).toEqual([
      ['worker-1', true],
      ['worker-2', true],
    ]);
    expect(t.task).toBe('legacy run');
    expect(t.problems).toEqual([
      expect.objectContaining({ severity: 'info', message: expect.stringMatching(/using manifest.json \(4.x\)/) }),
    ]);
    expect(d.problems()).toEqual([]);
  });

  it('does not take a manifest leader that is a tmux session name rather than a session dir', () => {
    const { dir } = generateTeam({ root: p.root, name: 'tmuxy', workers: 1, tasks: 1, now: NOW });
    writeOmcJson(path.join(dir, 'manifest.json'), {
      schema_version: 2,
      name: 'tmuxy',
      leader: { session_id: 'omc-team-tmuxy' },
      workers: [],
    });
    expect(teamOf(scan(), 'tmuxy').owner).toBeNull();
  });
});
