/**
 * What belongs to the machine, not to a project, is read once for the whole fleet: tmux's windows (one
 * `list-windows -a` names the registry's tmux fields of every project), OMC's usage cache (the plan quota) and
 * Claude's background jobs (one `jobs/` directory holds every project's).
 * Each project in the fleet shows the same values as that project opened alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalFleet } from '../../src/fleet/local.js';
import { TmuxNames, type WindowLister } from '../../src/store/claude/tmux-names.js';
import { OmcStore } from '../../src/store/store.js';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest, type Machine } from './fleet-tree.js';

const rig = fleetRigPerTest();
const PROJECTS = ['alpha', 'beta', 'gamma'];

/** A tmux server with one window per project (named after it), answering a turn later as tmux would. */
function fakeTmux(): { list: WindowLister; calls: () => number } {
  let calls = 0;
  const out = PROJECTS.map((name, i) => `main\t@${i + 1}\t${i}\t${name}-win`).join('\n');
  return {
    list: (done) => {
      calls += 1;
      setImmediate(() => done(out));
    },
    calls: () => calls,
  };
}

/** The machine's projects, each Claude process registered in its own tmux window (`main:@<n>.%<n>`). */
function projectsInTmux(m: Machine) {
  const made = PROJECTS.map((name) => m.project(name, 1));
  const dir = path.join(m.config, 'sessions');
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    const entry = JSON.parse(fs.readFileSync(file, 'utf8'));
    const n = made.findIndex((p) => p.live === entry.sessionId) + 1;
    fs.writeFileSync(file, JSON.stringify({ ...entry, tmux: `main:@${n}.%${n}` }));
  }
  return made;
}

const FIX = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'omc-5.5-cost');

/** Each project's store in the fleet, in the order of `projects`. */
function storesIn(fleet: LocalFleet, projects: readonly { root: string }[]): OmcStore[] {
  const stores = projects.map((p) => fleet.localRoots().find((r) => r.info.root === p.root)?.store);
  expect(stores.every(Boolean), 'every project open in the fleet').toBe(true);
  return stores as OmcStore[];
}

/** What `look` sees of the project opened alone (read once, Claude's side not live), closed after. */
async function alone<T>(m: Machine, p: { root: string; dir: string }, look: (s: OmcStore) => T): Promise<T> {
  const s = new OmcStore({ root: p.root, projectDir: p.dir, watch: 'none', claude: { live: false, env: m.env } });
  try {
    s.start();
    return look(s);
  } finally {
    await s.close();
  }
}

const whereOf = (s: OmcStore, sid: string) => s.claude.getSnapshot().bySession.get(sid)?.process?.tmuxWhere;

