// The live monitor keeps its facts incrementally (src/store/attention/incremental.ts). Over random
// sequences of pictures — sessions added, changed, removed, re-ordered, left as the same object; cancels
// omc-top made appearing and going (some judged not taken); signals flipping to omc-top's; the Claude process
// behind a session waiting, idling, dying, going away; the plan's rate limit holding idle loops, or OMC's wait
// daemon listing their pane (store/cost/plan-hold.ts); problems changing — its facts, its
// "needs you" set and its transitions must be exactly what the full recomputation (factsOf + diffFacts)
// says for the same two pictures.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffFacts, factsOf, needsYou, type Facts, type Transition } from '../../src/feeds/attention/engine.js';
import { IncrementalFacts } from '../../src/feeds/attention/incremental.js';
import type { AttentionInput } from '../../src/feeds/attention/kinds.js';
import type { TrackedCancel } from '../../src/store/cancel/tracker.js';
import type { CancelRecord, CancelRecordsSnapshot } from '../../src/store/cancel/cancel-records.js';
import type { ClaudeSessionView, ClaudeSnapshot } from '../../src/store/claude/model.js';
import type { SessionView } from '../../src/store/sessions/model.js';
import { EMPTY_TEAMS } from '../../src/store/teams/model.js';
import type { Problem } from '../../src/store/types.js';
import type { PlanHold } from '../../src/store/cost/plan-hold.js';

const IDS = ['s-a', 's-b', 's-c', 's-d', 's-e', 'legacy'];
const MODES = ['ralph', 'ultrawork', 'autopilot'];

const modeArb = fc.record({
  mode: fc.constantFrom(...MODES),
  active: fc.boolean(),
  enforced: fc.boolean(),
  status: fc.constantFrom('active', 'finished', 'not-enforced', 'inactive'),
  iteration: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
  max: fc.option(fc.constantFrom(0, 3, 5), { nil: null }),
  // Written before or after the recorded cancels (at 5), or not known.
  writtenMs: fc.constantFrom(null, 1, 10),
  // The verdict's rule: at the max, OMC's hard max (`hard-max`) changes the max news.
  verdict: fc.record({ rule: fc.constantFrom('iteration', 'extend', 'hard-max'), detail: fc.constant('') }),
});

const viewArb = (id: string) =>
  fc
    .record({
      modes: fc.uniqueArray(modeArb, { selector: (m) => m.mode, maxLength: 3 }),
      cancel: fc.option(fc.record({ inForce: fc.boolean(), source: fc.constantFrom('omc-top', 'someone-else') }), {
        nil: null,
      }),
      ended: fc.boolean(),
    })
    .map(
      (v) =>
        ({
          id,
          kind: id === 'legacy' ? 'legacy' : 'session',
          dir: `state/sessions/${id}`,
          modes: v.modes.map((m) => ({ ...m, path: `state/sessions/${id}/${m.mode}-state.json` })),
          cancel: v.cancel && { ...v.cancel, path: `state/sessions/${id}/cancel-signal-state.json`, mode: null },
          ended: v.ended ? { endedAt: null, reason: null } : null,
          problems: [],
        }) as unknown as SessionView,
    );

type Step =
  | { op: 'set'; id: string; view: SessionView }
  | { op: 'drop'; id: string }
  | { op: 'tracker'; id: string; on: boolean; taken: boolean }
  | { op: 'claude'; id: string; status: string | null; since: number }
  | { op: 'problem'; on: boolean }
  | { op: 'hold'; which: number }
  | { op: 'shuffle'; seed: number }
  | { op: 'same' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(...IDS).chain((id) => viewArb(id).map((view) => ({ op: 'set', id, view }) as Step)),
  },
  { weight: 2, arbitrary: fc.constantFrom(...IDS).map((id) => ({ op: 'drop', id }) as Step) },
  {
    weight: 2,
    arbitrary: fc
      .record({ id: fc.constantFrom(...IDS), on: fc.boolean(), taken: fc.boolean() })
      .map((r) => ({ op: 'tracker', ...r }) as Step),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        id: fc.constantFrom(...IDS),
        status: fc.constantFrom(null, 'busy', 'idle', 'waiting', 'gone', 'unknown'),
        since: fc.constantFrom(1000, 2000),
      })
      .map((r) => ({ op: 'claude', ...r }) as Step),
  },
  { weight: 1, arbitrary: fc.boolean().map((on) => ({ op: 'problem', on }) as Step) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 2 }).map((which) => ({ op: 'hold', which }) as Step) },
  { weight: 1, arbitrary: fc.integer().map((seed) => ({ op: 'shuffle', seed }) as Step) },
  { weight: 1, arbitrary: fc.constant({ op: 'same' } as Step) },
);

