/**
 * serve's page lists each project's own problem lines (what its monitor shows under its header), as `--json`'s
 * `problems` say them: a local project's (a state file not JSON) and a `--host` project's (as its stream says them;
 * its ssh the fake, test/fleet/fake-ssh.mjs), gone from the page once fixed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetSource } from '../../src/commands/serve/source.js';
import { waitFor } from '../helpers/fixtures.js';
import { FAKE_HOST, fakeSshFleet } from '../fleet/fake-ssh-rig.js';
import { fleetRigPerTest } from '../fleet/fleet-tree.js';

const rig = fleetRigPerTest();

describe("serve's page lists each project's problem lines", () => {
  it('a local project: its problems in its root, none in the clean one; fixed, gone', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    m.project('beta', 1);
    fs.writeFileSync(path.join(alpha.root, 'project-memory.json'), 'not json');
    const fleet = rig.fleet(m);
    fleet.start();
    const source = fleetSource(fleet, undefined, async () => undefined);
    const root = (name: string) => source.picture(Date.now()).roots.find((r) => r.project === name);
    await waitFor(() => root('alpha')?.problemCount === 1 && root('beta'), { what: "alpha's problem on the page" });
    expect(root('alpha')?.problems).toEqual([
      { path: 'project-memory.json', message: expect.stringMatching(/^invalid JSON \(/), severity: 'error' },
    ]);
    expect(root('beta')).toMatchObject({ problems: [], problemCount: 0 });
    fs.rmSync(path.join(alpha.root, 'project-memory.json'));
    await waitFor(() => root('alpha')?.problemCount === 0, { what: 'the problem gone from the page' });
    await source.close();
  });

  it('a --host project: the problem lines its stream says', async () => {
    const { page } = fakeSshFleet({ problem: 'state/x.json: truncated JSON (9 bytes)' });
    const r = await waitFor(() => page()?.problemCount === 1 && page(), {
      timeoutMs: 20_000,
      what: `${FAKE_HOST}'s problem`,
    });
    expect(r.problems).toEqual([{ path: 'state/x.json', message: 'truncated JSON (9 bytes)', severity: 'error' }]);
  });
});
