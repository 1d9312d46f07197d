/**
 * The sessions → teams link follows what the user selected in the sessions
 * pane, never the implied first row (it moves whenever sessions re-sort), so
 * an opened team is not yanked away by a live update.
 */
import { describe, expect, it } from 'vitest';
import { followSessions } from '../../src/panes/teams/link.js';
import { initTeamsPane, openDetail, visibleTeams } from '../../src/panes/teams/reducer.js';
import type { TeamView, TeamsSnapshot } from '../../src/store/teams/model.js';

const team = (key: string, owner: string | null): TeamView =>
  ({
    key,
    name: key,
    board: 'running',
    owner: owner ? { sessionId: owner, source: 'team-state.json', modePath: null, modeActive: true } : null,
  }) as unknown as TeamView;
const snap: TeamsSnapshot = {
  version: 1,
  teams: [team('alpha', 'sess-a'), team('beta', 'sess-b'), team('gamma', null)],
  problems: [],
  derivedAt: 0,
  heartbeatStaleMs: 180_000,
};

describe('followSessions', () => {
  it('on first sight preselects the team of the row the sessions pane shows as selected', () => {
    const s = followSessions(initTeamsPane(), { explicit: null, shown: 'sess-b' }, snap);
    expect(s).toMatchObject({ list: { id: 'beta' }, anchorSession: null });
  });

  it('ignores the implied first row moving later, keeping an opened team open', () => {
    const opened = openDetail({ ...initTeamsPane(), anchorSession: null }, 'beta');
    expect(followSessions(opened, { explicit: null, shown: 'sess-a' }, snap)).toBe(opened);
  });

  it('follows a new explicit selection of a team session, closing another team', () => {
    const opened = openDetail({ ...initTeamsPane(), anchorSession: 'sess-b' }, 'beta');
    const s = followSessions(opened, { explicit: 'sess-a', shown: 'sess-a' }, snap);
    expect(s).toMatchObject({ list: { id: 'alpha' }, anchorSession: 'sess-a', detail: null });
    // Same selection again: nothing changes (the user's own moves in this pane stick).
    const moved = { ...s, list: { ...s.list, id: 'gamma' } };
    expect(followSessions(moved, { explicit: 'sess-a', shown: 'sess-a' }, snap)).toBe(moved);
  });

  it('keeps the team open when the newly selected session owns the team already open', () => {
    const opened = openDetail({ ...initTeamsPane(), anchorSession: 'x' }, 'alpha');
    expect(followSessions(opened, { explicit: 'sess-a', shown: 'sess-a' }, snap).detail?.key).toBe('alpha');
  });

  it('a session without a team only moves the anchor', () => {
    const s = followSessions(
      { ...initTeamsPane(), anchorSession: 'x', list: { id: 'gamma', index: 0, top: 0 } },
      { explicit: 'sess-z', shown: 'sess-z' },
      snap,
    );
    expect(s).toMatchObject({ list: { id: 'gamma' }, anchorSession: 'sess-z' });
  });
});

describe('team list order', () => {
  const team = (key: string, board: string, createdMs: number) => ({ key, name: key, board, createdMs }) as never;
  it('a team whose board flips between running, blocked and waiting keeps its row; a finished team goes last', () => {
    const a = team('a', 'running', 3);
    const b = team('b', 'waiting', 2);
    const c = team('c', 'running', 1);
    const order = (teams: unknown[]) =>
      visibleTeams({ teams, problems: [], version: 1, derivedAt: 0, heartbeatStaleMs: 1 } as never, '', 0).map(
        (t) => t.key,
      );
    expect(order([a, b, c])).toEqual(['a', 'b', 'c']);
    // b starts a task (running), a waits for its next one: nothing moves.
    expect(order([team('b', 'running', 2), team('a', 'waiting', 3), c])).toEqual(['a', 'b', 'c']);
    expect(order([team('a', 'blocked', 3), b, c])).toEqual(['a', 'b', 'c']);
    expect(order([team('a', 'done', 3), b, c])).toEqual(['b', 'c', 'a']);
  });
});
