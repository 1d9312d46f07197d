/**
 * A `--host` row of a Claude with no OMC loop (it waits on a permission prompt there: watch --json --rows sends it,
 * `noLoop`) has nothing to cancel or pause: `c` and `p` say where to answer it instead of asking to run
 * `omc-top cancel` there (which would only come back with "nothing to cancel"), Enter says the same, and the serve
 * page's cancel is refused in the same words. No ssh command runs. Against the fake ssh (test/fleet/fake-ssh.mjs).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { Actions } from '../../src/commands/serve/actions.js';
import { cancelTargetOf } from '../../src/store/cancel/target.js';
import { waitFor } from '../helpers/fixtures.js';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { fakeSshFleet } from './fake-ssh-rig.js';

const SID = '77777777-0000-4000-8000-000000000001';

/** A fleet of one host whose omc-top sends one row: `row`'s fields over an OMC loop's. */
function rig(row: Record<string, unknown>) {
  const r = fakeSshFleet({ session: SID, row: JSON.stringify(row) });
  /** The ssh commands started besides the stream (cancel, ack). */
  const commands = () => r.lines('starts').filter((l) => !l.startsWith('watch'));
  return { ...r, commands };
}

const PLAIN = {
  status: 'idle',
  modes: '',
  prompt: 'Claude with no OMC loop',
  rank: -1,
  process: 'waiting',
  needs: 'waiting for you: permission prompt: Bash touch plain.txt',
  noLoop: true,
};

describe('a --host row of a Claude with no OMC loop', () => {
  it('c, p and Enter say where to answer it; no confirmation, no ssh command; serve refuses its cancel', async () => {
    const r = rig(PLAIN);
    await waitFor(() => r.host.phase === 'live' && r.host.group().rows.length === 1, { what: 'the host live' });
    const app = await mountFleet(r.local, { remote: r.remote, columns: 160, rows: 30 });
    onTestFinished(() => app.unmountOnly());
    await app.waitForText('permission prompt: Bash touch plain.txt');
    const words = (what: string) => `no OMC loop${what}: answer its prompt on me@devbox:/srv/shop (omc-top there, !)`;
    await app.step('c');
    const c = await app.waitForText(words(' to cancel'));
    expect(c).not.toContain('Runs:');
    await app.step('p');
    const p = await app.waitForText(words(' to pause'));
    expect(p).not.toContain('Runs:');
    await app.step(KEY.enter);
    const enter = await app.waitForText(words(''));
    expect(enter).not.toContain('c cancels');

    const row = r.host.group().rows[0]!;
    const planned = new Actions(r.source, false).plan({
      root: 'remote|me@devbox:/srv/shop',
      session: cancelTargetOf(row),
    });
    expect(planned).toEqual({ status: 409, body: { error: words(' to cancel') } });
    // Whoever asks (the fleet's own cancel path too): no command runs there for it.
    expect(await r.remote.cancel(row, true)).toEqual({ ok: false, text: words(' to pause') });
    expect(r.commands()).toEqual([]);
  });

  it('a row with an OMC loop on the same host still asks to cancel it there', async () => {
    const r = rig({});
    await waitFor(() => r.host.phase === 'live' && r.host.group().rows.length === 1, { what: 'the host live' });
    const app = await mountFleet(r.local, { remote: r.remote, columns: 160, rows: 30 });
    onTestFinished(() => app.unmountOnly());
    await app.waitForText('ralph 2/100');
    await app.step('c');
    await app.waitForText('Runs: ssh me@devbox omc-top cancel session:77777777');
  });
});
