// The sessions domain publishes incrementally: a change re-places only the sessions that changed in
// the previous order and collects problem lines only from sessions that have some. Over random
// sequences of OMC writes (new, changed, broken, removed state files; sessions starting at the same
// moment), the live domain's snapshot must equal what a fresh domain reading the same tree from
// scratch publishes: the same sessions in the same order, the same problem lines. The time-driven
// re-derivation (a lazy heap of due times) must pick the same sessions as a pass over all of them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionsDomain } from '../../src/store/sessions/domain.js';
import { loopCountOf, sessionCountOf } from '../../src/store/sessions/derive.js';
import { DueHeap } from '../../src/store/sessions/due-heap.js';
import { loopValues } from '../../src/feeds/status-line.js';
import {
  LEGACY_KEY,
  deltaSince,
  holdsAgent,
  signalUntilMs,
  type SessionView,
  type SessionsSnapshot,
} from '../../src/store/sessions/model.js';
import type { WatchEvent } from '../../src/store/types.js';
import { SORTS, idsOf, rowKey, visibleSessions, type RowQuery } from '../../src/panes/sessions/reducer.js';
import { sessionIndex } from '../../src/store/sessions/view-index.js';
import { projectLoops } from '../../src/store/cost/loops.js';
import type { ClaudeSnapshot } from '../../src/store/claude/model.js';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const SIDS = Array.from({ length: 8 }, (_, i) => `0000000${i}-1111-4222-8333-444455556666`);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

type Op =
  | { op: 'write'; sid: string; mode: 'ralph' | 'ultrawork'; active: boolean; startedMin: number; iteration: number }
  | { op: 'broken'; sid: string }
  | { op: 'cancel'; sid: string }
  | { op: 'remove'; sid: string; mode: 'ralph' | 'ultrawork' }
  | { op: 'rmdir'; sid: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        sid: fc.constantFrom(...SIDS),
        mode: fc.constantFrom('ralph' as const, 'ultrawork' as const),
        active: fc.boolean(),
        // Few distinct start times: ties in every sort key but the id.
        startedMin: fc.constantFrom(1, 5, 5, 130, 2000),
        iteration: fc.integer({ min: 0, max: 12 }),
      })
      .map((r) => ({ op: 'write', ...r }) as Op),
  },
  { weight: 1, arbitrary: fc.constantFrom(...SIDS).map((sid) => ({ op: 'broken', sid }) as Op) },
  // OMC's generic cancel signal, in force: the session shows as cancelling (paused while a loop keeps its state).
  { weight: 1, arbitrary: fc.constantFrom(...SIDS).map((sid) => ({ op: 'cancel', sid }) as Op) },
  {
    weight: 2,
    arbitrary: fc
      .record({ sid: fc.constantFrom(...SIDS), mode: fc.constantFrom('ralph' as const, 'ultrawork' as const) })
      .map((r) => ({ op: 'remove', ...r }) as Op),
  },
  { weight: 1, arbitrary: fc.constantFrom(...SIDS).map((sid) => ({ op: 'rmdir', sid }) as Op) },
);

const keyOf = (v: SessionView) => (v.kind === 'legacy' ? LEGACY_KEY : v.id);

/** The Cost pane's loops of a snapshot (no Claude data): through its kept rows (`withSnapshot`), or from scratch. */
const loopsOf = (snap: SessionsSnapshot, withSnapshot: boolean) =>
  projectLoops({
    sessions: snap.sessions,
    snapshot: withSnapshot ? snap : undefined,
    claude: { bySession: new Map() } as unknown as ClaudeSnapshot,
    jobs: [],
    quota: null,
    prices: undefined,
    projectDir: null,
    now: NOW,
  });

/**
 * The sessions pane's queries: every sort, done rows hidden or not, a filter on nothing, on a mode, a status, a
 * session's id, one that matches several ids, and one that matches none.
 */
const QUERIES: RowQuery[] = SORTS.flatMap((sort) =>
  [false, true].flatMap((hideDone) =>
    ['', 'ralph', 'not enforced', '00000003', '0000000', 'cancel', 'nothing-matches'].map((filter) => ({
      filter,
      sort,
      hideDone,
    })),
  ),
);

/** The rows a query gives on a snapshot seen for the first time: a pass over every session (no lineage, no delta). */
const fromScratch = (snap: SessionsSnapshot, q: RowQuery) =>
  visibleSessions({ ...snap, lineage: undefined, delta: null }, q, NOW);

