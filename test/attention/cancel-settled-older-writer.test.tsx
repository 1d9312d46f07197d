/**
 * An omc-top from before the settled word (10dc441 and earlier) still running beside a newer one (the usual case
 * after an upgrade: an old monitor in another tmux pane) writes the record of the cancels back without the fields it
 * does not know when it records a cancel of its own (test/helpers/older-cancel-writer.ts does what it does). Every
 * settled word and every follower the newer omc-tops recorded must survive it: they are kept in a side file it never
 * writes (store/cancel/settled-side.ts), merged with what is read of the record. So a second monitor's row, `--json`
 * (`status_text`, `cancel_settled`), `watch --json --rows` (`cancelSettled`) and the serve page still say `stopped`
 * after the older omc-top's cancel, as the monitor that saw the stop does; a newer omc-top does not settle the cancel
 * a second time; the next write puts the fields back in the record for the omc-tops that read only the record; a
 * damaged side file is a problem line with what was read before kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import {
  CANCEL_RECORD_TTL_MS,
  CancelRecordFile,
  MAX_CANCEL_RECORDS,
  type CancelRecord,
} from '../../src/store/cancel/cancel-records.js';
import { parseSettledSide } from '../../src/store/cancel/settled-side.js';
import { liveRalph, ralphStateFile, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { olderOmcTopRecordsCancel, type OlderCancelEntry } from '../helpers/older-cancel-writer.js';
import {
  S,
  cancelScene,
  claudeNow,
  mountScene,
  otherSurfaces,
  rowStatus,
  sceneStore,
  type Scene,
} from '../helpers/cancel-surfaces.js';
import type { OmcStore } from '../../src/store/store.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Another session of the project, with a loop of its own, that the older omc-top cancels. */
const D = 'dddddddd-2222-4333-8444-555555555555';

const rec = (key: string, requestedMs: number): CancelRecord => ({
  key,
  modes: ['ralph'],
  requestedMs,
  expiresMs: requestedMs + 30_000,
  notEnded: [],
  failed: null,
});
const older = (key: string, requestedMs: number): OlderCancelEntry => ({
  key,
  modes: ['ralph'],
  requestedMs,
  expiresMs: requestedMs + 30_000,
  notEnded: [],
  failed: null,
});
const word = (w: 'ended' | 'cancelled', requestedMs: number, byPid: number) => ({
  word: w,
  atMs: requestedMs + 30_000,
  stoppedMs: null,
  seen: null,
  byPid,
});
const stopped = (requestedMs: number, byPid: number) => ({
  word: 'stopped' as const,
  atMs: requestedMs + 5_000,
  stoppedMs: requestedMs + 4_000,
  seen: 'idle' as const,
  byPid,
});

/** The record as it is on disk, each entry as written (what an omc-top that reads only the record sees). */
function recordText(f: CancelRecordFile): Map<string, Record<string, unknown>> {
  const o = JSON.parse(fs.readFileSync(path.join(f.dir, f.file), 'utf8')) as {
    cancels: Array<Record<string, unknown>>;
  };
  return new Map(o.cancels.map((c) => [c.key as string, c]));
}

