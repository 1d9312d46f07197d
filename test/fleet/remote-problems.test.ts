/**
 * A `--host` project's own problem lines (what `omc-top` on that machine shows under its header: a state file there
 * that is not JSON) are said by the fleet as a local project's are: its project line counts them, the line under it
 * names the first in that monitor's words, and a problem fixed there leaves the fleet. Against a real OpenSSH
 * server (test/fleet/sshd-harness.ts); the remote omc-top is this checkout's bundle.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { mountFleet } from '../helpers/mount-app.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { waitFor } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { makeMachine } from './fleet-tree.js';
import { sshSkipReason, startSshRig } from './sshd-harness.js';

const skip = sshSkipReason();
if (skip) console.warn(`remote problem tests skipped: ${skip}`);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

beforeAll(() => {
  // The remote omc-top is the bundle global-setup built.
  expect(fs.existsSync(path.resolve('dist/omc-top.mjs'))).toBe(true);
});

describe.skipIf(skip !== null)("a --host project's own problems", { timeout: scaled(120_000) }, () => {
  it('its project line counts them and the line under it names the first; fixed there, they leave', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-lines-'));
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const dir = path.join(base, 'shop');
    fs.mkdirSync(path.join(dir, '.omc', 'state', 'sessions'), { recursive: true });
    execFileSync('git', ['init', '-q', dir]);
    makeLive(path.join(dir, '.omc'), sessionId(931));
    fs.writeFileSync(path.join(dir, '.omc', 'project-memory.json'), 'not json');
    const rig = await startSshRig([{ alias: 'boxa' }]);
    cleanups.push(() => rig.close());
    await rig.startSshd();
    const m = makeMachine();
    cleanups.push(() => m.cleanup());
    const fleet = new LocalFleet({ env: m.env, home: m.home, watch: 'none', local: false });
    const remote = new RemoteFleet([parseHostSpec(`boxa:${dir}`)!], () => fleet.changed(), { ssh: rig.ssh });
    fleet.setExtra(() => remote.groups());
    fleet.start();
    remote.start();
    cleanups.push(
      () => fleet.close(),
      () => remote.stop(),
    );
    const app = await mountFleet(fleet, { columns: 200, rows: 20, remote });
    cleanups.push(() => app.unmountOnly());

    // ssh and the omc-top there start first: waited for as the other remote tests wait for a host live.
    await waitFor(() => app.lines().some((l) => l.includes('1 problem')), {
      timeoutMs: 60_000,
      what: "the host's problem on its project line",
    });
    const lines = app.lines();
    if (process.env.SHOW) console.log(lines.join('\n'));
    const at = lines.findIndex((l) => l.includes(`@boxa:${dir}  shop  (`));
    expect(lines[at]).toMatch(/shop {2}\(1 session · 1 problem\)/);
    expect(lines[at + 1]?.trim()).toMatch(/^⚠ project-memory\.json: invalid JSON \(.*\)$/);

    // Fixed there: the stream says the problem is gone, and so does the fleet.
    fs.rmSync(path.join(dir, '.omc', 'project-memory.json'));
    await waitFor(() => !app.lines().some((l) => / problem|⚠/.test(l)), {
      timeoutMs: 30_000,
      what: 'the problem gone from the fleet',
    });
    expect(app.lines().find((l) => l.includes(`@boxa:${dir}`))).toMatch(/shop {2}\(1 session\)$/);
  });
});
