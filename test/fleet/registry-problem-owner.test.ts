/**
 * A Claude Code registry file omc-top cannot use (`~/.claude/sessions/<pid>.json` not JSON, or one with no valid pid)
 * is not every project's problem: a project's monitor says it only when the file names that project's directory
 * (its Claude works there); one that names no project is said once, by the fleet's message line and by `doctor`
 * (never dropped). The registry directory itself unreadable stays every project's (no Claude can be joined to any).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectDoctorReport } from '../../src/commands/doctor-checks.js';
import { formatDoctorReport } from '../../src/commands/doctor.js';
import { OmcStore } from '../../src/store/store.js';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest, type Machine } from './fleet-tree.js';

const rig = fleetRigPerTest();

/** The registry problem lines of a project's own store (what its monitor, --json and watch --json say). */
async function registryLines(m: Machine, p: { root: string; dir: string }): Promise<string[]> {
  const s = new OmcStore({
    root: p.root,
    projectDir: p.dir,
    rootRule: 'git',
    watch: 'none',
    claude: { live: true, env: m.env },
  });
  try {
    s.start();
    return s.problems
      .getSnapshot()
      .filter((x) => x.path.includes('/sessions'))
      .map((x) => `${x.path}: ${x.message}`);
  } finally {
    await s.close();
  }
}

async function doctorIn(m: Machine, dir: string) {
  const report = await collectDoctorReport({
    cwd: dir,
    env: m.env,
    poll: false,
    version: 'test',
    nodeVersion: process.version,
    terminal: { isTTY: true, columns: 120, rows: 40, colorDepth: 8 },
    watchTimeoutMs: 60_000,
  });
  return { check: report.checks.find((c) => c.id === 'claude'), text: formatDoctorReport(report) };
}

describe('a registry file omc-top cannot use is said where it matters', () => {
  it("not JSON: no project's monitor says it; the fleet's message line and doctor do", async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    const beta = m.project('beta', 1);
    fs.writeFileSync(path.join(m.config, 'sessions', '999991.json'), '{"pid": 9999');

    expect(await registryLines(m, alpha)).toEqual([]);
    expect(await registryLines(m, beta)).toEqual([]);

    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const snap = await waitFor(() => fleet.build().groups.length === 2 && fleet.build(), { what: 'both projects' });
    expect(snap.problems.filter((p) => p.includes('sessions/999991.json'))).toHaveLength(1);

    const doc = await doctorIn(m, alpha.dir);
    expect(doc.check?.status).toBe('warn');
    expect(doc.check?.data).toMatchObject({ sessions: { readable: true, notRead: 1 } });
    expect(doc.text).toMatch(
      /not read: sessions\/999991\.json: truncated JSON .*it names no project: no monitor says it/,
    );
  });

  it('one that names alpha (its cwd) but no valid pid: alpha says it, beta does not; doctor names alpha', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    const beta = m.project('beta', 1);
    fs.writeFileSync(
      path.join(m.config, 'sessions', '999992.json'),
      JSON.stringify({ pid: 'x', sessionId: 'nope', cwd: alpha.dir }),
    );
    const inAlpha = await registryLines(m, alpha);
    expect(inAlpha).toEqual(['$CLAUDE_CONFIG_DIR/sessions/999992.json: "pid" is missing or not a positive integer']);
    expect(await registryLines(m, beta)).toEqual([]);
    const doc = await doctorIn(m, beta.dir);
    expect(doc.text).toContain(
      `not read: sessions/999992.json: "pid" is missing or not a positive integer (the monitor of the project in ${alpha.dir} says it)`,
    );
  });

  it("the registry directory unreadable is every project's: each says it", async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    const beta = m.project('beta', 1);
    // A file where the directory should be: no entry can be listed, for any project.
    fs.rmSync(path.join(m.config, 'sessions'), { recursive: true });
    fs.writeFileSync(path.join(m.config, 'sessions'), 'x');
    for (const p of [alpha, beta])
      expect((await registryLines(m, p)).map((l) => l.split(':')[0])).toEqual(['$CLAUDE_CONFIG_DIR/sessions']);
  });
});
