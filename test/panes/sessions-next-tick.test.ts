// Idle CPU: the sessions pane asks for a repaint only when an age that can be on screen changes its
// text. A session far below the window, updated seconds ago, must not wake the monitor every 5 s
// while every row on screen shows an age in hours.
import { describe, expect, it } from 'vitest';
import { sessionsPane } from '../../src/panes/sessions/index.js';
import { initSessionsPane, visibleSessions } from '../../src/panes/sessions/reducer.js';
import type { SessionView, SessionsSnapshot } from '../../src/store/sessions/model.js';
import type { OmcStore } from '../../src/store/store.js';

const NOW = Date.parse('2026-06-01T12:00:07.000Z');
const view = (i: number, updatedMs: number) =>
  ({
    id: `s-${String(i).padStart(5, '0')}`,
    kind: 'session',
    status: 'active',
    updatedMs,
    modes: [],
    problems: [],
  }) as unknown as SessionView;

function storeWith(sessions: SessionView[], processSince = new Map<string, number>()): OmcStore {
  const snap: SessionsSnapshot = { version: 1, sessions, problems: [], derivedAt: NOW };
  const bySession = new Map([...processSince].map(([id, since]) => [id, { process: { since } }]));
  return {
    sessions: { getSnapshot: () => snap },
    cancels: { getSnapshot: () => ({ version: 0, entries: new Map() }) },
    claude: { getSnapshot: () => ({ bySession }) },
    // No other omc-top's cancel in flight (store/cancel/in-flight.ts reads them from here).
    cancelRecords: { getSnapshot: () => ({ records: new Map() }) },
  } as unknown as OmcStore;
}

describe('sessions pane: time-driven repaints', () => {
  it('only rows that can be on screen ask for a repaint', () => {
    const hoursAgo = NOW - 3 * 3_600_000 - 20_000;
    const rows = Array.from({ length: 2000 }, (_, i) => view(i, hoursAgo));
    rows[1500] = view(1500, NOW - 2_000); // far below the window, its age in seconds
    const state = initSessionsPane();
    const tick = sessionsPane.nextTick?.(state, storeWith(rows), NOW) ?? Infinity;
    // Every visible age is in hours: the next change of text is on the minute grid, not in 3 s.
    expect(tick).toBeGreaterThan(5_000);
    // Scrolled down to it, the seconds count again.
    const scrolled = { ...state, list: { ...state.list, top: 1490, index: 1500, id: 's-01500' } };
    expect(sessionsPane.nextTick?.(scrolled, storeWith(rows), NOW)).toBe(3_000);
  });

  it("a Claude process cell's age counts only on rows that can be on screen", () => {
    const hoursAgo = NOW - 3 * 3_600_000 - 20_000;
    const rows = Array.from({ length: 2000 }, (_, i) => view(i, hoursAgo));
    // The process behind a session far below the window changed state 2 s ago ("busy 2s").
    const procs = new Map([['s-01500', NOW - 2_000]]);
    const state = initSessionsPane();
    expect(sessionsPane.nextTick?.(state, storeWith(rows, procs), NOW) ?? Infinity).toBeGreaterThan(5_000);
    const scrolled = { ...state, list: { ...state.list, top: 1490, index: 1500, id: 's-01500' } };
    expect(sessionsPane.nextTick?.(scrolled, storeWith(rows, procs), NOW)).toBe(3_000);
  });

  it('a filter word of an age: a row it leaves out asks for the repaint at which it comes to read it', () => {
    const hoursAgo = NOW - 3 * 3_600_000 - 20_000;
    const rows = Array.from({ length: 20 }, (_, i) => view(i, hoursAgo));
    rows[7] = view(7, NOW - 2_000); // reads "0s" now, "5s" in 3 s
    const state = { ...initSessionsPane(), filter: '5s' };
    const store = storeWith(rows);
    const snap = store.sessions.getSnapshot();
    expect(visibleSessions(snap, state, NOW)).toEqual([]);
    expect(sessionsPane.nextTick?.(state, store, NOW)).toBe(3_000);
    expect(visibleSessions(snap, state, NOW + 3_000).map((s) => s.id)).toEqual(['s-00007']);
  });
});
