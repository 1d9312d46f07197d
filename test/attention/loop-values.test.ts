// The status line's loops (feeds/status-line.ts loopValues): the first running loop in the sessions' order (the
// attention order: the one that needs the user most) with its progress, then a count of the rest; `active` counts
// every one. A snapshot that carries the domain's
// count of running loops gives the same line without a pass over every session.
import { describe, expect, it } from 'vitest';
import { loopValues } from '../../src/feeds/status-line.js';
import { loopCountOf, STATUS_RANK } from '../../src/store/sessions/derive.js';
import { holdsAgent, LAST_HOLDING_RANK } from '../../src/store/sessions/model.js';
import type { ModeView, SessionView, SessionsSnapshot } from '../../src/store/sessions/model.js';

const mode = (m: Partial<ModeView>): ModeView =>
  ({ mode: 'ralph', status: 'enforced', iteration: null, max: null, ...m }) as ModeView;
const snap = (...modes: ModeView[][]): SessionsSnapshot => ({
  version: 1,
  derivedAt: 0,
  problems: [],
  sessions: modes.map((ms, i) => ({ id: `s${i}`, kind: 'session', modes: ms }) as unknown as SessionView),
});
/** The same snapshot with the domain's counts, as the live store publishes it. */
const counted = (s: SessionsSnapshot): SessionsSnapshot => ({
  ...s,
  counts: {
    running: 0,
    stale: 0,
    loops: s.sessions.reduce((n, v) => n + loopCountOf(v), 0),
  },
});

describe('loopValues', () => {
  it('no running loop', () => {
    expect(loopValues(snap([mode({ status: 'finished' as ModeView['status'] })]))).toEqual({
      loops: 'no loops',
      active: 0,
    });
  });

  it('one loop is shown alone with its progress', () => {
    expect(loopValues(snap([mode({ iteration: 2, max: 5 })]))).toEqual({ loops: 'ralph 2/5', active: 1 });
  });

  it("several sessions' loops: the first in the sessions' order with its progress, and a count of the others", () => {
    // Two sessions' ralphs side by side (`ralph 1/100 ralph 2/100`) read as one session's: one loop and a count.
    expect(loopValues(snap([mode({ iteration: 2, max: 100 })], [mode({ iteration: 1, max: 100 })]))).toEqual({
      loops: 'ralph 2/100 +1',
      active: 2,
    });
    const v = loopValues(
      snap(
        [mode({ iteration: 2, max: 5 })],
        [mode({ mode: 'ultrawork', status: 'pending' })],
        [mode({ iteration: 7 })],
      ),
    );
    expect(v).toEqual({ loops: 'ralph 2/5 +2', active: 3 });
  });

  it('the first loop and a count of the others; paused loops count, others do not', () => {
    const v = loopValues(
      snap(
        [mode({ iteration: 1, max: 9 }), mode({ mode: 'ultrawork', status: 'paused' })],
        [mode({ status: 'stale' as ModeView['status'] })],
        [mode({ mode: 'autopilot', iteration: 3 })],
        [mode({ iteration: 4, max: 4 })],
        [mode({ mode: 'team', status: 'pending' })],
      ),
    );
    expect(v).toEqual({ loops: 'ralph 1/9 +4', active: 5 });
  });

  it("with the domain's count of running loops: the same line, and the count is the one given", () => {
    const many = snap(
      ...Array.from({ length: 50 }, (_, i) => [mode({ iteration: i, max: 60 }), mode({ mode: 'ultrawork' })]),
    );
    expect(loopValues(counted(many))).toEqual(loopValues(many));
    expect(loopValues(counted(many))).toEqual({ loops: 'ralph 0/60 +99', active: 100 });
    // The count is the domain's: the rows after the shown loops are not walked again to recount them.
    expect(loopValues({ ...many, counts: { running: 0, stale: 0, loops: 7 } })).toEqual({
      loops: 'ralph 0/60 +6',
      active: 7,
    });
  });

  it('a session omc-top could not read may hold a loop: never "no loops", said after the loops seen', () => {
    const unreadable = (id: string, modes: ModeView[]) =>
      ({ id, kind: 'session', status: 'unreadable', rank: 1, modes }) as unknown as SessionView;
    const alone: SessionsSnapshot = { ...snap(), sessions: [unreadable('u', [mode({ status: 'unreadable' })])] };
    expect(loopValues(alone)).toEqual({ loops: '? unreadable', active: 0 });
    const running = snap(...Array.from({ length: 5 }, (_, i) => [mode({ iteration: i, max: 9 })]))
      .sessions as SessionView[];
    const mixed: SessionsSnapshot = {
      ...snap(),
      sessions: [unreadable('u1', []), ...running, unreadable('u2', [mode({ status: 'unreadable' })])],
    };
    expect(loopValues(mixed)).toEqual({ loops: 'ralph 0/9 +4 ? 2 unreadable', active: 5 });
    // With the domain's counts the walk may stop after the shown loops: the count of unreadable ones is the domain's.
    expect(loopValues({ ...mixed, counts: { running: 5, stale: 0, loops: 5, unreadable: 2 } })).toEqual(
      loopValues(mixed),
    );
    // A snapshot whose counts predate that count is walked to its end for them.
    expect(loopValues({ ...mixed, counts: { running: 5, stale: 0, loops: 5 } })).toEqual(loopValues(mixed));
  });

  it("a walk with the domain's count stops at the first session ranked after any that can hold a loop", () => {
    let read = 0;
    /** A stale row (rank 4) that counts the reads of its modes. */
    const stale = (i: number) =>
      ({
        id: `stale${i}`,
        kind: 'session',
        rank: 4,
        get modes() {
          read += 1;
          return [mode({ status: 'stale' as ModeView['status'] })];
        },
      }) as unknown as SessionView;
    const running = {
      id: 'run',
      kind: 'session',
      rank: 2,
      modes: [mode({ iteration: 2, max: 5 })],
    } as unknown as SessionView;
    const all: SessionsSnapshot = {
      ...snap(),
      sessions: [running, ...Array.from({ length: 10_000 }, (_, i) => stale(i))],
      counts: { running: 1, stale: 10_000, loops: 1 },
    };
    expect(loopValues(all)).toEqual({ loops: 'ralph 2/5', active: 1 });
    expect(read, 'stale rows walked').toBe(0);
  });

  it('no rank past LAST_HOLDING_RANK can hold a loop', () => {
    const holding = (Object.keys(STATUS_RANK) as Array<keyof typeof STATUS_RANK>).filter((status) =>
      holdsAgent({ status: status as ModeView['status'] }),
    );
    expect(holding.length).toBeGreaterThan(0);
    expect(Math.max(...holding.map((s) => STATUS_RANK[s]), STATUS_RANK.cancelling)).toBe(LAST_HOLDING_RANK);
  });
});
