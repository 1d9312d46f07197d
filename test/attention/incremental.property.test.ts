// The live monitor keeps its facts incrementally (src/store/attention/incremental.ts). Over random
// sequences of pictures — sessions added, changed, removed, re-ordered, left as the same object; cancels
// omc-top made appearing and going; signals flipping to omc-top's; problems changing — its facts, its
// "needs you" set and its transitions must be exactly what the full recomputation (factsOf + diffFacts)
// says for the same two pictures, whether the sessions snapshot carries its delta (what the sessions domain
// publishes) or not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  diffFacts,
  factsOf,
  needsYou,
  type Facts,
  type NeedItem,
  type Transition,
} from '../../src/feeds/attention/engine.js';
import { IncrementalFacts } from '../../src/feeds/attention/incremental.js';
import { KINDS, type AttentionInput } from '../../src/feeds/attention/kinds.js';
import type { TrackedCancel } from '../../src/store/cancel/tracker.js';
import type { SessionView, SessionsDelta } from '../../src/store/sessions/model.js';
import { EMPTY_TEAMS } from '../../src/store/teams/model.js';
import type { Problem } from '../../src/store/types.js';

const IDS = ['s-a', 's-b', 's-c', 's-d', 's-e', 'legacy'];
const MODES = ['ralph', 'ultrawork', 'autopilot'];

const modeArb = fc.record({
  mode: fc.constantFrom(...MODES),
  active: fc.boolean(),
  status: fc.constantFrom('active', 'finished', 'not-enforced', 'inactive'),
  iteration: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
  max: fc.option(fc.constantFrom(0, 3, 5), { nil: null }),
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

type Delta = 'with' | 'none' | 'missed';
type Step =
  | { op: 'set'; id: string; view: SessionView; delta: Delta }
  | { op: 'drop'; id: string; delta: Delta }
  | { op: 'tracker'; id: string; on: boolean }
  | { op: 'problem'; on: boolean }
  | { op: 'shuffle'; seed: number; delta: Delta }
  | { op: 'same' };

const deltaArb = fc.constantFrom<Delta>('with', 'with', 'with', 'none', 'missed');
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom(...IDS), deltaArb)
      .chain(([id, delta]) => viewArb(id).map((view) => ({ op: 'set', id, view, delta }) as Step)),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...IDS), deltaArb).map(([id, delta]) => ({ op: 'drop', id, delta }) as Step),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ id: fc.constantFrom(...IDS), on: fc.boolean() })
      .map((r) => ({ op: 'tracker', ...r }) as Step),
  },
  { weight: 1, arbitrary: fc.boolean().map((on) => ({ op: 'problem', on }) as Step) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer(), deltaArb).map(([seed, delta]) => ({ op: 'shuffle', seed, delta }) as Step),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'same' } as Step) },
);

const tracked = (key: string) => ({ key, phase: 'verifying', modes: ['ralph'] }) as unknown as TrackedCancel;
const PROBLEM: Problem = { path: 'state/x.json', message: 'bad JSON', severity: 'error' };

/** What the sessions domain says changed from `before` to `after` (views are kept while unchanged). */
function deltaOf(before: readonly SessionView[], after: readonly SessionView[], from: number): SessionsDelta {
  const ids = new Set(after.map((v) => v.id));
  return {
    from,
    changed: after.filter((v) => !before.includes(v)),
    removed: before.filter((v) => !ids.has(v.id)),
  };
}

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
        let order = [...IDS];
        const views = new Map<string, SessionView>();
        let cancels = new Map<string, TrackedCancel>();
        let problems: Problem[] = [];
        let prev: AttentionInput | null = null;
        let input: AttentionInput = {
          sessions: { version: 0, sessions: [], problems: [], derivedAt: 0 },
          teams: EMPTY_TEAMS,
          cancels: { version: 0, entries: cancels },
          problems,
        };
        for (const st of steps) {
          let { sessions, cancels: cancelSnap } = input;
          if (st.op === 'set') views.set(st.id, st.view);
          if (st.op === 'drop') views.delete(st.id);
          if (st.op === 'shuffle')
            order = [...order].sort((a, b) => ((a.charCodeAt(2) * st.seed) % 7) - ((b.charCodeAt(2) * st.seed) % 7));
          if (st.op === 'set' || st.op === 'drop' || st.op === 'shuffle') {
            const list = order.flatMap((id) => (views.has(id) ? [views.get(id) as SessionView] : []));
            // As the sessions domain publishes: with the delta from the snapshot before (applied instead of a
            // pass over every session), without one (a snapshot made elsewhere), or with one from a snapshot the
            // monitor never saw (it must then pass over every session).
            const seenBefore = sessions;
            const from = st.delta === 'missed' ? sessions.version + 1 : sessions.version;
            sessions = { version: from + 1, sessions: list, problems: [], derivedAt: 0 };
            if (st.delta !== 'none') sessions = { ...sessions, delta: deltaOf(seenBefore.sessions, list, from) };
          }
          if (st.op === 'tracker') {
            cancels = new Map(cancels);
            const key = st.id === 'legacy' ? ':legacy' : st.id;
            if (st.on) cancels.set(key, tracked(key));
            else cancels.delete(key);
            cancelSnap = { version: cancelSnap.version + 1, entries: cancels };
          }
          if (st.op === 'problem') problems = st.on ? [PROBLEM] : [];
          prev = input;
          input = { sessions, teams: EMPTY_TEAMS, cancels: cancelSnap, problems };
          const got = inc.update(input);
          const full = factsOf(input);
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
          // The list kept in order as needs come and go is the list sorted afresh: in KINDS order, and within a
          // kind in the order the needs came.
          const kinds = KINDS.map((k) => k.kind);
          const needs = (inc as unknown as { needs: Map<string, NeedItem> }).needs;
          const fresh = [...needs.values()].sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind));
          expect(inc.needsYou()).toEqual(fresh);
        }
      }),
      { numRuns: 400 },
    );
  });
});
