// compareWorkerNames (store/teams/worker-order.ts) orders worker names exactly as the ICU collator the teams sorts
// used (`localeCompare(b, 'en', { numeric: true })`), so the board's worker order does not move: over random names
// of WORKER_NAME_RE's characters (digit runs with leading zeros, hyphens, prefixes of each other), the sign of the
// comparison is the collator's, and a sort gives the same list.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareWorkerNames } from '../../src/store/teams/worker-order.js';
import { WORKER_NAME_RE } from '../../src/store/teams/omc-team-rules.js';

const icu = (a: string, b: string) => Math.sign(a.localeCompare(b, 'en', { numeric: true }));
const char = fc.constantFrom(...'abwz-0123456789'.split(''), '0', '0', '-');
const nameArb = fc
  .tuple(fc.constantFrom(...'aw019'.split('')), fc.array(char, { maxLength: 12 }))
  .map(([first, rest]) => first + rest.join(''))
  .filter((n) => WORKER_NAME_RE.test(n));
/** A pair that is often alike: the same name with a digit run padded, a suffix added, or a digit changed. */
const pairArb = fc.oneof(
  fc.tuple(nameArb, nameArb),
  nameArb.map((n) => [n, n.replace(/\d+/, (d) => `0${d}`)] as [string, string]),
  fc
    .tuple(nameArb, fc.array(char, { minLength: 1, maxLength: 3 }))
    .map(([n, s]) => [n, n + s.join('')] as [string, string]),
  nameArb.map((n) => [n, n.replace(/\d/, (d) => String((Number(d) + 1) % 10))] as [string, string]),
);

describe('compareWorkerNames', () => {
  it("has the collator's sign on every pair of worker names", () => {
    fc.assert(
      fc.property(pairArb, ([a, b]) => {
        expect(Math.sign(compareWorkerNames(a, b)), JSON.stringify([a, b])).toBe(icu(a, b));
        expect(Math.sign(compareWorkerNames(b, a))).toBe(icu(b, a));
      }),
      { numRuns: 5000 },
    );
  });

  it('sorts a list as the collator does', () => {
    fc.assert(
      fc.property(fc.array(nameArb, { maxLength: 30 }), (names) => {
        expect([...names].sort(compareWorkerNames)).toEqual(
          [...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('the cases a reader would check', () => {
    const sorted = ['worker-10', 'worker-2', 'worker-1', 'worker', 'worker-02', 'w-1', 'w1', 'wa'].sort(
      compareWorkerNames,
    );
    expect(sorted).toEqual(['w-1', 'w1', 'wa', 'worker', 'worker-1', 'worker-2', 'worker-02', 'worker-10']);
  });
});
