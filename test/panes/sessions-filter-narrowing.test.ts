// The `/` filter narrows the rows of the query it extends instead of scanning every session again. That is
// only an optimisation: whatever was typed before, each query must give exactly the rows (and the order) a
// fresh scan of every session gives, for every sort and with finished rows hidden or not.
import { describe, expect, it } from 'vitest';
import { SORTS, idsOf, rowKey, visibleSessions, type RowQuery } from '../../src/panes/sessions/reducer.js';
import type { ModeView, SessionView, SessionsSnapshot } from '../../src/store/sessions/model.js';

const STATUSES = ['active', 'finished', 'stale', 'idle', 'pending', 'cancelling'] as const;
const MODES = ['ralph', 'ultrawork', 'autopilot', 'team'];
/** The frame's clock the rows are filtered at (their ages are drawn at it). */
const NOW = Date.parse('2026-06-01T12:00:00.000Z');

function session(i: number): SessionView {
  const mode = {
    mode: MODES[i % MODES.length],
    status: i % 3 === 0 ? 'not-enforced' : 'running',
    phase: i % 5 === 0 ? 'verify' : null,
    prompt: `fix the ${i % 7 === 0 ? 'flaky test' : 'checkout flow'} ${i}`,
    extras: [`${i % 10}/10`],
    active: i % 2 === 0,
    iteration: i % 10,
    max: 10,
  } as unknown as ModeView;
  return {
    id: `s-${String(i).padStart(4, '0')}`,
    kind: 'session',
    status: STATUSES[i % STATUSES.length],
    // Ties on purpose (the sort must keep the store's order between them).
    updatedMs: 1_000 * (i % 13),
    rank: 3,
    modes: [mode],
    cancel: i % 11 === 0 ? { source: 'omc-top' } : null,
    problems: [],
  } as unknown as SessionView;
}

const snapshotOf = (sessions: SessionView[]): SessionsSnapshot =>
  ({ version: 1, sessions, problems: [], derivedAt: 0 }) as SessionsSnapshot;

/** What a snapshot that has seen no other query answers (the memo is per snapshot). */
const fresh = (sessions: SessionView[], q: RowQuery) => visibleSessions(snapshotOf(sessions), q, NOW).map((s) => s.id);

describe('sessions `/` filter: typing narrows the previous rows', () => {
  const sessions = Array.from({ length: 400 }, (_, i) => session(i));

  for (const sort of SORTS)
    for (const hideDone of [false, true])
      it(`gives a fresh scan's rows at every keystroke (sort ${sort}${hideDone ? ', done hidden' : ''})`, () => {
        const typing = snapshotOf(sessions);
        // Another query first; then typed, backspaced and typed again, with a second word and a trailing space.
        const keystrokes = [
          'r',
          'ra',
          'ral',
          'ralph',
          'ralph ',
          'ralph 3',
          'ralph ',
          'ralph v',
          'ralph ve',
          'ralph',
          'u',
        ];
        for (const filter of ['team', ...keystrokes, 'not enf', '4/10', 'flaky test 7', 'checkout  flow ']) {
          const q = { filter, sort, hideDone };
          expect(
            visibleSessions(typing, q, NOW).map((s) => s.id),
            filter,
          ).toEqual(fresh(sessions, q));
          expect(idsOf(visibleSessions(typing, q, NOW))).toEqual(visibleSessions(typing, q, NOW).map(rowKey));
        }
      });

  it('a query that shares no prefix with the cached ones scans every session', () => {
    const typing = snapshotOf(sessions);
    visibleSessions(typing, 'ralph', NOW);
    // "alph" is inside "ralph" but does not extend it: its rows are not a subset of anything cached.
    expect(visibleSessions(typing, 'alph', NOW).map((s) => s.id)).toEqual(fresh(sessions, { filter: 'alph' }));
    expect(visibleSessions(typing, 'alph', NOW).length).toBe(
      sessions.filter((s) => s.modes[0]?.mode === 'ralph').length,
    );
  });
});

describe('sessions `/` filter: rows patched from the snapshot before', () => {
  it("never patches one domain's rows with another's change (the fleet opens several projects' sessions)", () => {
    const a = Array.from({ length: 6 }, (_, i) => session(i));
    const b = Array.from({ length: 6 }, (_, i) => session(100 + i));
    // Two domains at the same versions: B's snapshot follows version 1, as A's first snapshot is version 1.
    const fromA = { ...snapshotOf(a), lineage: {} } as SessionsSnapshot;
    const fromB = {
      ...snapshotOf(b),
      version: 2,
      lineage: {},
      delta: { from: 1, changed: [], removed: [], gone: [] },
    } as SessionsSnapshot;
    const q = { filter: 's-0', sort: 'id' as const };
    expect(visibleSessions(fromA, q, NOW).map((s) => s.id)).toEqual(fresh(a, q));
    expect(visibleSessions(fromB, q, NOW).map((s) => s.id)).toEqual(fresh(b, q));
  });
});