describe("an older omc-top's rewrite of the record of the cancels", () => {
  it('keeps every settled word and follower for every reader, one already watching included; the next write puts them back in the record', async ({
    tempDir,
  }) => {
    const dir = tempDir('omc-top-older-');
    const state = path.join(dir, 'state');
    const root = path.join(dir, 'proj', '.omc');
    const now = Date.now();
    const a = new CancelRecordFile(state, root);
    const watching = new CancelRecordFile(state, root);
    const stop = watching.watch();
    cleanups.push(stop);
    await a.add({ ...rec('s-a', now - 40_000), followedBy: { pid: 4242, start: '123' } });
    await a.add(rec('s-b', now - 20_000));
    await a.settle('s-a', now - 40_000, word('ended', now - 40_000, 1));
    await a.settle('s-b', now - 20_000, stopped(now - 20_000, 2));
    await olderOmcTopRecordsCancel(state, root, older('s-c', now));
    // What the older omc-top left in the record: no settled word, no follower.
    const left = recordText(a);
    expect([...left.keys()].sort()).toEqual(['s-a', 's-b', 's-c']);
    for (const e of left.values()) expect(Object.keys(e)).not.toContain('settled');

    const read = new CancelRecordFile(state, root).getSnapshot();
    expect(read.problem).toBeNull();
    expect(read.records.get('s-a')).toMatchObject({
      settled: word('ended', now - 40_000, 1),
      followedBy: { pid: 4242, start: '123' },
    });
    expect(read.records.get('s-b')?.settled).toEqual(stopped(now - 20_000, 2));
    expect(read.records.get('s-c')).toMatchObject({ settled: null, followedBy: null });
    await waitFor(() => watching.getSnapshot().records.has('s-c') || null, { what: 'the older cancel, watched' });
    expect(watching.getSnapshot().records.get('s-b')?.settled).toEqual(stopped(now - 20_000, 2));

    // This omc-top's next write: the record says them again, for an omc-top that reads only the record.
    await a.add(rec('s-d', now));
    const healed = recordText(a);
    expect(healed.get('s-a')).toMatchObject({ settled: { word: 'ended', byPid: 1 }, followedBy: { pid: 4242 } });
    expect(healed.get('s-b')).toMatchObject({ settled: { word: 'stopped', byPid: 2 } });
  });

  it("the first settlement wins across the record and the side file, the record's own first", async ({ tempDir }) => {
    const dir = tempDir('omc-top-older-');
    const state = path.join(dir, 'state');
    const root = path.join(dir, 'proj', '.omc');
    const at = Date.now() - 60_000;
    const a = new CancelRecordFile(state, root);
    await a.add(rec('s-a', at));
    await a.settle('s-a', at, word('ended', at, 1));
    await olderOmcTopRecordsCancel(state, root, older('s-c', Date.now()));
    // Another newer omc-top, following the cancel, comes to settle it too: the one recorded first stays.
    const b = new CancelRecordFile(state, root);
    expect(await b.settle('s-a', at, stopped(at, 2))).toBeNull();
    expect(new CancelRecordFile(state, root).getSnapshot().records.get('s-a')?.settled).toEqual(word('ended', at, 1));
    // A settlement in the record itself (an omc-top that reads only the record settled the emptied entry) is said
    // before the side file's: both kinds of omc-top then say the same word.
    const o = JSON.parse(fs.readFileSync(path.join(state, a.file), 'utf8')) as { cancels: CancelRecord[] };
    const inRecord = o.cancels.map((c) => (c.key === 's-a' ? { ...c, settled: word('cancelled', at, 3) } : c));
    fs.writeFileSync(path.join(state, a.file), JSON.stringify({ ...o, cancels: inRecord }));
    expect(new CancelRecordFile(state, root).getSnapshot().records.get('s-a')?.settled).toEqual(
      word('cancelled', at, 3),
    );
  });

  it('a damaged side file: a problem line, what was read before still counts; the next write repairs it', async ({
    tempDir,
  }) => {
    const dir = tempDir('omc-top-older-');
    const state = path.join(dir, 'state');
    const root = path.join(dir, 'proj', '.omc');
    const at = Date.now() - 60_000;
    const a = new CancelRecordFile(state, root);
    await a.add(rec('s-a', at));
    await a.settle('s-a', at, word('ended', at, 1));
    await olderOmcTopRecordsCancel(state, root, older('s-c', Date.now()));
    const f = new CancelRecordFile(state, root);
    expect(f.getSnapshot().records.get('s-a')?.settled).toMatchObject({ word: 'ended' });
    for (const bad of ['{"version":1,"entries":', '[]', '{"version":2,"entries":[]}', '{"version":1,"entries":{}}']) {
      fs.writeFileSync(path.join(state, f.sideFile), bad);
      expect(() => f.load()).not.toThrow();
      expect(f.getSnapshot().problem).toMatch(
        /record of its cancels' verdicts \(settled-cancels-[0-9a-f]{16}\.json\) .*the verdicts read before still count/,
      );
      expect(f.getSnapshot().records.get('s-a')?.settled).toMatchObject({ word: 'ended' });
    }
    await f.add(rec('s-b', Date.now()));
    const again = new CancelRecordFile(state, root).getSnapshot();
    expect(again.problem).toBeNull();
    expect(again.records.get('s-a')?.settled).toMatchObject({ word: 'ended', byPid: 1 });
  });

  it('the side file says only what holds: of the same cancel, a whole settlement, the last day, the newest entries', ({
    tempDir,
  }) => {
    const dir = tempDir('omc-top-older-');
    const root = path.join(dir, '.omc');
    const now = Date.now();
    const at = now - 60_000;
    const f = new CancelRecordFile(dir, root);
    fs.writeFileSync(
      path.join(dir, f.file),
      JSON.stringify({ version: 1, cancels: [rec('s-a', at), rec('s-b', at), rec('s-c', at)] }),
    );
    fs.writeFileSync(
      path.join(dir, f.sideFile),
      JSON.stringify({
        version: 1,
        entries: [
          // a `stopped` without the stop it saw is no ✓
          { key: 's-a', requestedMs: at, settled: { ...stopped(at, 1), stoppedMs: null } },
          // about an earlier cancel of the session, not the one recorded
          { key: 's-b', requestedMs: at - 1_000, settled: word('ended', at - 1_000, 1) },
          { key: 's-c', requestedMs: at, settled: word('ended', at, 1), followedBy: { pid: -1, start: 'x' } },
          { key: '../x', requestedMs: at, settled: word('ended', at, 1) },
        ],
      }),
    );
    f.load();
    const read = f.getSnapshot();
    expect(read.problem).toBeNull();
    expect(read.records.get('s-a')?.settled).toBeNull();
    expect(read.records.get('s-b')?.settled).toBeNull();
    expect(read.records.get('s-c')).toMatchObject({ settled: word('ended', at, 1), followedBy: null });
    const many = Array.from({ length: MAX_CANCEL_RECORDS + 5 }, (_, i) => ({
      key: `s-${i}`,
      requestedMs: at + i,
      settled: word('ended', at + i, 1),
    }));
    const expired = { key: 's-old', requestedMs: now - CANCEL_RECORD_TTL_MS - 1, followedBy: { pid: 1, start: null } };
    const p = parseSettledSide(JSON.stringify({ version: 1, entries: [expired, ...many] }), now);
    if (!p.ok) throw new Error(p.message);
    expect(p.entries.size).toBe(MAX_CANCEL_RECORDS);
    expect(p.entries.has('s-old')).toBe(false);
    expect(p.entries.has('s-0')).toBe(false);
    expect(p.entries.has(`s-${MAX_CANCEL_RECORDS + 4}`)).toBe(true);
  });
});

