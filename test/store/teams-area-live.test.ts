/**
 * The entries of state/team themselves, followed live by the real watcher: a directory whose name OMC refuses, or a
 * file where a team directory belongs, is a problem line while it is there and none once it is gone or renamed to
 * a name OMC takes; one made while the monitor runs gets its line then (the monitor used to compute them once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import type { OmcStore } from '../../src/store/store.js';
import { waitFor } from '../helpers/fixtures.js';
import { generateTeam } from '../helpers/team-gen.js';

/** The problem lines about entries of state/team (not about files inside a team). */
const teamProblems = (s: OmcStore) =>
  s.problems
    .getSnapshot()
    .filter((x) => /^state\/team\/[^/]+$/.test(x.path))
    .map((x) => x.path)
    .sort();

describe('state/team entries followed live', () => {
  it('a problem line for a bad entry comes and goes with it: removed, renamed, made while running', async ({
    emptyProject: p,
    newStore,
  }) => {
    generateTeam({ root: p.root, name: 'alpha', workers: 1, tasks: 1, now: Date.now() });
    const area = path.join(p.root, 'state', 'team');
    fs.mkdirSync(path.join(area, 'Bad Name'));
    const store = newStore({ root: p.root, watch: 'auto', teams: { pidAlive: () => true } });
    store.start();
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    expect(teamProblems(store)).toEqual(['state/team/Bad Name']);

    fs.rmdirSync(path.join(area, 'Bad Name'));
    await waitFor(() => teamProblems(store).length === 0, { what: 'the removed directory loses its line' });

    fs.mkdirSync(path.join(area, 'Other Bad'));
    await waitFor(() => teamProblems(store).join() === 'state/team/Other Bad', {
      what: 'a new bad name gets its line',
    });

    fs.renameSync(path.join(area, 'Other Bad'), path.join(area, 'beta'));
    await waitFor(() => teamProblems(store).length === 0, { what: 'renamed to a good name: no line' });

    fs.writeFileSync(path.join(area, 'stray'), 'x');
    await waitFor(() => teamProblems(store).join() === 'state/team/stray', { what: 'a file where a team belongs' });
    expect(store.problems.getSnapshot().find((x) => x.path === 'state/team/stray')?.message).toMatch(
      /a file where a team directory was expected/,
    );
    fs.unlinkSync(path.join(area, 'stray'));
    await waitFor(() => teamProblems(store).length === 0, { what: 'the file gone' });
    // The valid team was followed all along.
    expect(store.teams.getSnapshot().teams.map((t) => t.name)).toContain('alpha');
  });
});
