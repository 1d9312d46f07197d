/**
 * A fleet of one `--host` (me@devbox:/srv/shop) whose ssh is the fake (test/fleet/fake-ssh.mjs): its control folder
 * holds `files` (mode, row, quota, …, as the fake documents), the local fleet shows the host's group, and a serve
 * source over both gives the page's picture. Everything is closed and removed after the test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { fleetSource } from '../../src/commands/serve/source.js';

const FAKE_SSH = path.join(import.meta.dirname, 'fake-ssh.mjs');
export const FAKE_HOST = 'me@devbox:/srv/shop';

export function fakeSshFleet(
  files: Record<string, string>,
  opts: { commandBoundMs?: number; startBoundMs?: number; onPhase?: (phase: string) => void } = {},
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-fake-ssh-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const local = new LocalFleet({ watch: 'none', local: false, env: { XDG_STATE_HOME: path.join(dir, 'local') } });
  const { onPhase, ...bounds } = opts;
  const remote: RemoteFleet = new RemoteFleet(
    [parseHostSpec(FAKE_HOST)!],
    () => {
      onPhase?.(remote.hostsList[0]!.phase);
      local.changed();
    },
    { ssh: { bin: process.execPath, args: [FAKE_SSH, dir] }, ...bounds },
  );
  local.setExtra(() => remote.groups());
  local.start();
  remote.start();
  const source = fleetSource(local, remote, async () => {
    await Promise.all([remote.stop(), local.close()]);
  });
  // The fleets closed (their ssh children ended) before the folder they log into is removed.
  onTestFinished(async () => {
    await source.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  /** The lines of one of the fake's logs (`starts`, `alives`, `held`). */
  const lines = (name: string) => {
    try {
      return fs.readFileSync(path.join(dir, name), 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  const host = remote.hostsList[0]!;
  /** The serve page's root for the host. */
  const page = () => source.picture(Date.now()).roots.find((r) => r.host === FAKE_HOST);
  return { dir, local, remote, host, source, lines, page };
}