describe('after an older omc-top records a cancel, the settled word stays on every surface', () => {
  it('stopped on a second monitor, --json, watch --json rows and the serve page, as on the monitor that saw it', async () => {
    const s: Scene = cancelScene(true, cleanups);
    writeOmcJson(ralphStateFile(s.root, D), liveRalph({ sessionId: D, projectPath: s.dir, prompt: 'ralph other' }));
    const store = (): OmcStore => sceneStore(s, cleanups);
    const app = await mountScene(store(), cleanups);
    const other = store();
    const second = await mountScene(other, cleanups);
    const page = store();
    // Both loops listed; S selected (the rows are in attention order: D may come first).
    await app.waitForText(/enforced\s+(cccccccc[^]*enforced\s+dddddddd|dddddddd[^]*enforced\s+cccccccc)/);
    if (!app.lines().some((l) => /^▸ enforced\s+cccccccc/.test(l))) await app.press('j');
    await app.waitForText(/▸ enforced\s+cccccccc/);
    await app.press('c');
    await app.waitForText('y: cancel the loop');
    await app.press('y');
    await app.waitForText(/▸ stopping \d+s\s+cccccccc/);
    claudeNow(s, 'idle');
    await app.waitForText(/▸ stopped\s+cccccccc/);
    await second.waitForText(/stopped\s+cccccccc/);
    await waitFor(() => page.cancelRecords.getSnapshot().records.get(S)?.settled || null, {
      what: 'the settlement read by the serve page',
    });

    // The older omc-top, in another pane, cancels the other session: its record says its cancel in flight.
    const now = Date.now();
    await olderOmcTopRecordsCancel(s.stateDir, s.root, older(D, now));
    const screen = await second.waitForText(/cancel \d+s\s+dddddddd/);
    await waitFor(() => page.cancelRecords.getSnapshot().records.has(D) || null, {
      what: "the older omc-top's cancel read by the serve page",
    });
    expect({
      monitor: rowStatus(app.lines()),
      second: rowStatus(screen.split('\n')),
      ...(await otherSurfaces(s, page)),
    }).toEqual({
      monitor: 'stopped',
      second: 'stopped',
      json: 'stopped',
      jsonFlight: '(none)',
      jsonSettled: 'stopped',
      fleet: 'stopped',
      page: 'stopped',
    });
  });
});
