/**
 * An item counts as pushed only once a channel took it (feeds/notify/push/leased-push.ts): until the channel
 * answers it stays due in the lease's ledger, so a holder gone with its request in flight leaves it to the next
 * holder; a failure leaves it due too, sent again after a pause; and a holder exiting with an item due hands it to
 * an omc-top already waiting at once, by the lease file's change, not at that one's own next message.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PushLease } from '../../src/feeds/notify/push/lease.js';
import { RETRY_FIRST_MS } from '../../src/feeds/notify/push/leased-push.js';
import { runningStartIdentity } from '../../src/io/process-start.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { waitFor } from '../helpers/fixtures.js';
import { vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { heldBy } from '../helpers/lease-holder.js';
import { item, omcTop, ROOT } from '../helpers/leased-omc-top.js';

/** The item ids the lease file lists as due, and as pushed. */
function ledgerIn(dir: string): { due: string[]; sent: string[] } {
  const v = JSON.parse(fs.readFileSync(path.join(dir, rootFileName('push-lease', ROOT)), 'utf8')) as {
    due?: { ids: string[] }[];
    sent?: Record<string, number>;
  };
  return { due: (v.due ?? []).flatMap((d) => d.ids), sent: Object.keys(v.sent ?? {}) };
}

/** Whether `lease` has looked at its file since this call and read an item due there (its changes go on as they were). */
function readsDue(lease: PushLease): () => boolean {
  let saw = false;
  const settle = lease.settle.bind(lease);
  vi.spyOn(lease, 'settle').mockImplementation((change, opts) =>
    settle((read, holds) => {
      if (read.due.length > 0) saw = true;
      return change(read, holds);
    }, opts),
  );
  return () => saw;
}

