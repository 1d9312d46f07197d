/**
 * The Notepad entry list's footer offers Enter (read), i/e (edit) and d (del) only while an entry is selected: on an
 * empty Working Memory, and under a `/` filter that matches none, they are left out (a add stays). Pressed anyway,
 * each says "no entry selected" and nothing opens or asks; `?` still lists them, saying why not now. With an entry
 * on screen (added by OMC 5.5.0's own notepad writer) they are offered.
 */
import { beforeAll } from 'vitest';
import { describe, expect, it, KEY } from '../helpers/it.js';
import { READERS_CAPTURED_AT } from '../helpers/fixtures.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';
import { footerShows, offersNone, refusesEach } from '../helpers/empty-keys.js';

const NOW = READERS_CAPTURED_AT;
const ENTRY_HINTS = ['Enter read', 'i/e edit', 'd del'];
const NONE = 'no entry selected';

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

describe('the Notepad footer with no entry selected', () => {
  it('on an empty Working Memory leaves Enter, i/e and d out, says why when pressed, and offers them once OMC adds an entry', async ({
    emptyProject,
    app,
  }) => {
    const a = await app({
      root: emptyProject.root,
      pane: 'notepad',
      watch: 'auto',
      clock: () => NOW,
      columns: 200,
      rows: 40,
    });
    await a.press('2');
    await a.waitForText('No entries');
    await footerShows(a, ['a add', '/ filter'], "the list's footer");
    offersNone(a, ENTRY_HINTS);
    await refusesEach(a, [KEY.enter, 'i', 'e', 'd'], NONE, /No entries/);

    await a.press('?');
    await a.waitForText(`(not now: ${NONE})`);
    await a.press(KEY.esc);
    await a.waitForText('No entries');

    expect(omc.addWorkingMemoryEntry(emptyProject.dir, 'checkout.ts narrowing still open')).toBe(true);
    await a.waitForText('checkout.ts narrowing still open');
    await footerShows(a, ENTRY_HINTS, 'the entry keys back in the footer');
    await a.press('d');
    await a.waitForText('y: delete it');
  });

  it('under a / filter that matches no entry leaves them out, and offers them again when it is cleared', async ({
    app,
  }) => {
    const a = await app({ pane: 'notepad', clock: () => NOW, columns: 200, rows: 40 });
    await a.press('2');
    await a.waitForText('Blocked on payment sandbox');
    await footerShows(a, ENTRY_HINTS, 'the footer with entries');

    await a.press('/', 'z', 'z', 'q', 'x', KEY.enter);
    await a.waitForText(/zzqx/);
    await footerShows(a, ['a add', '/ filter'], "the filtered list's footer");
    expect(a.text()).not.toContain('Blocked on payment sandbox');
    offersNone(a, ENTRY_HINTS);
    await refusesEach(a, [KEY.enter, 'i', 'e', 'd'], NONE, /zzqx/);

    await a.press(KEY.esc);
    await a.waitForText('Blocked on payment sandbox');
    await footerShows(a, ENTRY_HINTS, 'the entry keys back in the footer');
  });
});
