/**
 * The fleet's footer offers the keys that act on a session (Enter open, a ack, c cancel, p pause) only while a
 * session is selected: a `/` filter that matches nothing and a `--host` whose header has no rows yet leave them out.
 * Pressed anyway, each says so in a message of its own and nothing opens or asks. With a session on screen they are
 * offered again. Over a real LocalFleet (mountFleet) and the fake ssh (test/fleet/fake-ssh.mjs).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest } from './fleet-tree.js';
import { FAKE_HOST, fakeSshFleet } from './fake-ssh-rig.js';

const rig = fleetRigPerTest();

type App = Awaited<ReturnType<typeof mountFleet>>;
const footerOf = (app: App) => app.lines().filter(Boolean).at(-1) ?? '';

/** Each key pressed says `words` in a message of its own (not one left from the key before); nothing asks. */
async function refuses(app: App, keys: readonly string[], words: (key: string) => string): Promise<void> {
  for (const key of keys) {
    const before = app.fleetUi.getSnapshot().flash;
    await app.step(key);
    await waitFor(() => app.fleetUi.getSnapshot().flash !== before || null, {
      what: `a message for ${JSON.stringify(key)}`,
    });
    expect(app.fleetUi.getSnapshot().flash?.text).toBe(words(key));
    await app.waitForText(words(key));
    expect(app.text()).not.toMatch(/Runs:|y yes/);
    expect(app.fleetUi.getSnapshot().open).toBeNull();
  }
}

describe('the fleet footer with no session selected', () => {
  it('under a / filter that matches nothing leaves Enter open and a ack out; both say why; back once cleared', async () => {
    const m = rig.machine();
    m.project('alpha', 1);
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 160, rows: 24 });
    onTestFinished(() => app.unmountOnly());
    await app.waitForText(/alpha {2}\(2 sessions\)/);
    expect(footerOf(app)).toMatch(/Enter open .*a ack/);

    await app.step('/', 'z', 'z', 'z', KEY.enter);
    await app.waitForText(/\/zzz .*0 of 2 match/);
    expect(footerOf(app)).not.toContain('Enter open');
    expect(footerOf(app)).not.toContain('a ack');
    expect(footerOf(app)).toContain('/ filter');
    await refuses(app, [KEY.enter, 'a', 'c', 'p'], () => 'no session selected');

    // `?` still lists them, saying why not now (the list's state under the help, not the help's own).
    await app.step('?');
    await app.waitForText(/open the project's panes.*\(not now: no session selected\)/);
    await app.step(KEY.esc);
    await app.waitForText(/\/zzz .*0 of 2 match/);

    await app.step(KEY.esc);
    await app.waitForText(/alpha {2}\(2 sessions\)/);
    await waitFor(() => /Enter open .*a ack/.test(footerOf(app)) || null, { what: `the keys back: ${footerOf(app)}` });
  });

  it('on a --host with no rows yet leaves c, p, a and Enter out (r reconnect stays); with a row offers them', async () => {
    const empty = fakeSshFleet({ mode: 'mute' });
    const app = await mountFleet(empty.local, { remote: empty.remote, columns: 160, rows: 24 });
    onTestFinished(() => app.unmountOnly());
    await app.waitForText(/\(0 sessions · /);
    await waitFor(() => footerOf(app).includes('r reconnect') || null, { what: `the footer: ${footerOf(app)}` });
    for (const hint of ['c cancel', 'p pause', 'a ack', 'Enter open']) expect(footerOf(app)).not.toContain(hint);
    await refuses(app, ['c', 'p', 'a', KEY.enter], (key) =>
      key === KEY.enter ? `@${FAKE_HOST}: no sessions to open` : 'no session selected',
    );
    expect(empty.lines('starts').filter((l) => !l.startsWith('watch'))).toEqual([]);
    // The help says of the session keys why not now, and of r reconnect nothing: it has a host to reconnect.
    await app.step('?');
    // (wrapped at this width: any white space between the words)
    await app.waitForText(/open the project's panes.*\(not now: @me@devbox:\/srv\/shop:\s+no\s+sessions\s+to\s+open\)/);
    await app.step(KEY.pagedown);
    await app.waitForText('(not now: no session selected)');
    const help = await app.waitForText(/\nr {2,}reconnect to the selected row's host[^\n]*/);
    expect(help).not.toContain('no hosts');
    await app.step(KEY.esc);

    const one = fakeSshFleet({});
    await waitFor(() => (one.host.phase === 'live' && one.host.group().rows.length === 1) || null, {
      what: 'the host live with its row',
    });
    const withRow = await mountFleet(one.local, { remote: one.remote, columns: 160, rows: 24 });
    onTestFinished(() => withRow.unmountOnly());
    await withRow.waitForText('ralph 2/100');
    await waitFor(() => /Enter open .*a ack {2}c cancel {2}p pause {2}r reconnect/.test(footerOf(withRow)) || null, {
      what: `the session keys offered: ${footerOf(withRow)}`,
    });
  });
});
