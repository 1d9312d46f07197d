/** The sliced-scan driver: slices up to a deadline, a floor past it, and a whole pass that finishes a sliced one first. */
import { describe, expect, it } from 'vitest';
import { SlicedScan } from '../../src/io/sliced-scan.js';

function counter() {
  const log: string[] = [];
  let pass = 0;
  const scan = new SlicedScan(function* (sliced) {
    const id = `${sliced ? 'sliced' : 'whole'}${++pass}`;
    for (let i = 0; i < 5; i++) {
      log.push(`${id}:${i}`);
      yield;
    }
  });
  return { scan, log };
}

describe('SlicedScan', () => {
  it('a past deadline still takes one step; `more` keeps stepping past it; true once the pass is done', () => {
    const { scan, log } = counter();
    expect(scan.step(0)).toBe(false);
    expect(log).toEqual(['sliced1:0']);
    let n = 0;
    expect(scan.step(0, () => ++n < 3)).toBe(false);
    expect(log).toHaveLength(4);
    expect(scan.step(Infinity)).toBe(true);
    expect(log).toHaveLength(5);
  });

  it('a whole pass during a sliced one finishes the sliced one first', () => {
    const { scan, log } = counter();
    scan.step(0);
    scan.full();
    expect(log).toEqual([...[0, 1, 2, 3, 4].map((i) => `sliced1:${i}`), ...[0, 1, 2, 3, 4].map((i) => `whole2:${i}`)]);
    // The next slice starts a fresh sliced pass.
    scan.step(0);
    expect(log.at(-1)).toBe('sliced3:0');
  });
});
