/**
 * A `--host` whose ssh goes silent without closing, and a remote cancel or ack whose ssh hangs, against a fake
 * ssh (test/fleet/fake-ssh.mjs, run as the fleet's ssh command). A stream that stops its `alive` lines is not
 * live after MISSED_ALIVE_LINES of them (its rows kept, the header count and serve's page say so) and ssh is
 * started again; a quiet stream that keeps writing them stays live. A cancel that gets no answer is killed at its
 * bound and said to be unknown; a second one while the first waits runs no second ssh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MISSED_ALIVE_LINES } from '../../src/fleet/remote-silence.js';
import { Actions } from '../../src/commands/serve/actions.js';
import { cancelTargetOf } from '../../src/store/cancel/target.js';
import { headerText } from '../../src/panes/fleet/layout.js';
import { waitFor } from '../helpers/fixtures.js';
import { mountFleet } from '../helpers/mount-app.js';
import { scaled } from '../helpers/time-scale.js';
import { fakeSshFleet } from './fake-ssh-rig.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The fake's control folder, a fleet of one host using it, and what it logged. */
function rig(files: Record<string, string>, opts: { commandBoundMs?: number; startBoundMs?: number } = {}) {
  const phases: string[] = [];
  const r = fakeSshFleet(files, { ...opts, onPhase: (p) => phases.push(p) });
  const header = () => headerText(r.local.getSnapshot(), r.remote.hosts(), r.remote.hostsLive());
  return { ...r, phases, header, page: () => r.page()! };
}

describe('a --host stream that goes silent', { timeout: scaled(60_000) }, () => {
  it('stays live while its alive lines come; after MISSED_ALIVE_LINES missed it is not live everywhere and ssh restarts', async () => {
    const aliveMs = scaled(250);
    const r = rig({ mode: 'alive', 'alive-ms': String(aliveMs) });
    await waitFor(() => r.host.phase === 'live' && r.host.group().rows.length === 1, { what: 'the host live' });
    // Quiet, not silent: more alive lines than the silence bound holds, and it never left live.
    await waitFor(() => r.lines('alives').length >= MISSED_ALIVE_LINES + 3, {
      timeoutMs: 20_000,
      what: 'the fake to write its alive lines',
    });
    expect(r.phases).not.toContain('lost');
    expect(r.lines('starts')).toHaveLength(1);
    expect(r.header()).toMatch(/· 1 host$/);
    expect(r.page().connection).toBeNull();

    // The flow drops: connected, nothing more.
    fs.writeFileSync(path.join(r.dir, 'mode'), 'stall');
    await waitFor(() => r.host.phase === 'lost', { timeoutMs: 20_000, what: 'the silent host to be not live' });
    const g = r.host.group();
    expect(g.notes[0]).toMatch(/^lost \d+ s ago, retrying/);
    expect(g.detail).toMatch(/^no line for \d+ s \(the omc-top there writes one every \d+ s even when quiet\)/);
    // Rows kept (marked by their group), and every surface counts the host as not live.
    expect(g.rows.map((row) => row.modes)).toEqual(['ralph 2/100']);
    expect(r.header()).toMatch(/· 1 host \(1 not live\)$/);
    const root = r.page();
    expect(root.connection).toMatch(/^not live: lost \d+ s ago, retrying .*: no line for \d+ s/);
    expect(root.rows).toHaveLength(1);
    // ssh is started again (the back-off's first step) and the new stream is live.
    await waitFor(() => r.lines('starts').length >= 2 && r.host.phase === 'live', {
      timeoutMs: 20_000,
      what: 'ssh restarted and live again',
    });
    expect(r.page().connection).toBeNull();
  });
});

describe('the rows of a --host that is not live', { timeout: scaled(60_000) }, () => {
  it('draw no age that keeps counting (AGE ?) at 80 and 60 columns, NO_COLOR too; live again, the age is back', async () => {
    const aliveMs = scaled(250);
    const r = rig({ mode: 'alive', 'alive-ms': String(aliveMs) });
    const app = await mountFleet(r.local, { remote: r.remote, columns: 80, rows: 24 });
    cleanups.push(() => app.unmountOnly());
    const rowOf = () => app.lines().find((l) => l.includes('66666666')) ?? '';
    await waitFor(() => r.host.phase === 'live' && /\d+s$/.test(rowOf()), { what: `the live row\n${app.text()}` });
    // Silent from now on, and every new stream says nothing either: the host stays not live.
    fs.writeFileSync(path.join(r.dir, 'mode'), 'mute');
    await waitFor(() => r.host.phase === 'lost' && / \?$/.test(rowOf()), {
      timeoutMs: 20_000,
      what: `the row of the lost host\n${app.text()}`,
    });
    // The row is what the host said last: its words stay, its age is not claimed, in a 60-column pane too.
    expect(rowOf()).toMatch(/ralph 2\/100/);
    app.resize(60, 24);
    await waitFor(() => rowOf().length <= 60 && / \?$/.test(rowOf()), { what: `60 columns\n${app.text()}` });
    // Live again (the next ssh answers): the row is current, and its age counts again.
    fs.writeFileSync(path.join(r.dir, 'mode'), 'alive');
    await waitFor(() => r.host.phase === 'live' && /\d+s$/.test(rowOf()), {
      timeoutMs: 30_000,
      what: `live again\n${app.text()}`,
    });
  });
});

