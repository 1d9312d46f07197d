/**
 * Timestamps the clock cannot agree with: a state file stamped ahead of the clock (clock skew, a clock set
 * wrong) reads as ahead on every surface, never "0s ago", with a problem line that goes once the clock reaches
 * it; very old stamps read in years within the AGE column; a date past year 9999 gets the problem line of a
 * date that does not parse. The verdict stays OMC's: its Stop hook counts a time ahead as fresh.
 */
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { rowText } from '../../src/panes/sessions/rows.js';
import { detailLines } from '../../src/panes/sessions/detail.js';
import { lifeWords } from '../../src/panes/sessions/life-lines.js';
import { cellText, processCell } from '../../src/panes/sessions/agent-cell.js';
import type { ClaudeSessionView, ProcessView } from '../../src/store/claude/model.js';
import type { OmcStore } from '../../src/store/store.js';
import { liveRalph, writeOmcJson } from '../helpers/fixtures.js';

const AHEAD = 'f0f00003-0000-4000-8000-000000000003';
const OLD = 'f0f00004-0000-4000-8000-000000000004';
const LAST_DATE = 'f0f00005-0000-4000-8000-000000000005';
const DAY = 86_400_000;

const viewOf = (s: OmcStore, id: string) => s.sessions.getSnapshot().sessions.find((x) => x.id === id)!;
const problemsOf = (s: OmcStore, id: string) =>
  s.sessions
    .getSnapshot()
    .problems.filter((x) => x.path.includes(id))
    .map((x) => x.message);

describe('a state file stamped ahead of the clock', () => {
  it('reads as ahead in the row, the detail and a problem line, until the clock reaches it', ({
    emptyProject: p,
    newStore,
  }) => {
    let now = Date.now();
    const ahead = now + 400 * DAY;
    writeOmcJson(
      path.join(p.root, `state/sessions/${AHEAD}/ralph-state.json`),
      liveRalph({ sessionId: AHEAD, iteration: 2, startedAt: ahead - 60_000, checkedAt: ahead }),
    );
    const store = newStore({ root: p.root, watch: 'none', clock: () => now });
    store.start();
    const v = viewOf(store, AHEAD);
    // OMC's hook reads a negative age as fresh: the verdict is unchanged.
    expect(v.status).toBe('enforced');
    expect(rowText(v, now, 100, false).age.trim()).toBe('+1y');
    const detail = detailLines(v, now, 200).map((l) => l.text);
    expect(detail.join('\n')).toMatch(/updated: in 1y\b/);
    expect(detail.join('\n')).not.toMatch(/0s ago/);
    const iso = new Date(ahead).toISOString();
    expect(problemsOf(store, AHEAD)).toEqual([
      `last update ${iso} is in the future, ahead of this clock: clock skew? OMC's Stop hook counts it as fresh`,
    ]);
    const doc = JSON.parse(
      JSON.stringify(
        buildJsonReport({ root: p.root, rootRule: 't', notices: [], sessions: store.sessions.getSnapshot() }),
      ),
    ) as { problems: { path: string; message: string }[]; sessions: { id: string; updated_at: string }[] };
    expect(doc.sessions.find((x) => x.id === AHEAD)!.updated_at).toBe(iso);
    expect(doc.problems.some((x) => x.path.includes(AHEAD) && /in the future.*clock skew/.test(x.message))).toBe(true);
    // The view says when it changes by itself: when the stamp stops being ahead.
    expect(v.nextChangeAt).not.toBeNull();
    expect(v.nextChangeAt!).toBeLessThanOrEqual(ahead);
    now = ahead;
    store.sessions.clockJumped();
    expect(problemsOf(store, AHEAD)).toEqual([]);
    expect(rowText(viewOf(store, AHEAD), now, 100, false).age.trim()).toBe('0s');
  });
});

