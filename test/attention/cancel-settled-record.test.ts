/**
 * A cancel's verdict in its shared record (store/cancel/cancel-records.ts `settled`), as the other processes read
 * it: two writers settling at once each keep the other's entry; a verdict about an older cancel never lands on a
 * newer one; a settlement read from a hostile or older file that does not hold what was seen says nothing (the
 * store's word, never a ✓ nobody saw); the row a host sends carries it bounded, and the receiver drops the word on
 * its own clock five minutes after it settled; a loop the cancel ended that is started anew takes the row back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CancelRecordFile, type CancelRecord } from '../../src/store/cancel/cancel-records.js';
import { SETTLED_SHOW_MS } from '../../src/store/cancel/settled.js';
import { ROW_SCHEMA, cleanRow, rowOf, rowStatusText } from '../../src/feeds/row.js';
import type { SessionView } from '../../src/store/sessions/model.js';
import { describe, expect, it } from '../helpers/it.js';

const rec = (key: string, requestedMs: number): CancelRecord => ({
  key,
  modes: ['ralph'],
  requestedMs,
  expiresMs: requestedMs + 30_000,
  notEnded: [],
  failed: null,
});
const stopped = (requestedMs: number, byPid = 4242) => ({
  word: 'stopped' as const,
  atMs: requestedMs + 5_000,
  stoppedMs: requestedMs + 4_000,
  seen: 'idle' as const,
  byPid,
});

describe("a cancel's verdict in the shared record", () => {
  it('two processes settling at once keep each other; a verdict about an older cancel leaves the newer one alone', async ({
    tempDir,
  }) => {
    const dir = tempDir('omc-top-settled-');
    const root = path.join(dir, 'proj', '.omc');
    const now = Date.now();
    const a = new CancelRecordFile(path.join(dir, 'state'), root);
    const b = new CancelRecordFile(path.join(dir, 'state'), root);
    await a.add(rec('s-a', now - 20_000));
    await b.add(rec('s-b', now - 10_000));
    a.load();
    await Promise.all([
      a.settle('s-a', now - 20_000, stopped(now - 20_000, 1)),
      b.settle('s-b', now - 10_000, stopped(now - 10_000, 2)),
    ]);
    const read = new CancelRecordFile(path.join(dir, 'state'), root).getSnapshot().records;
    expect(read.get('s-a')?.settled).toMatchObject({ word: 'stopped', byPid: 1 });
    expect(read.get('s-b')?.settled).toMatchObject({ word: 'stopped', byPid: 2 });
    // b cancels s-a again; a's tracker then settles its older cancel: the newer cancel stays in flight.
    await b.add(rec('s-a', now));
    expect(await a.settle('s-a', now - 20_000, stopped(now - 20_000, 1))).toBeNull();
    const after = new CancelRecordFile(path.join(dir, 'state'), root).getSnapshot().records.get('s-a');
    expect(after).toMatchObject({ requestedMs: now, settled: null });
  });

  it('a settlement that does not hold what was seen is dropped; the entry still counts', ({ tempDir }) => {
    const dir = tempDir('omc-top-settled-');
    const root = path.join(dir, '.omc');
    const at = Date.now() - 60_000;
    const f = new CancelRecordFile(dir, root);
    const bad = [
      { ...stopped(at), stoppedMs: null },
      { ...stopped(at), seen: 'guessed' },
      { ...stopped(at), word: 'stopped ✓\u001b[2J' },
      { ...stopped(at), byPid: -1 },
      { ...stopped(at), atMs: at - 1 },
      'stopped',
    ];
    fs.writeFileSync(
      path.join(dir, f.file),
      JSON.stringify({
        version: 1,
        cancels: [
          ...bad.map((settled, i) => ({ ...rec(`s-${i}`, at), settled })),
          { ...rec('s-ok', at), settled: { ...stopped(at), extra: 'x'.repeat(10_000) } },
        ],
      }),
    );
    f.load();
    const read = f.getSnapshot().records;
    expect(read.size).toBe(bad.length + 1);
    for (let i = 0; i < bad.length; i++) expect(read.get(`s-${i}`)?.settled).toBeNull();
    expect(read.get('s-ok')?.settled).toEqual(stopped(at));
  });

  it("a host's row carries the word bounded; the receiver drops it on its own clock after five minutes", () => {
    const at = Date.now() - 60_000;
    const s = {
      id: 's-a',
      kind: 'session',
      status: 'idle',
      modes: [],
      rank: 5,
      updatedMs: at,
    } as unknown as SessionView;
    const row = rowOf(s, undefined, at + 10_000, null, { ...rec('s-a', at), settled: stopped(at) });
    expect(row.cancelSettled).toEqual({ word: 'stopped', atMs: at + 5_000 });
    const wire = ROW_SCHEMA.safeParse(JSON.parse(JSON.stringify(row)));
    if (!wire.success) throw wire.error;
    const got = cleanRow(wire.data);
    expect(rowStatusText(got, at + 10_000)).toBe('stopped');
    expect(rowStatusText(got, at + 5_000 + SETTLED_SHOW_MS)).toBe('idle');
    // A word that is not one of the settled words is refused with the row.
    expect(ROW_SCHEMA.safeParse({ ...row, cancelSettled: { word: 'stopped ✓', atMs: at } }).success).toBe(false);
    // A loop the cancel ended, started anew: the row follows the disk.
    const again = { ...s, modes: [{ mode: 'ralph', active: true }] } as unknown as SessionView;
    expect(
      rowOf(again, undefined, at + 10_000, null, { ...rec('s-a', at), settled: stopped(at) }).cancelSettled,
    ).toBeNull();
    // The sender stops sending it after its minutes too.
    expect(
      rowOf(s, undefined, at + 5_000 + SETTLED_SHOW_MS, null, { ...rec('s-a', at), settled: stopped(at) })
        .cancelSettled,
    ).toBeNull();
  });
});
