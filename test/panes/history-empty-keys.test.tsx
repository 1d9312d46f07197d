/**
 * The History list's footer offers Enter (detail) only while a run is selected: with no runs yet, and under a `/`
 * filter that matches none, it is left out. Pressed anyway, it says "no run selected" and opens nothing; `?` still
 * lists it, saying why not now. With a run on screen (OMC 5.6's ledger, test/helpers/omc56.ts) it is offered.
 */
import { describe, expect, it, KEY } from '../helpers/it.js';
import * as omc56 from '../helpers/omc56.js';
import { footerShows, offersNone, refusesEach } from '../helpers/empty-keys.js';

const S = 'e1e2e3e4-0000-4000-8000-0000000000e1';
const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const RUN_HINTS = ['Enter detail'];
const NONE = 'no run selected';

describe('the History footer with no run selected', () => {
  it('with no runs leaves Enter out, says why when pressed, and offers it once a run is logged', async ({
    emptyProject,
    app,
  }) => {
    const a = await app({
      root: emptyProject.root,
      pane: 'history',
      watch: 'auto',
      clock: () => NOW,
      columns: 200,
      rows: 40,
    });
    await a.waitForText('No runs yet');
    await footerShows(a, ['o outcome'], "the list's footer");
    offersNone(a, RUN_HINTS);
    await refusesEach(a, [KEY.enter, 'l'], NONE, /No runs yet/);

    await a.press('?');
    await a.waitForText(`(not now: ${NONE})`);
    await a.press(KEY.esc);
    await a.waitForText('No runs yet');

    omc56.start(emptyProject.root, 'ralph', S, new Date(NOW - 10 * 60_000).toISOString());
    await a.waitForText(/ralph\s+e1e2e3e4/);
    await footerShows(a, RUN_HINTS, 'Enter back in the footer');
    await a.press(KEY.enter);
    await footerShows(a, ['Esc back'], 'the run detail');
  });

  it('under a / filter that matches no run leaves Enter out, and offers it again when the filters are cleared', async ({
    emptyProject,
    app,
  }) => {
    omc56.start(emptyProject.root, 'ralph', S, new Date(NOW - 10 * 60_000).toISOString());
    const a = await app({ root: emptyProject.root, pane: 'history', clock: () => NOW, columns: 200, rows: 40 });
    await a.waitForText(/ralph\s+e1e2e3e4/);
    await footerShows(a, RUN_HINTS, 'the footer with a run');

    await a.press('/', 'z', 'z', 'q', 'x', KEY.enter);
    await a.waitForText(/zzqx/);
    await footerShows(a, ['o outcome'], "the filtered list's footer");
    expect(a.text()).not.toMatch(/ralph\s+e1e2e3e4/);
    offersNone(a, RUN_HINTS);
    await refusesEach(a, [KEY.enter], NONE, /zzqx/);

    await a.press(KEY.esc);
    await a.waitForText(/ralph\s+e1e2e3e4/);
    await footerShows(a, RUN_HINTS, 'Enter back in the footer');
  });
});