describe('stamps far from now', () => {
  it('a 1970 stamp reads 56y in the AGE column; one at JavaScript last date gets a problem line', ({
    emptyProject: p,
    newStore,
  }) => {
    const now = Date.parse('2026-12-05T13:00:00.000Z');
    const epoch = '1970-01-01T00:00:00.000Z';
    writeOmcJson(
      path.join(p.root, `state/sessions/${OLD}/ralph-state.json`),
      liveRalph({ sessionId: OLD, startedAt: epoch, checkedAt: epoch }),
    );
    const last = '+275760-09-13T00:00:00.000Z';
    writeOmcJson(
      path.join(p.root, `state/sessions/${LAST_DATE}/ralph-state.json`),
      liveRalph({ sessionId: LAST_DATE, startedAt: last, checkedAt: last }),
    );
    const store = newStore({ root: p.root, watch: 'none', clock: () => now });
    store.start();
    const old = rowText(viewOf(store, OLD), now, 100, false).age;
    expect(old.trim()).toBe('56y');
    expect(old.length).toBe(5); // the AGE column, its last cell blank
    expect(problemsOf(store, LAST_DATE).join('\n')).toMatch(
      /started_at should be an ISO date, found "\+275760-09-13T00:00:00\.000Z"; last_checked_at should be an ISO date/,
    );
  });
});

describe("a Claude process's state stamped ahead of the clock (the clock was set back)", () => {
  it('reads as stamped ahead, not "gone for 0s"', () => {
    const now = Date.parse('2026-12-05T11:25:00.000Z');
    expect(lifeWords('gone', now + 3_600_000 - 5_000, now)).toBe('gone, stamped in 59m');
    expect(lifeWords('gone', now - 120_000, now)).toBe('gone for 2m');
  });
});

describe('a Claude process that exited on another day than today (UTC)', () => {
  const EXITED = 'f0f00006-0000-4000-8000-000000000006';
  const now = Date.parse('2026-12-07T08:19:00.000Z');
  const exitedAt = (iso: string): ClaudeSessionView =>
    ({
      process: {
        pid: 7,
        sessionId: EXITED,
        status: 'exited',
        reason: 'its registry entry was removed (a clean exit)',
        since: Date.parse(iso),
      } as ProcessView,
      transcript: null,
    }) as unknown as ClaudeSessionView;

  it('says the day: a bare time is today', () => {
    expect(lifeWords('exited', Date.parse('2026-12-07T00:18:00.000Z'), now)).toBe('exited 00:18');
    expect(lifeWords('exited', Date.parse('2026-12-06T23:10:00.000Z'), now)).toBe('exited yesterday 23:10');
    expect(lifeWords('exited', Date.parse('2026-12-03T23:10:00.000Z'), now)).toBe('exited Dec 3 23:10');
    expect(lifeWords('exited', Date.parse('2025-12-30T23:10:00.000Z'), now)).toBe('exited Dec 30 2025 23:10');
    // The clock went back: the exit is stamped after now.
    expect(lifeWords('exited', Date.parse('2026-12-07T09:30:00.000Z'), now)).toBe('exited 09:30, ahead of this clock');
    expect(lifeWords('exited', Date.parse('2026-12-08T01:00:00.000Z'), now)).toBe(
      'exited Dec 8 01:00, ahead of this clock',
    );
  });

  it("the row's CLAUDE cell says it too, in 13 cells", ({ emptyProject: p, newStore }) => {
    writeOmcJson(
      path.join(p.root, `state/sessions/${EXITED}/ralph-state.json`),
      liveRalph({ sessionId: EXITED, iteration: 2, startedAt: now - 3 * DAY, checkedAt: now - 2 * DAY }),
    );
    const store = newStore({ root: p.root, watch: 'none', clock: () => now });
    store.start();
    const v = viewOf(store, EXITED);
    const cellAt = (iso: string, width: number) => cellText(processCell(v, exitedAt(iso), now, true), width);
    expect(cellAt('2026-12-07T00:18:00.000Z', 13)).toBe('exited 00:18');
    expect(cellAt('2026-12-06T23:10:00.000Z', 13)).toBe('exited Dec 6');
    expect(cellAt('2026-12-06T23:10:00.000Z', 40)).toBe('exited yesterday 23:10');
    expect(cellAt('2026-12-07T09:30:00.000Z', 13)).toBe('exited ahead');
  });
});