describe('omc-top --all: per-machine reads', () => {
  it("tmux's windows are listed once for every project, and name each one's window as the project alone does", async () => {
    const m = rig.machine();
    const projects = projectsInTmux(m);

    const alone: OmcStore[] = [];
    const aloneTmux = fakeTmux();
    try {
      for (const p of projects) {
        const s = new OmcStore({
          root: p.root,
          projectDir: p.dir,
          watch: 'none',
          claude: { live: false, env: m.env, tmuxNames: new TmuxNames(aloneTmux.list, Date.now) },
        });
        alone.push(s);
        s.start();
      }
      await waitFor(() => projects.every((p, i) => whereOf(alone[i] as OmcStore, p.live)?.includes('-win')), {
        what: 'each project alone names its window',
      });

      const fleetTmux = fakeTmux();
      const fleet = rig.fleet(m, { watch: 'none', claudeLive: true, tmux: fleetTmux.list });
      fleet.start();
      const inFleet = (p: { root: string }) => fleet.localRoots().find((r) => r.info.root === p.root)?.store;
      await waitFor(() => projects.every((p) => whereOf(inFleet(p) as OmcStore, p.live)?.includes('-win')), {
        what: 'every project in the fleet names its window',
      });
      projects.forEach((p, i) => {
        expect(whereOf(inFleet(p) as OmcStore, p.live)).toBe(`main:${i} ${PROJECTS[i]}-win`);
        expect(whereOf(inFleet(p) as OmcStore, p.live)).toBe(whereOf(alone[i] as OmcStore, p.live));
      });
      // Alone, each project lists tmux's windows itself; the fleet lists them once for all three.
      expect(aloneTmux.calls()).toBe(PROJECTS.length);
      expect(fleetTmux.calls()).toBe(1);
    } finally {
      await Promise.all(alone.map((s) => s.close()));
    }
  });

  it("OMC's usage cache is read by one reader for every project, and each shows what the project alone shows", async () => {
    const m = rig.machine();
    const projects = PROJECTS.map((name) => m.project(name, 1));
    const cache = path.join(m.config, 'plugins', 'oh-my-claudecode', '.usage-cache-anthropic.json');
    fs.mkdirSync(path.dirname(cache), { recursive: true });
    fs.copyFileSync(path.join(FIX, 'usage-cache', '02-success', '.usage-cache-anthropic.json'), cache);

    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const roots = storesIn(fleet, projects);
    // One reader: the same domain object in every root.
    for (const s of roots) expect(s.quota).toBe(roots[0]?.quota);
    const { version: _v, ...inFleet } = roots[0]?.quota.getSnapshot() ?? { version: 0 };
    expect(inFleet).toMatchObject({ cache: { rel: 'plugins/oh-my-claudecode/.usage-cache-anthropic.json' } });

    for (const p of projects) {
      const { version: _w, ...shown } = await alone(m, p, (s) => s.quota.getSnapshot());
      expect(shown).toEqual(inFleet);
    }
  });

  it("Claude's background jobs are read by one reader for every project, and each shows its own as alone", async () => {
    const m = rig.machine();
    const projects = PROJECTS.map((name) => m.project(name, 1));
    // One job per project, and one of a directory no project holds.
    const cwds = [...projects.map((p) => p.dir), path.join(m.base, 'elsewhere')];
    cwds.forEach((cwd, i) => {
      const dir = path.join(m.config, 'jobs', `job${i}`);
      fs.mkdirSync(dir, { recursive: true });
      const at = new Date(Date.now() - i * 60_000).toISOString();
      const state = { state: 'working', detail: `step ${i}`, intent: `task ${i}`, cwd, createdAt: at, updatedAt: at };
      fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify(state));
    });

    // Claude's side live (as `omc-top --all` runs it): the shared reader watches jobs/.
    const fleet = rig.fleet(m, { watch: 'none', claudeLive: true });
    fleet.start();
    const roots = storesIn(fleet, projects);
    for (const s of roots) expect(s.bgJobs.reader).toBe(roots[0]?.bgJobs.reader);

    for (const [i, p] of projects.entries()) {
      const inFleet = (roots[i] as OmcStore).bgJobs.getSnapshot();
      expect(inFleet.jobs.map((j) => j.prompt)).toEqual([`task ${i}`]);
      const shown = await alone(m, p, (s) => ({
        own: s.bgJobs.reader !== roots[0]?.bgJobs.reader,
        ...s.bgJobs.getSnapshot(),
      }));
      expect(shown.own, 'alone, its own reader').toBe(true);
      expect(inFleet.jobs).toEqual(shown.jobs);
      expect(inFleet.problems).toEqual(shown.problems);
    }
    // A job that moves on reaches its own project's view, and no other's.
    const beta = path.join(m.config, 'jobs', 'job1', 'state.json');
    fs.writeFileSync(beta, JSON.stringify({ ...JSON.parse(fs.readFileSync(beta, 'utf8')), state: 'done' }));
    await waitFor(() => roots[1]?.bgJobs.getSnapshot().jobs[0]?.state === 'done', { what: "beta's job done" });
    expect(roots.map((s) => s.bgJobs.getSnapshot().jobs.map((j) => j.state))).toEqual([
      ['working'],
      ['done'],
      ['working'],
    ]);
  });
});
