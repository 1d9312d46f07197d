/**
 * A project's own problem lines (a state file that is not JSON: the lines `omc-top` there shows under its header)
 * are said by the fleet too: its project line counts them (`1 problem`), the line under it gives the first in the
 * monitor's words and where the rest are listed; a clean project says nothing of the kind, and a problem fixed
 * leaves the fleet as it leaves the monitor.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { mountFleet } from '../helpers/mount-app.js';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest, type Machine } from './fleet-tree.js';

const rig = fleetRigPerTest();

/** The problem lines of a project's own store, as its monitor shows them (`⚠ path: message`). */
async function monitorSays(m: Machine, p: { root: string; dir: string }): Promise<string[]> {
  const s = new OmcStore({
    root: p.root,
    projectDir: p.dir,
    rootRule: 'git',
    watch: 'none',
    claude: { live: false, env: m.env },
  });
  try {
    s.start();
    return s.problems.getSnapshot().map((x) => `⚠ ${x.path}: ${x.message}`);
  } finally {
    await s.close();
  }
}

describe("omc-top --all: a project's own problems", () => {
  it('its project line counts them and the line under it names the first; the clean project says none', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    m.project('beta', 1);
    fs.writeFileSync(path.join(alpha.root, 'project-memory.json'), 'not json');
    fs.writeFileSync(path.join(alpha.root, 'prd.json'), '{"x": tru');
    const says = await monitorSays(m, alpha);
    expect(says).toHaveLength(2);

    const fleet = rig.fleet(m);
    fleet.start();
    const app = await mountFleet(fleet, { columns: 200, rows: 20 });
    const t = await app.waitForText('2 problems');
    if (process.env.SHOW) console.log(t);
    const lines = app.lines();
    const at = lines.findIndex((l) => /alpha {2}\(/.test(l));
    expect(lines[at]).toMatch(/alpha {2}\(2 sessions · 2 problems\)/);
    expect(lines[at + 1]?.trim()).toBe(`${says[0]}  (+1 more: Enter, then ! lists them)`);
    expect(lines.find((l) => /beta {2}\(/.test(l))).toMatch(/beta {2}\(2 sessions\)$/);
    expect(t.split('\n').filter((l) => l.includes('⚠'))).toHaveLength(1);

    // Both fixed: the fleet says nothing more, as the monitor.
    fs.rmSync(path.join(alpha.root, 'project-memory.json'));
    fs.rmSync(path.join(alpha.root, 'prd.json'));
    await waitFor(() => !app.lines().some((l) => l.includes('problem')), { what: 'the problems gone from the fleet' });
    expect(await monitorSays(m, alpha)).toEqual([]);
    expect(app.lines().find((l) => /alpha {2}\(/.test(l))).toMatch(/alpha {2}\(2 sessions\)$/);
  });
});