const tracked = (key: string, taken: boolean) =>
  ({
    key,
    phase: taken ? 'cancelled' : 'not-taken',
    pauseOnly: false,
    modes: ['ralph'],
    requestedMs: 5,
    settledMs: 6,
    text: 'cancel did not take',
  }) as unknown as TrackedCancel;
const claudeView = (id: string, status: string, since: number): ClaudeSessionView =>
  ({
    sessionId: id,
    transcript: null,
    process: { pid: 42, procStart: '7', status, since, name: 'n', tmux: 'main:@1.%2', waitingFor: 'permission prompt' },
  }) as unknown as ClaudeSessionView;
const claudeSnap = (by: Map<string, ClaudeSessionView>, version: number): ClaudeSnapshot =>
  ({ version, configDir: '/c', rule: 'test', bySession: by, problems: [], registryMissing: false }) as ClaudeSnapshot;
const PROBLEM: Problem = { path: 'state/x.json', message: 'bad JSON', severity: 'error' };
/** Nothing holds; the plan's limit holds with no daemon; OMC's wait daemon lists the Claude views' pane (%2). */
const HOLDS: (PlanHold | null)[] = [
  null,
  { limit: { untilMs: 9, by: 'usage cache' }, daemonPanes: new Set(), daemonAlive: false },
  { limit: { untilMs: 9, by: 'wait daemon' }, daemonPanes: new Set(['%2']), daemonAlive: true },
];

/** Facts as comparable data, independent of map order. */
const flat = (f: Facts) =>
  [...f.byKind].flatMap(([kind, m]) => [...m].map(([key, fact]) => JSON.stringify([kind, key, fact]))).sort();
const flatT = (ts: readonly Transition[]) => ts.map((t) => JSON.stringify(t)).sort();
const kindsInOrder = (ts: readonly Transition[]) => ts.map((t) => t.kind).filter((k, i, a) => a[i - 1] !== k);

