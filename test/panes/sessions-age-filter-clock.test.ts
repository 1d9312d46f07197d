// A `/` filter word an age may hold ("5m") keeps the rows whose AGE cell reads it at the frame's clock. The rows are
// kept for as long as every row's age reads the same (format.ts sameAgeSpan): a frame, its footer and its settle
// step read the clock a few ms apart and must not filter every session again each. Held here to a fresh look at
// every row's age at each reading, across age turnovers, with the kept answer reused only inside one stretch.
import { describe, expect, it } from 'vitest';
import { visibleSessions } from '../../src/panes/sessions/reducer.js';
import { formatAge } from '../../src/ui/format.js';
import type { ModeView, SessionView, SessionsSnapshot } from '../../src/store/sessions/model.js';

const T0 = Date.parse('2026-06-01T12:00:00.000Z');

function session(i: number): SessionView {
  const mode = {
    mode: 'ralph',
    status: 'running',
    phase: null,
    prompt: 'fix the checkout flow',
    extras: [],
    active: true,
    iteration: 1,
    max: 10,
  } as unknown as ModeView;
  return {
    id: `s-${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    kind: 'session',
    status: 'active',
    // Ages spread over 4–7 minutes, a few ms apart, some fractional (a file's mtime): turnovers all the time.
    updatedMs: T0 - 240_000 - i * 1_733.25,
    rank: 3,
    modes: [mode],
    cancel: null,
    problems: [],
  } as unknown as SessionView;
}

const sessions = Array.from({ length: 120 }, (_, i) => session(i));
const snap = { version: 1, sessions, problems: [], derivedAt: 0 } as SessionsSnapshot;
/** Which rows read "5m" at `t`, looked at afresh. */
const readsFiveMinutes = (t: number) =>
  sessions
    .filter((s) => formatAge(s.updatedMs, t) === '5m')
    .map((s) => s.id)
    .sort();

describe('a filter word an age may hold, as the clock goes on', () => {
  it('at every reading: the rows whose age reads the word then, whatever was asked before', () => {
    let turned = 0;
    let last = '';
    for (let t = T0; t < T0 + 150_000; t += 97) {
      const ids = visibleSessions(snap, '5m', t)
        .map((s) => s.id)
        .sort();
      expect(ids, `at ${t - T0} ms`).toEqual(readsFiveMinutes(t));
      if (ids.join() !== last) turned++;
      last = ids.join();
    }
    expect(turned).toBeGreaterThan(20); // rows came and went many times: the test crossed turnovers
  });

  it('readings a few ms apart inside one stretch get the same rows without filtering again', () => {
    // Just after a turnover: the next is at least a second away (the rows are 1.7 s of age apart, ages read to the minute).
    let t = T0 + 10_000;
    while (readsFiveMinutes(t).join() === readsFiveMinutes(t - 1).join()) t++;
    const first = visibleSessions(snap, '5m', t);
    expect(visibleSessions(snap, '5m', t + 3)).toBe(first);
    expect(visibleSessions(snap, '5m', t + 12)).toBe(first);
    // At the reading before the turnover the rows are others (and then the kept answer is for that stretch).
    expect(visibleSessions(snap, '5m', t - 1).map((s) => s.id)).not.toEqual(first.map((s) => s.id));
  });

  it('snapshot after snapshot (one session written each time): the rows a fresh look at every age gives', () => {
    // Each snapshot says what changed since the one before (its delta, one domain's lineage): the sessions it did not
    // write keep their SessionView, and the last pass's verdict on them is reused inside its stretch.
    const lineage = {};
    let current = sessions.slice();
    let t = T0;
    for (let step = 0; step < 400; step++) {
      // Now and then the clock steps back (a wall clock set back): no verdict from a later stretch may be reused.
      t += step % 50 === 49 ? -7_000 : 37 + (step % 5) * 211;
      const i = (step * 7) % current.length;
      const changed: SessionView[] = [];
      if (step % 3 !== 2)
        current = current.map((s, j) => {
          if (j !== i) return s;
          const written = { ...s, updatedMs: t - 300_000 + step };
          changed.push(written);
          return written;
        });
      const snap = {
        version: step + 2,
        sessions: current,
        problems: [],
        derivedAt: 0,
        lineage,
        delta: { from: step + 1, changed, removed: [] },
      } as SessionsSnapshot;
      // At nearby readings, earlier and later, as a frame, its footer and its settle step ask.
      for (const at of [t, t - 3, t + 4]) {
        const want = current
          .filter((s) => formatAge(s.updatedMs, at) === '5m')
          .map((s) => s.id)
          .sort();
        const got = visibleSessions(snap, '5m', at)
          .map((s) => s.id)
          .sort();
        expect(got, `step ${step} at ${at - T0} ms`).toEqual(want);
      }
    }
  });

  it('a query that changed beside the snapshot (hiding, another word): rows it never looked at are looked at', () => {
    // A key and a store change land in one frame: the pass before was over the last snapshot with the other query,
    // so its verdicts cover only the rows that query gave. Same age word, so only the whole query tells them apart.
    const lineage = {};
    const mixed = sessions.map((s, i) =>
      i % 2 === 0
        ? s
        : ({ ...s, status: 'finished', modes: s.modes.map((m) => ({ ...m, prompt: 'ship the docs' })) } as SessionView),
    );
    const t = T0 + 31_000;
    const want = (rows: readonly SessionView[]) =>
      rows
        .filter((s) => formatAge(s.updatedMs, t) === '5m')
        .map((s) => s.id)
        .sort();
    const ids = (rows: readonly SessionView[]) => rows.map((s) => s.id).sort();
    const first = { version: 10, sessions: mixed, problems: [], derivedAt: 0, lineage } as SessionsSnapshot;
    const hidden = visibleSessions(first, { filter: '5m', hideDone: true }, t);
    expect(ids(hidden)).toEqual(want(mixed.filter((s) => s.status !== 'finished')));
    const written = { ...mixed[0], updatedMs: (mixed[0] as SessionView).updatedMs } as SessionView;
    const next = mixed.map((s, i) => (i === 0 ? written : s));
    const second = {
      version: 11,
      sessions: next,
      problems: [],
      derivedAt: 0,
      lineage,
      delta: { from: 10, changed: [written], removed: [] },
    } as SessionsSnapshot;
    const shown = visibleSessions(second, { filter: '5m', hideDone: false }, t);
    expect(want(next).length).toBeGreaterThan(ids(hidden).length); // the finished rows read "5m" too
    expect(ids(shown)).toEqual(want(next));

    // Another word beside the age word, then a snapshot with the first word again.
    const docs = visibleSessions(second, 'docs 5m', t);
    expect(ids(docs)).toEqual(want(next.filter((s) => s.status === 'finished')));
    const third = {
      ...second,
      version: 12,
      delta: { from: 11, changed: [], removed: [] },
    } as SessionsSnapshot;
    expect(ids(visibleSessions(third, 'checkout 5m', t))).toEqual(want(next.filter((s) => s.status !== 'finished')));
  });
});
