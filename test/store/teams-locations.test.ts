/**
 * With OMC_STATE_DIR set, OMC 5.5.0 keeps team runtimes under the state-dir
 * root while 4.x kept them in the project's own .omc. omc-top reads both: the
 * root through the watcher, the project location through a stat-gated rescan.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveOmcRoot } from '../../src/store/root.js';
import { OmcStore } from '../../src/store/store.js';
import { requestWorkerShutdown } from '../../src/store/teams/shutdown.js';
import { REPO, makeProject, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { omcTeam } from '../helpers/omc-team.js';
import { generateTeam } from '../helpers/team-gen.js';

let p: TempProject;
let stateDir: string;
let store: OmcStore | null = null;
beforeEach(() => {
  p = makeProject();
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-statedir-'));
});
afterEach(async () => {
  await store?.close();
  store = null;
  p.cleanup();
  fs.rmSync(stateDir, { recursive: true, force: true });
});

function setup() {
  const env = { ...process.env, OMC_STATE_DIR: stateDir };
  const probe = resolveOmcRoot({ cwd: p.dir, env });
  fs.mkdirSync(path.join(probe.root, 'state', 'sessions'), { recursive: true });
  const res = resolveOmcRoot({ cwd: p.dir, env });
  expect(res.rule).toBe('state-dir');
  const now = Date.now();
  generateTeam({ root: res.root, name: 'new-team', workers: 2, tasks: 4, now });
  // The 4.x layout: the team runtime beside the project even with OMC_STATE_DIR set.
  const old = generateTeam({ root: p.root, name: 'old-team', workers: 3, tasks: 10, now });
  return { res, env, oldDir: old.dir };
}

describe('team runtimes under OMC_STATE_DIR', () => {
  it("reads 5.5's teams under the state-dir root and 4.x's beside the project, and 5.5's agree with OMC", async () => {
    const { res } = setup();
    store = new OmcStore({ root: res.root, projectDir: res.projectDir, rootRule: res.rule, watch: 'none' });
    const teams = store.teams;
    store.start();
    const snap = teams.getSnapshot();
    expect(snap.teams.map((t) => [t.key, t.location, t.counts.total]).sort()).toEqual([
      ['new-team', 'root', 4],
      ['project:old-team', 'project', 10],
    ]);
    expect(teams.problems()).toEqual([]);

    const omc = await omcTeam();
    const saved = process.env.OMC_STATE_DIR;
    process.env.OMC_STATE_DIR = stateDir;
    try {
      const summary = await omc.getTeamSummary('new-team', p.dir);
      expect(snap.teams.find((t) => t.key === 'new-team')?.counts).toEqual(summary.tasks);
    } finally {
      if (saved === undefined) delete process.env.OMC_STATE_DIR;
      else process.env.OMC_STATE_DIR = saved;
    }
  });

  it('picks up changes in the project location without a watcher, and writes shutdown requests there', async () => {
    const { res, oldDir } = setup();
    store = new OmcStore({ root: res.root, projectDir: res.projectDir, rootRule: res.rule, watch: 'auto' });
    const teams = store.teams;
    store.start();
    const before = teams.getSnapshot().teams.find((t) => t.key === 'project:old-team');
    expect(before?.counts.total).toBe(10);
    writeOmcJson(path.join(oldDir, 'tasks/task-11.json'), {
      subject: 'late',
      description: 'd',
      status: 'failed',
      id: '11',
      depends_on: [],
      version: 1,
      created_at: new Date().toISOString(),
    });
    await waitFor(() => teams.getSnapshot().teams.find((t) => t.key === 'project:old-team')?.counts.total === 11, {
      what: 'project-location rescan',
    });

    requestWorkerShutdown(
      { domain: teams, teamKey: 'project:old-team', teamName: 'old-team', readonly: false, now: Date.now() },
      'worker-1',
    );
    expect(fs.existsSync(path.join(oldDir, 'workers/worker-1/shutdown-request.json'))).toBe(true);
    expect(fs.existsSync(path.join(res.root, 'state/team/old-team'))).toBe(false);
  });

  it('--json lists both as "teams"', () => {
    setup();
    const out = execFileSync(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), '--json'], {
      cwd: p.dir,
      env: { ...process.env, OMC_STATE_DIR: stateDir },
      encoding: 'utf8',
    });
    const doc = JSON.parse(out);
    expect(doc.teams.map((t: any) => [t.name, t.location]).sort()).toEqual([
      ['new-team', 'root'],
      ['old-team', 'project'],
    ]);
    for (const t of doc.teams) {
      expect(Object.keys(t.tasks)).toEqual(
        expect.arrayContaining(['pending', 'blocked', 'in_progress', 'completed', 'failed']),
      );
      for (const w of t.workers)
        expect(Object.keys(w)).toEqual(expect.arrayContaining(['name', 'status', 'heartbeat_age_s', 'alive']));
    }
  });
});