describe('incremental attention facts == full recomputation', () => {
  it('over random change sequences', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const inc = new IncrementalFacts();
        // The same pictures, the first taken as a baseline (the monitor's first settled picture).
        const fromBaseline = new IncrementalFacts();
        let pictures = 0;
        let order = [...IDS];
        const views = new Map<string, SessionView>();
        let cancels = new Map<string, TrackedCancel>();
        let records = new Map<string, CancelRecord>();
        let problems: Problem[] = [];
        let prev: AttentionInput | null = null;
        let claudeBy = new Map<string, ClaudeSessionView>();
        let planHold: PlanHold | null = null;
        let input: AttentionInput = {
          sessions: { version: 0, sessions: [], problems: [], derivedAt: 0 },
          teams: EMPTY_TEAMS,
          cancels: { version: 0, entries: cancels },
          cancelRecords: { version: 0, records, problem: null },
          problems,
          claude: claudeSnap(claudeBy, 0),
        };
        for (const st of steps) {
          let { sessions, cancels: cancelSnap, claude } = input;
          let recordSnap: CancelRecordsSnapshot = input.cancelRecords;
          if (st.op === 'claude') {
            claudeBy = new Map(claudeBy);
            // Unchanged views keep their object, as the Claude domain keeps them.
            if (st.status === null) claudeBy.delete(st.id);
            else claudeBy.set(st.id, claudeView(st.id, st.status, st.since));
            claude = claudeSnap(claudeBy, claude.version + 1);
            // Sometimes a sessions picture with nothing of its own changed arrives in the same update (the
            // monitor batches): the Claude change must still be seen on the sessions' delta path.
            if (st.since === 2000)
              sessions = {
                ...sessions,
                version: sessions.version + 1,
                delta: { from: sessions.version, changed: [], removed: [] },
              };
          }
          if (st.op === 'set') views.set(st.id, st.view);
          if (st.op === 'drop') views.delete(st.id);
          if (st.op === 'shuffle')
            order = [...order].sort((a, b) => ((a.charCodeAt(2) * st.seed) % 7) - ((b.charCodeAt(2) * st.seed) % 7));
          if (st.op === 'set' || st.op === 'drop' || st.op === 'shuffle') {
            const list = order.flatMap((id) => (views.has(id) ? [views.get(id) as SessionView] : []));
            // The delta from the last picture, as the sessions domain carries it (every other picture has one, so
            // both the delta path and the pass are checked against the full recomputation).
            const was = new Set(sessions.sessions);
            const now = new Set(list);
            const delta =
              sessions.version % 2 === 0
                ? {
                    from: sessions.version,
                    changed: list.filter((v) => !was.has(v)),
                    removed: sessions.sessions.filter((v) => !now.has(v)),
                  }
                : undefined;
            sessions = { version: sessions.version + 1, sessions: list, problems: [], derivedAt: 0, delta };
          }
          if (st.op === 'tracker') {
            cancels = new Map(cancels);
            const key = st.id === 'legacy' ? ':legacy' : st.id;
            if (st.on) cancels.set(key, tracked(key, st.taken));
            else cancels.delete(key);
            cancelSnap = { version: cancelSnap.version + 1, entries: cancels };
            // The record every process reads: written with the cancel, and gone when it expires.
            records = new Map(records);
            if (st.on)
              records.set(key, {
                key,
                modes: ['ralph'],
                requestedMs: 5,
                expiresMs: 35,
                notEnded: st.taken ? [] : ['ralph'],
              });
            else records.delete(key);
            recordSnap = { version: recordSnap.version + 1, records, problem: null };
          }
          if (st.op === 'problem') problems = st.on ? [PROBLEM] : [];
          if (st.op === 'hold') planHold = HOLDS[st.which] ?? null;
          prev = input;
          input = {
            sessions,
            teams: EMPTY_TEAMS,
            cancels: cancelSnap,
            cancelRecords: recordSnap,
            problems,
            claude,
            planHold,
          };
          const got = inc.update(input);
          const first = pictures++ === 0;
          const afterBaseline = fromBaseline.update(input, first);
          const full = factsOf(input);
          if (first) expect(afterBaseline).toEqual([]);
          else expect(flatT(afterBaseline)).toEqual(flatT(got));
          expect(flat(fromBaseline.facts())).toEqual(flat(full));
          expect(fromBaseline.needsYou().map((n) => n.id)).toEqual(needsYou(full).map((n) => n.id));
          expect(flat(inc.facts())).toEqual(flat(full));
          expect(flatT(got)).toEqual(flatT(diffFacts(factsOf(prev), full)));
          // Transitions come kind by kind in KINDS order, as diffFacts gives them.
          expect(kindsInOrder(got)).toEqual(kindsInOrder(diffFacts(factsOf(prev), full)));
          expect([...inc.facts().ours].sort()).toEqual([...full.ours].sort());
          expect(
            inc
              .needsYou()
              .map((n) => JSON.stringify(n))
              .sort(),
          ).toEqual(
            needsYou(full)
              .map((n) => JSON.stringify(n))
              .sort(),
          );
          expect(inc.needCount()).toBe(needsYou(full).length);
          // And in the same order (oldest first), which every surface lists.
          expect(inc.needsYou().map((n) => n.id)).toEqual(needsYou(full).map((n) => n.id));
        }
      }),
      { numRuns: 400 },
    );
  });
});
