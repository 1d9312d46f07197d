/**
 * The Teams list's footer offers Enter (open) and X (stop team) only while a team is selected: with no team runs
 * yet, and under a `/` filter that matches none, they are left out. Pressed anyway, each says "no team selected"
 * and nothing opens or asks; `?` still lists them, saying why not now. With a team on screen they are offered.
 */
import { describe, expect, it, KEY } from '../helpers/it.js';
import { READERS_CAPTURED_AT } from '../helpers/fixtures.js';
import { generateTeam } from '../helpers/team-gen.js';
import { footerShows, offersNone, refusesEach } from '../helpers/empty-keys.js';

const NOW = READERS_CAPTURED_AT;
const TEAM_HINTS = ['Enter open', 'X stop team'];
const NONE = 'no team selected';

describe('the Teams footer with no team selected', () => {
  it('with no team runs leaves Enter and X out, says why when pressed, and offers them once a team is there', async ({
    emptyProject,
    app,
  }) => {
    const a = await app({
      root: emptyProject.root,
      pane: 'teams',
      watch: 'auto',
      clock: () => NOW,
      columns: 200,
      rows: 40,
    });
    await a.waitForText('No team runs yet');
    await footerShows(a, ['/ filter'], "the list's footer");
    offersNone(a, TEAM_HINTS);
    await refusesEach(a, [KEY.enter, 'X'], NONE, /No team runs yet/);

    await a.press('?');
    await a.waitForText(`(not now: ${NONE})`);
    await a.press(KEY.esc);
    await a.waitForText('No team runs yet');

    generateTeam({ root: emptyProject.root, name: 'solo-team', workers: 1, tasks: 2, now: NOW });
    await a.waitForText('solo-team');
    await footerShows(a, TEAM_HINTS, 'the team keys back in the footer');
    await a.press('X');
    await a.waitForText('shut the team down');
  });

  it('under a / filter that matches no team leaves them out, and offers them again when it is cleared', async ({
    app,
  }) => {
    const a = await app({ pane: 'teams', clock: () => NOW, columns: 200, rows: 40 });
    await a.waitForText('fix-ts-errors');
    await footerShows(a, TEAM_HINTS, 'the footer with a team');

    await a.press('/', 'z', 'z', 'q', 'x', KEY.enter);
    await a.waitForText(/zzqx/);
    await footerShows(a, ['/ filter'], "the filtered list's footer");
    expect(a.text()).not.toContain('fix-ts-errors');
    offersNone(a, TEAM_HINTS);
    await refusesEach(a, [KEY.enter, 'X'], NONE, /zzqx/);

    await a.press(KEY.esc);
    await a.waitForText('fix-ts-errors');
    await footerShows(a, TEAM_HINTS, 'the team keys back in the footer');
  });
});