/** The status line's loops from every row, no walk cut short: the first three with their progress, and the count. */
const everyLoop = (sessions: readonly SessionView[]) => {
  const running = sessions.flatMap((s) => s.modes.filter(holdsAgent));
  const text = running
    .slice(0, 1)
    .map((m) => `${m.mode}${m.iteration === null ? '' : m.max ? ` ${m.iteration}/${m.max}` : ` ${m.iteration}`}`);
  const more = running.length > 1 ? ` +${running.length - 1}` : '';
  return { loops: running.length === 0 ? 'no loops' : text.join(' ') + more, active: running.length };
};

const picture = (d: SessionsDomain) => {
  const s = d.getSnapshot();
  return { sessions: s.sessions.map((v) => JSON.stringify(v)), problems: s.problems };
};

describe('incremental sessions publish == a fresh read of the same tree', () => {
  it('over random change sequences', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 25 }), (ops) => {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-inc-sessions-'));
        dirs.push(root);
        const live = new SessionsDomain({ root, clock: () => NOW, projectDir: root });
        live.scan();
        let step = 0;
        for (const o of ops) {
          const dir = path.join(root, 'state', 'sessions', o.sid);
          const events: WatchEvent[] = [];
          if (o.op === 'write' || o.op === 'broken') {
            const mode = o.op === 'write' ? o.mode : 'ralph';
            const file = path.join(dir, `${mode}-state.json`);
            const existed = fs.existsSync(file);
            // Over a good file the live domain keeps the last good value (a fresh read has none): not comparable.
            if (o.op === 'broken' && existed) continue;
            if (!fs.existsSync(dir)) {
              fs.mkdirSync(dir, { recursive: true });
              events.push({ type: 'addDir', rel: `state/sessions/${o.sid}` });
            }
            const started = new Date(NOW - (o.op === 'write' ? o.startedMin : 3) * 60_000).toISOString();
            fs.writeFileSync(
              file,
              o.op === 'broken'
                ? '{"active": tru'
                : JSON.stringify({
                    active: o.active,
                    iteration: o.iteration,
                    max_iterations: 10,
                    started_at: started,
                    last_checked_at: started,
                    session_id: o.sid,
                  }),
            );
            events.push({ type: existed ? 'change' : 'add', rel: `state/sessions/${o.sid}/${mode}-state.json` });
          } else if (o.op === 'cancel') {
            const file = path.join(dir, 'cancel-signal-state.json');
            const existed = fs.existsSync(file);
            if (!fs.existsSync(dir)) {
              fs.mkdirSync(dir, { recursive: true });
              events.push({ type: 'addDir', rel: `state/sessions/${o.sid}` });
            }
            fs.writeFileSync(
              file,
              JSON.stringify({
                active: true,
                requested_at: new Date(NOW - 1000).toISOString(),
                expires_at: new Date(NOW + 29_000).toISOString(),
                mode: 'ralph',
                source: 'omc-top',
              }),
            );
            events.push({ type: existed ? 'change' : 'add', rel: `state/sessions/${o.sid}/cancel-signal-state.json` });
          } else if (o.op === 'remove') {
            const file = path.join(dir, `${o.mode}-state.json`);
            if (!fs.existsSync(file)) continue;
            fs.rmSync(file);
            events.push({ type: 'unlink', rel: `state/sessions/${o.sid}/${o.mode}-state.json` });
          } else {
            if (!fs.existsSync(dir)) continue;
            fs.rmSync(dir, { recursive: true });
            events.push({ type: 'unlinkDir', rel: `state/sessions/${o.sid}` });
          }
          const before = live.getSnapshot();
          // The sessions' index, kept by each delta, is the index of the snapshot made from scratch.
          sessionIndex(before);
          loopsOf(before, true);
          // The pane asked a query of this snapshot (a filter on screen): the next one patches its rows. A few
          // queries a step, in turn (the pane remembers the rows of the last few queries only).
          step += 1;
          const asked = QUERIES.filter((_, i) => (i + step) % 8 === 0);
          for (const q of asked) visibleSessions(before, q, NOW);
          live.refresh(events, 'trailing');
          const after = live.getSnapshot();
          // Patched by the change, each query's rows are exactly those of a pass over every session.
          // The Cost pane's OMC loop rows, patched by the delta, are those made from every session.
          expect(loopsOf(after, true)).toEqual(loopsOf(after, false));
          const kept = sessionIndex(after);
          const scratch = sessionIndex({ ...after, lineage: undefined });
          expect(new Map(kept.byKey)).toEqual(new Map(scratch.byKey));
          expect(new Map(kept.modes)).toEqual(new Map(scratch.modes));
          for (const q of asked) {
            const rows = visibleSessions(after, q, NOW);
            expect(rows, JSON.stringify(q)).toEqual(fromScratch(after, q));
            // The keys the selection finds its row by ride along with the rows.
            expect(idsOf(rows)).toEqual(rows.map(rowKey));
            // A longer query typed now narrows the patched rows.
            const longer = { ...q, filter: `${q.filter} 0` };
            expect(visibleSessions(after, longer, NOW), JSON.stringify(longer)).toEqual(fromScratch(after, longer));
          }
          // The delta names exactly what changed: the previous rows with the removed taken out and the changed
          // put in (by key) are the new rows.
          const delta = deltaSince(before, after);
          expect(delta).not.toBeNull();
          const byKey = new Map(before.sessions.map((v, i) => [before.keys?.[i], v]));
          for (const v of delta!.removed) expect(byKey.delete(keyOf(v))).toBe(true);
          for (const v of delta!.changed) {
            expect(before.sessions).not.toContain(v);
            byKey.set(keyOf(v), v);
          }
          expect(new Set(byKey.values())).toEqual(new Set(after.sessions));
          // `gone` is every view of the previous snapshot this one no longer holds.
          expect(new Set(delta!.gone)).toEqual(new Set(before.sessions.filter((v) => !after.sessions.includes(v))));
          // The keys ride along in row order, and the count of signal countdowns is the rows' own.
          expect(after.keys).toEqual(after.sessions.map(keyOf));
          expect(after.cancelling).toBe(after.sessions.filter((v) => signalUntilMs(v) !== null).length);
          const fresh = new SessionsDomain({ root, clock: () => NOW, projectDir: root });
          fresh.scan();
          expect(picture(live)).toEqual(picture(fresh));
          // No structural problems in these trees: the problem lines are every session's, in row order.
          const snap = live.getSnapshot();
          expect(snap.problems).toEqual(snap.sessions.flatMap((v) => v.problems));
          // The header's counts and the running loops, kept as sessions change, are the sum over every row.
          expect(snap.counts).toEqual(
            snap.sessions
              .map((v) => ({
                ...sessionCountOf(v),
                loops: loopCountOf(v),
                unreadable: v.status === 'unreadable' ? 1 : 0,
                above: v.unreadableAbove === undefined ? 0 : 1,
              }))
              .reduce(
                (a, c) => ({
                  running: a.running + c.running,
                  stale: a.stale + c.stale,
                  loops: a.loops + c.loops,
                  unreadable: a.unreadable + c.unreadable,
                  above: a.above + c.above,
                }),
                { running: 0, stale: 0, loops: 0, unreadable: 0, above: 0 },
              ),
          );
          // The status line's loops, whose walk stops at the first session ranked after any that can hold a loop,
          // are what every row's running loops give.
          expect(loopValues(snap)).toEqual(everyLoop(snap.sessions));
          live.dispose();
          fresh.dispose();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('the due heap names the same sessions as a pass over every view', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
            at: fc.option(fc.integer({ min: 0, max: 50 }), { nil: null }),
            t: fc.integer({ min: 0, max: 60 }),
          }),
          {
            maxLength: 60,
          },
        ),
        (steps) => {
          const views = new Map<string, SessionView>();
          const heap = new DueHeap((k) => views.get(k));
          for (const s of steps) {
            const v = { nextChangeAt: s.at } as SessionView;
            views.set(s.key, v);
            heap.push(s.key, v);
            heap.compact(views);
            const naiveNext = Math.min(...[...views.values()].map((x) => x.nextChangeAt ?? Infinity));
            expect(heap.next()).toBe(Number.isFinite(naiveNext) ? naiveNext : null);
            const due = [...views].filter(([, x]) => x.nextChangeAt !== null && x.nextChangeAt <= s.t).map(([k]) => k);
            expect([...new Set(heap.takeDue(s.t))].sort()).toEqual(due.sort());
            // Taken sessions are re-derived: a new view with a later time (or none).
            for (const k of due) {
              const nv = { nextChangeAt: null } as SessionView;
              views.set(k, nv);
              heap.push(k, nv);
            }
          }
        },
      ),
    );
  });
});
