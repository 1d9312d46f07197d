/**
 * The footer at the widths people run omc-top in: whole hints only, the pane's
 * own actions before how to move and `q quit`, `? help` and the watch state
 * always there — except in a text field, where `?` and `q` are letters.
 */
import { OmcStore } from '../../src/store/store.js';
import { READERS_CAPTURED_AT } from '../helpers/fixtures.js';
import { describe, expect, it, type Fixtures } from '../helpers/it.js';
import type { MountedApp } from '../helpers/mount-app.js';

/** The fixture project on a watched store (the footer shows `live`), mounted at `columns`. */
async function footerAt({ project, mount }: Pick<Fixtures, 'project' | 'mount'>, columns: number): Promise<MountedApp> {
  const store = new OmcStore({ root: project.root, clock: () => READERS_CAPTURED_AT });
  store.start();
  const app = mount(store, { columns, rows: 24 });
  await app.waitForText(/ live$/m, 'the footer with the watch state');
  return app;
}

const footerOf = (a: MountedApp) => a.lines().at(-1) ?? '';

describe('footer', () => {
  for (const columns of [60, 80, 100, 140]) {
    it(`at ${columns} columns shows whole key hints, never one cut mid-word, then ? help and live`, async ({
      project,
      mount,
    }) => {
      const a = await footerAt({ project, mount }, columns);
      const footer = footerOf(a);
      expect(footer.length).toBeLessThanOrEqual(columns);
      expect(footer).toMatch(/\? help {2}live$/);
      expect(footer).not.toContain('…');
      // The sessions pane's own actions come before how to move: from 80 columns cancel and pause fit.
      expect(footer).toMatch(/Enter detail/);
      if (columns >= 80) expect(footer).toMatch(/c cancel {2}p pause/);
    });
  }

  it("at 80 columns the notepad's footer offers add, edit and delete", async ({ project, mount }) => {
    const a = await footerAt({ project, mount }, 80);
    await a.press('n');
    await a.waitForText(/Working Memory|Priority Context/, 'the notepad');
    const footer = footerOf(a);
    for (const hint of ['a add', 'i/e edit', 'd del']) expect(footer).toContain(hint);
  });

  it('in the notepad editor the footer offers neither ? help nor q quit (both are typed there)', async ({
    project,
    mount,
  }) => {
    const a = await footerAt({ project, mount }, 80);
    await a.press('n');
    await a.waitForText(/Working Memory|Priority Context/, 'the notepad');
    await a.press('a');
    await a.waitForText(/Ctrl-S/, 'the editor');
    const footer = footerOf(a);
    expect(footer).not.toMatch(/\? help/);
    expect(footer).not.toMatch(/q quit/);
    expect(footer).toMatch(/live$/);
  });
});
