/** The footer at the widths people run omc-top in: whole hints only, `? help` and the watch state always there. */
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { READERS_CAPTURED_AT, makeProject, type TempProject } from '../helpers/fixtures.js';
import { renderApp, type AppHarness } from '../helpers/ink-app.js';

let p: TempProject | null = null;
let store: OmcStore | null = null;
let h: AppHarness | null = null;
afterEach(async () => {
  h?.unmount();
  await store?.close();
  p?.cleanup();
  h = p = store = null;
});

describe('footer', () => {
  for (const columns of [60, 80, 100, 140]) {
    it(`at ${columns} columns shows whole key hints, never one cut mid-word, and ? help / q quit / live`, async () => {
      p = makeProject({ withFixture: true });
      store = new OmcStore({ root: p.root, clock: () => READERS_CAPTURED_AT });
      store.start();
      h = renderApp(store, { columns, rows: 24 });
      await h.waitForText(/ live$/m, 'the footer with the watch state');
      const footer = h.screen().at(-1)!;
      expect(footer.length).toBeLessThanOrEqual(columns);
      expect(footer).toMatch(/\? help {2}q quit {2}live$/);
      expect(footer).not.toContain('…');
      // The first hint (how to move) always fits; wider terminals show more of them.
      expect(footer).toMatch(/↑↓ jk move/);
      if (columns >= 100) expect(footer).toMatch(/c cancel/);
    });
  }
});
