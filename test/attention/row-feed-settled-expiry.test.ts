/**
 * `watch --json --rows` drops a settled cancel's word when its five minutes are over (feeds/row-feed.ts): the row is
 * sent again without `cancelSettled` at that moment, by one timer, though nothing changed on disk. It used to keep the
 * word in the last row sent until the row changed for another reason.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CancelRecordFile } from '../../src/store/cancel/cancel-records.js';
import { SETTLED_SHOW_MS } from '../../src/store/cancel/settled.js';
import { startRowFeed } from '../../src/feeds/row-feed.js';
import { waitFor } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { S, cancelScene, sceneStore } from '../helpers/cancel-surfaces.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('watch --json --rows: a settled word leaves the row when its minutes are over', () => {
  it('the row is sent again without cancelSettled at its expiry, nothing else having changed', async () => {
    const s = cancelScene(false, cleanups);
    // Another omc-top's cancel of S did not take (the loop is active again); its word has a moment left to show.
    const requestedMs = Date.now() - SETTLED_SHOW_MS - 60_000;
    const atMs = Date.now() - SETTLED_SHOW_MS + scaled(1_500);
    const other = new CancelRecordFile(s.stateDir, s.root);
    await other.add({
      key: S,
      modes: ['ralph'],
      requestedMs,
      expiresMs: requestedMs + 30_000,
      notEnded: [],
      failed: null,
    });
    await other.settle(S, requestedMs, { word: 'not-taken', atMs, stoppedMs: null, seen: null, byPid: 1 });
    const store = sceneStore(s, cleanups);
    await waitFor(() => store.sessions.getSnapshot().sessions.find((x) => x.id === S) ?? null, { what: 'S read' });
    const rows: Array<{ cancelSettled?: { word: string } | null; status: string }> = [];
    const stop = startRowFeed(
      store,
      'p',
      (line) => {
        const l = JSON.parse(line) as { session: string; row: (typeof rows)[number] | null };
        if (l.session === S && l.row) rows.push(l.row);
      },
      Date.now,
    );
    cleanups.push(() => stop());
    expect(rows.at(-1)?.cancelSettled).toEqual({ word: 'not-taken', atMs });
    const gone = await waitFor(() => (rows.length > 1 ? rows.at(-1) : null), {
      what: 'the row sent again',
      timeoutMs: scaled(8_000),
    });
    expect(gone?.cancelSettled).toBeNull();
    expect(Date.now()).toBeGreaterThanOrEqual(atMs + SETTLED_SHOW_MS);
  });
});
