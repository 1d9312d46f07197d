/**
 * A push lease handed over at any moment neither loses an item nor, in the cases below, sends it twice
 * (feeds/notify/push/leased-push.ts). Each omc-top is a LeasedPush under the pid of a live process of the test's
 * own (test/helpers/leased-omc-top.ts), its channels taking each message at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { processStopped, runningStartIdentity } from '../../src/io/process-start.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { heldBy, keepLeaseBeating } from '../helpers/lease-holder.js';
import { item, liveProcess, omcTop, ROOT } from '../helpers/leased-omc-top.js';

describe('the push lease handed over', () => {
  it('an item seen by another while one holds the lease is pushed by the holder at its next beat, once', async ({
    tempDir,
  }) => {
    const dir = tempDir('handover-');
    const a = await omcTop(dir);
    const b = await omcTop(dir);
    expect(heldBy(path.join(dir, rootFileName('push-lease', ROOT)))).toBe(a.proc.pid);
    // b saw it (a's debounce still running, or a started after it and counts it as old): recorded as due.
    b.push.offer([item(1)]);
    expect([a.sent, b.sent]).toEqual([[], []]);
    a.push.lease.beat();
    expect(a.sent).toEqual(['sess-1']);
    // a's own debounce ends later, and b looks again: nobody sends it a second time.
    a.push.offer([item(1)]);
    b.push.offer([item(1)]);
    a.push.lease.beat();
    expect([a.sent, b.sent]).toEqual([['sess-1'], []]);
  });

  it('the holder crashes with an item due: the one that recorded it takes the lease and pushes it', async ({
    tempDir,
  }) => {
    const dir = tempDir('handover-crash-');
    const lease = path.join(dir, rootFileName('push-lease', ROOT));
    // The holder, another omc-top: its lease names a live process, beating as a holder does.
    const holder = await liveProcess();
    fs.writeFileSync(lease, JSON.stringify({ pid: holder.pid, start: null, at: Date.now() }));
    const stopBeating = keepLeaseBeating(lease);
    onTestFinished(stopBeating);
    const b = await omcTop(dir);
    b.push.offer([item(2)]);
    expect(b.sent).toEqual([]);
    stopBeating();
    holder.kill('SIGKILL');
    await waitFor(() => runningStartIdentity(holder.pid) === 'absent', { what: 'the holder gone' });
    // Nothing else happens on the project: b looks again by itself.
    await waitFor(() => b.sent.length > 0, { timeoutMs: 20_000, what: "b's push" });
    expect(b.sent).toEqual(['sess-2']);
    expect(heldBy(lease)).toBe(b.proc.pid);
  });

  it('the holder exits while its debounce runs: the item is left due, and the next holder pushes it', async ({
    tempDir,
  }) => {
    const dir = tempDir('handover-exit-');
    const a = await omcTop(dir);
    a.push.dispose([item(3)]);
    expect(heldBy(path.join(dir, rootFileName('push-lease', ROOT)))).toBe(null);
    // Started after the item appeared: to it the item is old, but the lease says it is due.
    const c = await omcTop(dir);
    expect([a.sent, c.sent]).toEqual([[], ['sess-3']]);
  });

  it('a taker that exits before the stopped holder resumes: the old holder does not push what it pushed', async ({
    tempDir,
  }) => {
    const dir = tempDir('handover-twice-');
    const a = await omcTop(dir);
    const b = await omcTop(dir);
    // a is stopped with the item in its debounce; b sees the holder stopped, takes the lease and pushes the item.
    process.kill(a.proc.pid, 'SIGSTOP');
    await waitFor(() => processStopped(a.proc.pid), { what: 'the holder stopped' });
    b.push.offer([item(4)]);
    expect(b.sent).toEqual(['sess-4']);
    b.push.dispose();
    process.kill(a.proc.pid, 'SIGCONT');
    await waitFor(() => !processStopped(a.proc.pid), { what: 'the holder continued' });
    // a's debounce ends: the lease is free, a takes it, and finds the item pushed already.
    a.push.offer([item(4)]);
    expect([a.sent, b.sent]).toEqual([[], ['sess-4']]);
    expect(heldBy(path.join(dir, rootFileName('push-lease', ROOT)))).toBe(a.proc.pid);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.taking'))).toEqual([]);
  });

  it('a muted holder (N in the monitor) lets the lease go: another pushes its item; unmuted, it is quiet', async ({
    tempDir,
  }) => {
    const dir = tempDir('handover-mute-');
    const lease = path.join(dir, rootFileName('push-lease', ROOT));
    const a = await omcTop(dir);
    const b = await omcTop(dir);
    a.push.mute(true);
    expect(heldBy(lease)).toBe(null);
    b.push.offer([item(5)]);
    expect([a.sent, b.sent]).toEqual([[], ['sess-5']]);
    expect(heldBy(lease)).toBe(b.proc.pid);
    // Unmuted while b holds it: a stays quiet, and its own look at the same item sends nothing.
    a.push.mute(false);
    a.push.offer([item(5)]);
    expect([a.sent, b.sent]).toEqual([[], ['sess-5']]);
    expect(heldBy(lease)).toBe(b.proc.pid);
  });
});
