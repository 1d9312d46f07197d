/**
 * Claude's registry lists every Claude on the machine, and a project's store follows the transcript of each (to join
 * them to its sessions by id). A transcript it cannot use (a FIFO in project eps, a line that is not JSON in project
 * theta) is a problem of the project that Claude works in, not of every project: alpha's monitor, its `--json` and
 * its `watch --json` (all read the store's problems) say nothing of them, eps and theta each say their own, opened
 * alone or in the fleet. A Claude of another directory that runs one of alpha's sessions is alpha's too (its
 * transcript is that session's).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { OmcStore } from '../../src/store/store.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { waitFor } from '../helpers/fixtures.js';
import { makeLive } from '../helpers/sessions-gen.js';
import { fleetRigPerTest, type Machine } from './fleet-tree.js';

const rig = fleetRigPerTest();

const transcriptOf = (m: Machine, cwd: string, sid: string) => path.join(m.config, transcriptRel(cwd, sid));

/** alpha (a loop of its own), eps (its Claude's transcript a FIFO), theta (its transcript holds a line not JSON). */
function machineWithBadTranscripts() {
  const m = rig.machine();
  const alpha = m.project('alpha', 1);
  const eps = m.project('eps', 1);
  const theta = m.project('theta', 1);
  const fifo = transcriptOf(m, eps.dir, eps.live);
  fs.mkdirSync(path.dirname(fifo), { recursive: true });
  execFileSync('mkfifo', [fifo]);
  const bad = transcriptOf(m, theta.dir, theta.live);
  fs.mkdirSync(path.dirname(bad), { recursive: true });
  fs.writeFileSync(bad, '{"type":"user","message":{"role":"user","content":"hi"}}\nnot json at all\n');
  return { m, alpha, eps, theta, fifo, bad };
}

/** The problem lines naming a transcript, as `path: message`. */
const transcriptProblems = (s: OmcStore): string[] =>
  s.problems
    .getSnapshot()
    .filter((p) => p.path.includes('/projects/'))
    .map((p) => `${p.path}: ${p.message}`);

const FIFO_SAYS = 'is not a regular file';
const BAD_SAYS = 'a line is not valid JSON';

async function alone<T>(m: Machine, p: { root: string; dir: string }, look: (s: OmcStore) => T): Promise<T> {
  const s = new OmcStore({
    root: p.root,
    projectDir: p.dir,
    rootRule: 'git',
    watch: 'none',
    claude: { live: false, env: m.env },
  });
  try {
    s.start();
    return look(s);
  } finally {
    await s.close();
  }
}

describe('a transcript problem belongs to the project its Claude works in', () => {
  it("alpha's store and --json say nothing of eps's FIFO or theta's bad line; each of those says its own", async () => {
    const { m, alpha, eps, theta, fifo, bad } = machineWithBadTranscripts();
    const fifoRel = path.relative(m.config, fifo);
    const badRel = path.relative(m.config, bad);

    expect(await alone(m, alpha, transcriptProblems)).toEqual([]);
    expect(await alone(m, eps, transcriptProblems)).toEqual([`$CLAUDE_CONFIG_DIR/${fifoRel}: ${FIFO_SAYS}`]);
    const thetaSays = await alone(m, theta, transcriptProblems);
    expect(thetaSays).toHaveLength(1);
    expect(thetaSays[0]).toContain(`$CLAUDE_CONFIG_DIR/${badRel}: ${BAD_SAYS}`);

    // The bundle's --json in alpha: the same.
    const doc = JSON.parse(
      execFileSync(process.execPath, [BUNDLE, '--json'], {
        cwd: alpha.dir,
        env: { ...m.env, PATH: process.env.PATH ?? '/usr/bin:/bin' },
        encoding: 'utf8',
      }),
    ) as { root: string; problems: { path: string; message: string }[] };
    expect(doc.root).toBe(alpha.root);
    expect(doc.problems.filter((p) => p.path.includes('/projects/'))).toEqual([]);
    const inEps = JSON.parse(
      execFileSync(process.execPath, [BUNDLE, '--json'], { cwd: eps.dir, env: m.env, encoding: 'utf8' }),
    ) as { problems: { path: string; message: string }[] };
    expect(inEps.problems.filter((p) => p.path.includes('/projects/')).map((p) => p.message)).toEqual([FIFO_SAYS]);
  });

  it('in the fleet each project shows its own transcript problem, and only its own', async () => {
    const { m, alpha, eps, theta } = machineWithBadTranscripts();
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const storeOf = (p: { root: string }) => fleet.localRoots().find((r) => r.info.root === p.root)?.store;
    await waitFor(() => [alpha, eps, theta].every((p) => storeOf(p) !== undefined), { what: 'every project open' });
    const [a, e, t] = [alpha, eps, theta].map((p) => storeOf(p) as OmcStore) as [OmcStore, OmcStore, OmcStore];
    await waitFor(() => transcriptProblems(e).length > 0 && transcriptProblems(t).length > 0, {
      what: 'eps and theta say their transcripts',
    });
    expect(transcriptProblems(a)).toEqual([]);
    expect(transcriptProblems(e).map((l) => l.includes(eps.live) && l.endsWith(FIFO_SAYS))).toEqual([true]);
    expect(transcriptProblems(t).map((l) => l.includes(theta.live) && l.includes(BAD_SAYS))).toEqual([true]);
  });

  it("a Claude working in eps that runs one of alpha's sessions: its transcript's problem is alpha's", async () => {
    const { m, alpha, eps } = machineWithBadTranscripts();
    // alpha's own loop resumed from eps's directory (its hooks read eps's .omc: the loop here is orphaned).
    const sid = '77777777-1111-4222-8333-444444444444';
    makeLive(alpha.root, sid);
    m.register(sid, eps.dir);
    fs.writeFileSync(transcriptOf(m, eps.dir, sid), 'not json\n');
    const inAlpha = await alone(m, alpha, transcriptProblems);
    expect(inAlpha.map((l) => l.includes(sid) && l.includes(BAD_SAYS))).toEqual([true]);
    // eps, where that Claude works (its hooks read eps's .omc), says it as well as its own Claude's FIFO.
    const inEps = await alone(m, eps, transcriptProblems);
    expect(inEps.map((l) => l.includes(eps.live) || l.includes(sid)).sort()).toEqual([true, true]);
  });
});