describe('a push counted only when a channel took it', () => {
  it('the holder dies with its request unanswered: the next holder pushes the item, and only it records it', async ({
    tempDir,
  }) => {
    const dir = tempDir('taken-killed-');
    const a = await omcTop(dir, { answer: 'held' });
    a.push.offer([item(1)]);
    expect(a.sent).toEqual(['sess-1']);
    // Queued and sent, not answered: still due.
    expect(ledgerIn(dir)).toEqual({ due: [item(1).ids[0]], sent: [] });
    a.proc.kill('SIGKILL');
    await waitFor(() => runningStartIdentity(a.proc.pid) === 'absent', { what: 'the holder gone' });
    // Started after the item appeared (to it, old news): the ledger says it is due.
    const b = await omcTop(dir);
    expect(b.sent).toEqual(['sess-1']);
    expect(ledgerIn(dir)).toEqual({ due: [], sent: [item(1).ids[0]] });
    // Its next look finds nothing more to send.
    b.push.offer([item(1)]);
    expect(b.sent).toEqual(['sess-1']);
  });

  it('the holder dies with its request unanswered: one already running takes the lease and pushes it by itself', async ({
    tempDir,
  }) => {
    const dir = tempDir('taken-killed-running-');
    const a = await omcTop(dir, { answer: 'held' });
    const b = await omcTop(dir);
    const bSawDue = readsDue(b.push.lease);
    a.push.offer([item(6)]);
    expect(a.sent).toEqual(['sess-6']);
    // b saw the lease a wrote (the item due, a alive: not b's to push); then a is killed, releasing nothing.
    await waitFor(bSawDue, { what: "b's look at the lease a wrote" });
    a.proc.kill('SIGKILL');
    // No release to see, no message of b's own: b follows the item it saw due.
    await waitFor(() => b.sent.length > 0, { timeoutMs: 20_000, what: "b's push of the killed holder's item" });
    expect(b.sent).toEqual(['sess-6']);
    expect(ledgerIn(dir)).toEqual({ due: [], sent: [item(6).ids[0]] });
  });

  it('started while the holder has a request in flight, then the holder is killed: it pushes the item', async ({
    tempDir,
  }) => {
    const dir = tempDir('taken-killed-started-');
    const a = await omcTop(dir, { answer: 'held' });
    const aSawDue = readsDue(a.push.lease);
    a.push.offer([item(7)]);
    // a's own look at what it wrote (its watch): the lease file's event is delivered, so c below never sees it.
    await waitFor(aSawDue, { what: "a's look at its own write" });
    const c = await omcTop(dir);
    expect(c.sent).toEqual([]);
    a.proc.kill('SIGKILL');
    await waitFor(() => c.sent.length > 0, { timeoutMs: 20_000, what: "c's push of the killed holder's item" });
    expect(c.sent).toEqual(['sess-7']);
  });

  it('a channel that fails leaves the item due: sent again after the pause, recorded once taken', async ({
    tempDir,
  }) => {
    const dir = tempDir('taken-retry-');
    const clock = { now: Date.now() };
    const a = await omcTop(dir, { answer: 'held', clock: () => clock.now });
    a.push.offer([item(2)]);
    a.answer('may-pass');
    expect(ledgerIn(dir)).toEqual({ due: [item(2).ids[0]], sent: [] });
    // Beats within the pause send nothing; the first beat past it sends it again.
    clock.now += RETRY_FIRST_MS - 1000;
    a.push.lease.beat();
    expect(a.sent).toEqual(['sess-2']);
    clock.now += 1000;
    a.push.lease.beat();
    expect(a.sent).toEqual(['sess-2', 'sess-2']);
    // While that one is in flight, a beat does not send it a third time.
    a.push.lease.beat();
    expect(a.sent).toEqual(['sess-2', 'sess-2']);
    a.answer('taken');
    expect(ledgerIn(dir)).toEqual({ due: [], sent: [item(2).ids[0]] });
    clock.now += 10 * RETRY_FIRST_MS;
    a.push.lease.beat();
    expect(a.sent).toEqual(['sess-2', 'sess-2']);
  });

  it('refused outright (a 4xx): not sent again by this holder, left due for the next one', async ({ tempDir }) => {
    const dir = tempDir('taken-refused-');
    const clock = { now: Date.now() };
    const a = await omcTop(dir, { answer: 'held', clock: () => clock.now });
    a.push.offer([item(3)]);
    a.answer('refused');
    clock.now += 10 * RETRY_FIRST_MS;
    a.push.lease.beat();
    expect(a.sent).toEqual(['sess-3']);
    expect(ledgerIn(dir).due).toEqual([item(3).ids[0]]);
    a.push.dispose();
    const b = await omcTop(dir, { clock: () => clock.now });
    expect(b.sent).toEqual(['sess-3']);
  });

  it('a holder exiting with an item due: an omc-top already waiting takes the lease and pushes it by itself', async ({
    tempDir,
  }) => {
    const dir = tempDir('taken-release-');
    const a = await omcTop(dir);
    // b started while a held the lease; the item appears after, in a's debounce only (to b it is not news).
    const b = await omcTop(dir);
    expect(heldBy(path.join(dir, rootFileName('push-lease', ROOT)))).toBe(a.proc.pid);
    a.push.dispose([item(4)]);
    // Nothing else happens on the project: b has no message of its own to look again for.
    await waitFor(() => b.sent.length > 0, { timeoutMs: 20_000, what: "b's push of what a left due" });
    expect([a.sent, b.sent]).toEqual([[], ['sess-4']]);
    expect(heldBy(path.join(dir, rootFileName('push-lease', ROOT)))).toBe(b.proc.pid);
  });

  it('a holder whose channel answers after it released the lease records the item without taking it back', async ({
    tempDir,
  }) => {
    const dir = tempDir('taken-late-');
    const a = await omcTop(dir, { answer: 'held' });
    a.push.offer([item(5)]);
    a.push.dispose();
    expect(heldBy(path.join(dir, rootFileName('push-lease', ROOT)))).toBe(null);
    a.answer('taken');
    expect(ledgerIn(dir)).toEqual({ due: [], sent: [item(5).ids[0]] });
    expect(heldBy(path.join(dir, rootFileName('push-lease', ROOT)))).toBe(null);
    const b = await omcTop(dir);
    expect(b.sent).toEqual([]);
  });
});