describe('a --host connection that never says a first line', { timeout: scaled(60_000) }, () => {
  it('is not live after the start bound and ssh is started again, even while another process holds its pipes', async () => {
    const r = rig({ mode: 'mute' }, { startBoundMs: scaled(1_000) });
    cleanups.push(() => r.lines('held').forEach((pid) => kill(Number(pid))));
    await waitFor(() => r.host.phase === 'lost', { timeoutMs: 20_000, what: 'the mute host to be lost' });
    expect(r.host.group().detail).toMatch(/^no line for \d+ s before its ready line: ssh or the omc-top there hangs/);
    expect(r.header()).toMatch(/· 1 host \(1 not live\)$/);
    await waitFor(() => r.lines('starts').length >= 2, { timeoutMs: 20_000, what: 'ssh started again' });
  });
});

describe('a remote cancel or ack whose ssh hangs', { timeout: scaled(60_000) }, () => {
  it('is killed at its bound and said to be unknown; a second one meanwhile runs no second ssh', async () => {
    const bound = scaled(1_500);
    const r = rig({ mode: 'alive', 'alive-ms': '5000', 'command-mode': 'hang' }, { commandBoundMs: bound });
    await waitFor(() => r.host.phase === 'live' && r.host.group().rows.length === 1, { what: 'the host live' });
    const row = r.host.group().rows[0]!;
    // The fleet view: c, y starts it.
    const app = await mountFleet(r.local, { remote: r.remote, columns: 160, rows: 30 });
    cleanups.push(() => app.unmountOnly());
    await app.waitForText('ralph 2/100');
    await app.step('c');
    await app.waitForText('Runs: ssh me@devbox omc-top cancel session:66666666');
    await app.step('y');
    await app.waitForText('cancelling 66666666 on me@devbox:/srv/shop…');
    const pid = await waitFor(() => r.lines('starts').find((l) => l.startsWith('cancel ')), {
      what: 'the cancel ssh to start',
    });
    // While it waits: a second c says so (no dialog), serve's plan refuses, a second cancel or pause sends nothing.
    await app.step('c');
    const t = await app.waitForText(/a cancel of 66666666 on me@devbox:\/srv\/shop is still waiting for its answer/);
    expect(t).not.toContain('Runs:');
    const second = await r.remote.cancel(row, true);
    expect(second).toEqual({ ok: false, text: expect.stringMatching(/still waiting for its answer .*not sent again/) });
    const planned = new Actions(r.source, false).plan({
      root: 'remote|me@devbox:/srv/shop',
      session: cancelTargetOf(row),
    });
    expect(planned.status).toBe(409);
    expect(String(planned.body.error)).toMatch(/still waiting for its answer/);
    expect(r.lines('starts').filter((l) => !l.startsWith('watch'))).toHaveLength(1);

    // At the bound: unknown, never a success.
    const said = await app.waitForText(
      /cancel on me@devbox:\/srv\/shop: no answer in \d+ s \(ssh killed\): it may or may not have taken/,
      'the bounded cancel to say it is unknown',
    );
    expect(said).not.toMatch(/✓|took effect/);
    const sshPid = Number(pid.split(' ')[1]);
    await waitFor(() => !running(sshPid), { what: `the hung ssh (pid ${sshPid}) to be killed` });
    expect(r.remote.cancelRefusal(row, false)).toBeNull();

    // An ack goes the same way (serve's Acknowledge and the fleet's a use it).
    const acked = await r.host.ack(['orphaned:x@1']);
    expect(acked).toEqual({
      ok: false,
      text: expect.stringMatching(/^acknowledging on .*: no answer in \d+ s \(ssh killed\)/),
    });
  });
});

describe('a remote cancel whose ssh is ended by a signal', { timeout: scaled(60_000) }, () => {
  it('says which signal and that it may or may not have taken', async () => {
    const r = rig({ mode: 'alive', 'alive-ms': '5000', 'command-mode': 'hang' });
    await waitFor(() => r.host.phase === 'live' && r.host.group().rows.length === 1, { what: 'the host live' });
    const said = r.host.cancel(r.host.group().rows[0]!, false);
    const started = await waitFor(() => r.lines('starts').find((l) => l.startsWith('cancel ')), {
      what: 'the cancel ssh to start',
    });
    process.kill(Number(started.split(' ')[1]), 'SIGTERM');
    expect(await said).toEqual({
      ok: false,
      text: 'cancel on me@devbox:/srv/shop: ssh ended by SIGTERM before an answer: it may or may not have taken',
    });
  });
});

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
