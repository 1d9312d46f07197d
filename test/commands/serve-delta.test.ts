/**
 * `serve`'s `/events` sends the whole picture once per connection, then only what changed: the rows that changed
 * or appeared, the order when it changed, the root fields that changed. The page's applier (APPLY_DELTA_JS, run
 * here as the page runs it) turns the previous picture and a delta into exactly the next picture, for any two
 * pictures; over a real HTTP stream on loopback, one loop's tick sends one row, and a reconnect starts whole.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { APPLY_DELTA_JS, pictureDelta, type PictureDelta } from '../../src/commands/serve/delta.js';
import { startServer } from '../../src/commands/serve/server.js';
import { singleSource, type Picture, type RootJson } from '../../src/commands/serve/source.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';

// The page's own function, evaluated as the browser evaluates the page's script.
const applyDelta = new Function(`${APPLY_DELTA_JS}\nreturn applyDelta;`)() as (p: Picture, d: PictureDelta) => Picture;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('picture deltas', () => {
  // Fields that come and go (a row's process, its name) as well as fields that change.
  const row = fc.record(
    {
      key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      session: fc.string({ maxLength: 3 }),
      modes: fc.constantFrom('ralph 1/10', 'ralph 2/10', ''),
      updatedMs: fc.option(fc.nat(), { nil: null }),
      process: fc.constantFrom('busy', 'idle'),
    },
    { requiredKeys: ['key', 'modes'] },
  );
  const root = fc.record({
    id: fc.constantFrom('r1', 'r2', 'r3'),
    project: fc.constantFrom('shop', 'api'),
    local: fc.boolean(),
    rows: fc.array(row, { maxLength: 6 }),
    needs: fc.array(fc.record({ id: fc.string({ maxLength: 2 }) }), { maxLength: 2 }),
  });
  const picture = fc
    .record({ count: fc.nat({ max: 3 }), roots: fc.uniqueArray(root, { selector: (r) => r.id, maxLength: 3 }) })
    .map((p) => p as unknown as Picture);

  it('applied to the previous picture, a delta gives exactly the next one (repeated keys: that root whole)', () => {
    fc.assert(
      fc.property(picture, picture, (prev, next) => {
        const d = pictureDelta(prev, next);
        if (d === null) expect(JSON.stringify(prev)).toBe(JSON.stringify(next));
        // As the page gets it: through JSON.
        else expect(applyDelta(prev, JSON.parse(JSON.stringify(d)))).toEqual(next);
        expect(pictureDelta(prev, prev)).toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it('one changed field of one row of many is sent alone, without the order', () => {
    const rows = Array.from({ length: 14 }, (_, i) => ({ key: `k${i}`, modes: `ralph ${i}/10`, updatedMs: i }));
    const prev = { count: 0, roots: [{ id: 'r', project: 'p', rows }] } as unknown as Picture;
    const next = {
      count: 0,
      roots: [{ id: 'r', project: 'p', rows: rows.map((r, i) => (i === 3 ? { ...r, modes: 'ralph 9/10' } : r)) }],
    } as unknown as Picture;
    expect(pictureDelta(prev, next)).toEqual({
      count: 0,
      roots: ['r'],
      changed: [{ id: 'r', rows: { put: [], patch: [{ key: 'k3', set: { modes: 'ralph 9/10' } }] } }],
    });
  });
});

/** The events of one `/events` stream, parsed as they arrive. */
function openStream(base: string, token: string) {
  const events: { type: string; data: any; bytes: number }[] = [];
  let buf = '';
  const req = http.get(`${base}/events`, { headers: { 'x-omc-top-token': token } }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      buf += c;
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const ev = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let type = 'message';
        for (const line of ev.split('\n')) {
          if (line.startsWith('event: ')) type = line.slice(7);
          else if (line.startsWith('data: '))
            events.push({ type, data: JSON.parse(line.slice(6)), bytes: Buffer.byteLength(line) });
        }
      }
    });
  });
  req.on('error', () => undefined);
  cleanups.push(() => req.destroy());
  return { events, close: () => req.destroy() };
}

/** The picture a page holds after these events. */
function held(events: { type: string; data: any }[]): Picture {
  let p: Picture | null = null;
  for (const e of events) p = e.type === 'delta' ? applyDelta(p as Picture, e.data) : e.data;
  return p as Picture;
}

const SESSION = 'befb1f7b-e9bc-4db9-97a3-f31e7239cd2c';
const modesOf = (p: Picture) => (p.roots[0] as RootJson).rows.find((r) => r.session === SESSION)?.modes ?? '';

describe('serve /events on loopback', () => {
  it('sends the whole picture first, then one changed row; a reconnect gets the whole picture', async () => {
    const p = makeProject({ withFixture: true, prefix: 'omc-top-serve-delta-' });
    cleanups.push(() => p.cleanup());
    const store = new OmcStore({ root: p.root, readonly: true, watch: 'auto', projectDir: p.dir });
    store.start();
    const source = singleSource(store, 'shop', { XDG_STATE_HOME: path.join(p.dir, 'xdg-state') });
    const token = 'test-token-0123456789';
    const served = await startServer({ source, token, listen: '127.0.0.1', port: 0, readonly: true });
    cleanups.push(
      () => source.close(),
      () => served.close(),
    );
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    const base = `http://127.0.0.1:${served.port}`;
    const a = openStream(base, token);
    await waitFor(() => a.events.length >= 1 && /ralph 3\/100/.test(modesOf(held(a.events))), {
      what: 'first picture',
    });
    const first = a.events[0]!;
    expect(first.type).toBe('message');
    expect((first.data as Picture).roots[0]!.rows.length).toBeGreaterThan(1);

    const file = path.join(p.root, 'state', 'sessions', SESSION, 'ralph-state.json');
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const from = a.events.length;
    writeOmcJson(file, { ...v, iteration: 4, last_checked_at: new Date().toISOString() });
    await waitFor(() => /ralph 4\/100/.test(modesOf(held(a.events))), { what: 'iteration 4 on the stream' });
    const after = a.events.slice(from);
    const change = after.find((e) => e.type === 'delta' && JSON.stringify(e.data).includes('ralph 4/100'));
    expect(change, JSON.stringify(after.map((e) => e.type))).toBeDefined();
    // Only the loop's row travels, and the event is a fraction of the whole picture.
    const rows = (change!.data as PictureDelta).changed.flatMap((c) => [
      ...(c.rows?.put ?? []).map((r) => r.key),
      ...(c.rows?.patch ?? []).map((r) => r.key),
    ]);
    const loopKey = (held(a.events).roots[0] as RootJson).rows.find((r) => r.session === SESSION)?.key;
    expect(rows).toEqual([loopKey]);
    // (Its move to the top, newest first, adds the rows' key order once.)
    expect(change!.bytes).toBeLessThan(first.bytes / 4);

    // A reconnect starts whole, and from the same picture the first stream now holds.
    const b = openStream(base, token);
    await waitFor(() => b.events.length >= 1, { what: 'the second stream' });
    expect(b.events[0]!.type).toBe('message');
    expect(modesOf(b.events[0]!.data)).toMatch(/ralph 4\/100/);
    // Both streams are sent the same events from there on: the two pages hold the same picture.
    await waitFor(() => JSON.stringify(held(a.events)) === JSON.stringify(held(b.events)), { what: 'same picture' });
  });
});
