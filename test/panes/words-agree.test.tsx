/**
 * Words that must agree with each other on screen: the Cost pane's loop counts with the header's, its footer
 * with what its keys do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { READERS_CAPTURED_AT, makeProject, type TempProject } from '../helpers/fixtures.js';
import { mountStore, type MountedApp } from '../helpers/mount-app.js';

const NOW = READERS_CAPTURED_AT;

let p: TempProject | null = null;
let store: OmcStore | null = null;
let h: MountedApp | null = null;
afterEach(async () => {
  h?.unmountOnly();
  await store?.close();
  p?.cleanup();
  h = null;
  store = null;
  p = null;
});

describe('words that agree', () => {
  it("the Cost pane's Loops title counts running and stale loops as the header does; its footer says the keys scroll", async () => {
    p = makeProject({ withFixture: true });
    store = new OmcStore({ root: p.root, clock: () => NOW, watch: 'none', teams: { pidAlive: () => true } });
    store.start();
    h = mountStore(store, { columns: 120, rows: 40 });
    await h.waitForText(/\d+ sess · \d+ running/);
    h.send('$');
    await h.waitForText('▌Loops (');
    const header = /\d+ sess · (\d+) running(?: · (\d+) stale)?/.exec(h.text());
    const title = /▌Loops \((\d+) running(?: · (\d+) stale)?/.exec(h.text());
    expect(title?.[1]).toBe(header?.[1]);
    expect(title?.[2]).toBe(header?.[2]);
    expect(h.text()).not.toMatch(/Loops \(\d+ live\)/);
    expect(h.lines().at(-1)).toMatch(/↑↓ jk scroll/);
    expect(h.lines().at(-1)).not.toMatch(/jk move/);
  });

  it('the Wiki search row reads "/ to search" (its own slash is the key), not "/ / to search"', async () => {
    p = makeProject({ withFixture: true });
    store = new OmcStore({ root: p.root, clock: () => NOW, watch: 'none' });
    store.start();
    h = mountStore(store, { columns: 100, rows: 30 });
    h.send('w');
    await h.waitForText('10 of 10 pages');
    expect(h.text()).toMatch(/^\/ to search +10 of 10 pages$/m);
    expect(h.text()).not.toContain('/ / to search');
  });

  it('a dialog is as tall as its lines at 200x60, not the whole pane', async () => {
    p = makeProject({ withFixture: true });
    store = new OmcStore({ root: p.root, clock: () => NOW, watch: 'none', teams: { pidAlive: () => true } });
    store.start();
    h = mountStore(store, { columns: 200, rows: 60 });
    h.send('t', 'X');
    await h.waitForText('Ask all 3 workers of fix-ts-errors to shut down?');
    const lines = h.lines();
    const top = lines.findIndex((l) => l.startsWith('╭'));
    const bottom = lines.findIndex((l) => l.startsWith('╰'));
    expect(top).toBeGreaterThanOrEqual(0);
    // Border, title, the question's lines, the prompt: a handful of rows, every one of them used.
    const box = lines.slice(top + 1, bottom);
    expect(box.length).toBeLessThan(15);
    expect(box.every((l) => l.replace(/[│\s]/g, '') !== '')).toBe(true);
  });
});
