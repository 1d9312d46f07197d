// replaceSorted (store/sessions/sorted-views.ts) re-places only the views that changed: over random lists and
// random changes (a view replaced by its next one, in place or moving; views removed; views added), the result
// must be the full sort of the new set, with each key beside its view. A change that leaves every view where it
// was keeps the previous keys array itself (the snapshot's `keys` then costs nothing).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaceSorted } from '../../src/store/sessions/sorted-views.js';

interface Item {
  key: string;
  rank: number;
}
// A total order, as compareSessions is: rank first, then the key.
const cmp = (a: Item, b: Item) => a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const keyOf = (v: Item) => v.key;

const caseArb = fc
  .record({
    ranks: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 0, maxLength: 40 }),
    changes: fc.array(
      fc.record({
        at: fc.nat(),
        kind: fc.constantFrom('same' as const, 'rank' as const, 'remove' as const, 'add' as const),
        rank: fc.integer({ min: 0, max: 6 }),
      }),
      { maxLength: 5 },
    ),
  })
  .map(({ ranks, changes }) => ({
    prev: ranks.map((rank, i) => ({ key: `k${String(i).padStart(3, '0')}`, rank })).sort(cmp),
    changes,
  }));

describe('replaceSorted', () => {
  it('equals the full sort of the new set, keys beside their views', () => {
    fc.assert(
      fc.property(caseArb, ({ prev, changes }) => {
        const current = new Map(prev.map((v) => [v.key, v]));
        const gone = new Set<Item>();
        const fresh = new Map<string, Item>();
        let added = 0;
        for (const c of changes) {
          if (c.kind === 'add') {
            const v = { key: `n${added++}`, rank: c.rank };
            current.set(v.key, v);
            fresh.set(v.key, v);
            continue;
          }
          if (prev.length === 0) continue;
          const old = prev[c.at % prev.length] as Item;
          if (!current.has(old.key) || fresh.has(old.key)) continue;
          gone.add(old);
          current.delete(old.key);
          if (c.kind === 'remove') continue;
          const v = { key: old.key, rank: c.kind === 'same' ? old.rank : c.rank };
          current.set(v.key, v);
          fresh.set(v.key, v);
        }
        const prevKeys = prev.map(keyOf);
        const out = replaceSorted(prev, prevKeys, gone, [...fresh.values()], cmp, keyOf);
        const want = [...current.values()].sort(cmp);
        expect(out.views).toEqual(want);
        expect(out.views.every((v, i) => v === want[i])).toBe(true);
        expect(out.keys).toEqual(want.map(keyOf));
        expect(out.views).not.toBe(prev);
        expect(prev.map(keyOf)).toEqual(prevKeys); // the previous snapshot's arrays are untouched
      }),
      { numRuns: 500 },
    );
  });

  it('a view replaced in its own place keeps the keys array; one that moves gets a new one', () => {
    const prev = [
      { key: 'a', rank: 1 },
      { key: 'b', rank: 2 },
      { key: 'c', rank: 3 },
    ];
    const keys = prev.map(keyOf);
    const next = { key: 'b', rank: 2 };
    const same = replaceSorted(prev, keys, [prev[1] as Item], [next], cmp, keyOf);
    expect(same.keys).toBe(keys);
    expect(same.views).toEqual([prev[0], next, prev[2]]);
    expect(same.views[1]).toBe(next);
    const moved = replaceSorted(prev, keys, [prev[1] as Item], [{ key: 'b', rank: 9 }], cmp, keyOf);
    expect(moved.keys).not.toBe(keys);
    expect(moved.keys).toEqual(['a', 'c', 'b']);
  });
});
