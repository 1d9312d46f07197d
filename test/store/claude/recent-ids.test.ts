import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentIds } from '../../../src/store/claude/recent-ids.js';

/** The window as the folders kept it before: ids in an array beside a Set, the oldest shifted out past `keep`. */
function arrayWindow(keep: number) {
  const order: string[] = [];
  const seen = new Set<string>();
  return (id: string): boolean => {
    if (seen.has(id)) return false;
    order.push(id);
    seen.add(id);
    if (order.length > keep) seen.delete(order.shift() as string);
    return true;
  };
}

describe('RecentIds', () => {
  it('counts an id once while it is among the last `keep` distinct ids, and again once it has left', () => {
    const r = new RecentIds(2);
    expect(r.firstSight('a')).toBe(true);
    expect(r.firstSight('a')).toBe(false);
    expect(r.firstSight('b')).toBe(true);
    expect(r.firstSight('a')).toBe(false);
    // 'c' pushes out 'a' (the oldest first seen), not 'b'; a repeat does not refresh an id's place.
    expect(r.firstSight('c')).toBe(true);
    expect(r.firstSight('b')).toBe(false);
    expect(r.firstSight('a')).toBe(true);
    expect(r.firstSight('b')).toBe(true);
  });

  it('answers exactly as the array-and-Set window did, for any sequence of ids', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(
          fc.integer({ min: 0, max: 12 }).map((n) => `msg_${n}`),
          { maxLength: 300 },
        ),
        (keep, ids) => {
          const r = new RecentIds(keep);
          const before = arrayWindow(keep);
          for (const id of ids) expect(r.firstSight(id)).toBe(before(id));
        },
      ),
    );
  });
});
