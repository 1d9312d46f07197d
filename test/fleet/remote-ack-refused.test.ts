/**
 * A remote ack refused by `omc-top ack` there (exit 2: the id names no item there now, its condition ended
 * meanwhile) is said in that command's words, not taken for an omc-top too old to know `ack`; exit 2 without
 * them (an old omc-top that read `ack` as a project directory) still says that. Against the fake ssh.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';

const FAKE_SSH = path.join(import.meta.dirname, 'fake-ssh.mjs');

describe('a remote ack that exits 2', () => {
  it('says the refusal of ack there as it is; without it, the too-old guess', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-fake-ssh-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'command-mode'), 'exit2');
    const remote = new RemoteFleet([parseHostSpec('me@devbox:/srv/shop')!], () => undefined, {
      ssh: { bin: process.execPath, args: [FAKE_SSH, dir] },
    });
    onTestFinished(() => remote.stop());
    const host = remote.hostsList[0]!;
    const refusal = 'omc-top ack: no item has the id "orphaned:x/ralph@1:2" now (nothing acknowledged)';
    fs.writeFileSync(path.join(dir, 'command-said'), refusal);
    expect(await host.ack(['orphaned:x/ralph@1:2'])).toEqual({
      ok: false,
      text: `acknowledging on me@devbox:/srv/shop refused: ${refusal}`,
    });
    fs.writeFileSync(path.join(dir, 'command-said'), 'omc-top: no .omc directory found (git top-level).');
    expect(await host.ack(['orphaned:x/ralph@1:2'])).toEqual({
      ok: false,
      text: expect.stringContaining('refused (omc-top there too old for ack?): omc-top: no .omc directory found'),
    });
  });
});
