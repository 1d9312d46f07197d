/**
 * A `--host` taken out of the config file while the fleet runs (RemoteFleet.setSpecs), against the fleet tests' fake
 * ssh (test/fleet/fake-ssh.mjs): its stream ends at once, but a cancel already under way there gets its answer (it
 * was killed with the stream and said "ssh ended by SIGTERM before an answer", which was not what happened there),
 * and a cancel asked from a dialog still open on that host says the host was taken out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { fakeSshFleet } from './fake-ssh-rig.js';
import { parseHostSpec } from '../../src/config/host-spec.js';

/** Whether a process of that pid is still there. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const pidOf = (line: string) => Number(line.split(' ')[1]);

describe('a host taken out of the config file', { timeout: scaled(60_000) }, () => {
  it('ends its stream at once, lets a cancel under way there answer, then leaves no ssh; a later cancel says why', async () => {
    const r = fakeSshFleet({ mode: 'alive', 'alive-ms': '5000', 'command-mode': 'on-go' });
    await waitFor(() => r.host.phase === 'live' && r.host.group().rows.length === 1, { what: 'the host live' });
    const row = r.host.group().rows[0]!;
    const said = r.remote.cancel(row, false);
    const cancelSsh = pidOf(
      await waitFor(() => r.lines('starts').find((l) => l.startsWith('cancel ')), { what: 'the cancel ssh to start' }),
    );
    const streamSsh = pidOf(r.lines('starts').find((l) => l.startsWith('watch '))!);

    expect(r.remote.setSpecs([])).toEqual({ added: 0, removed: 1 });
    expect(r.remote.groups()).toEqual([]);
    await waitFor(() => !running(streamSsh), { what: `the stream's ssh (pid ${streamSsh}) to end` });
    expect(running(cancelSsh)).toBe(true);

    // The remote answers: the cancel says what happened there.
    fs.writeFileSync(path.join(r.dir, 'go'), '');
    expect(await said).toEqual({
      ok: true,
      text: 'cancel on me@devbox:/srv/shop took effect (checked there): cancel done there',
    });
    await waitFor(() => !running(cancelSsh), { what: `the cancel's ssh (pid ${cancelSsh}) to exit` });

    // The confirm dialog left open on that host: nothing is sent, and it says why.
    expect(await r.remote.cancel(row, true)).toEqual({
      ok: false,
      text: 'pause on me@devbox:/srv/shop: not sent: host taken out of the config file',
    });
    expect(await r.remote.ack(row)).toEqual({
      ok: false,
      text: 'acknowledging on me@devbox:/srv/shop: not sent: host taken out of the config file',
    });
    expect(r.lines('starts').map((l) => l.split(' ')[0])).toEqual(['watch', 'cancel']);
  });

  it('respelled as the same project (a trailing slash) keeps its stream: nothing added, removed or reconnected', async () => {
    const r = fakeSshFleet({ mode: 'alive', 'alive-ms': '5000' });
    await waitFor(() => r.host.phase === 'live' && r.host.group().rows.length === 1, { what: 'the host live' });
    expect(r.remote.setSpecs([parseHostSpec('me@devbox:/srv/shop/')!])).toEqual({ added: 0, removed: 0 });
    expect(r.remote.hostsList).toEqual([r.host]);
    expect(r.host.phase).toBe('live');
    expect(r.remote.groups().map((g) => g.rows.length)).toEqual([1]);
    expect(r.lines('starts').map((l) => l.split(' ')[0])).toEqual(['watch']);
  });
});
