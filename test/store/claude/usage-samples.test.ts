import { describe, expect, it } from 'vitest';
import { burnRate, BURN_WINDOW_MS } from '../../../src/store/claude/analytics.js';
import { emptyFacts } from '../../../src/store/claude/transcript-facts.js';
import { UsageSamples } from '../../../src/store/claude/usage-samples.js';

const list = (s: UsageSamples) => [...s].map((x) => [x.atMs, x.tokens]);

describe('usage samples', () => {
  it('keeps the last `keep` samples, oldest first, in the order they came', () => {
    const s = new UsageSamples(3);
    expect(list(s)).toEqual([]);
    for (let i = 1; i <= 5; i++) s.push(1_700_000_000_000 + i * 1000, i * 10);
    expect(s.length).toBe(3);
    expect(list(s)).toEqual([
      [1_700_000_003_000, 30],
      [1_700_000_004_000, 40],
      [1_700_000_005_000, 50],
    ]);
  });

  it('sums a window and names its first sample in arrival order', () => {
    const s = new UsageSamples(10);
    s.push(5_000, 1);
    s.push(1_000, 2);
    s.push(9_000, 4);
    expect(s.window(2_000, 9_000)).toEqual({ count: 2, tokens: 5, firstMs: 5_000 });
    expect(s.window(10_000, 20_000)).toEqual({ count: 0, tokens: 0, firstMs: null });
  });

  it('merges lists in time order, a tie keeping the lists order, then keeps the last `keep`', () => {
    const a = new UsageSamples(5);
    const b = new UsageSamples(5);
    a.push(1, 10);
    a.push(3, 30);
    b.push(2, 20);
    b.push(3, 31);
    expect(list(UsageSamples.merged([a, b], 3))).toEqual([
      [2, 20],
      [3, 30],
      [3, 31],
    ]);
  });

  it('gives the burn rate the same figure as a list of samples would', () => {
    const now = 1_700_000_600_000;
    const f = emptyFacts();
    f.usageSamples.push(now - BURN_WINDOW_MS - 1, 1_000_000); // outside the window
    f.usageSamples.push(now - 120_000, 600);
    f.usageSamples.push(now - 60_000, 300);
    // 900 tokens over the 120 s since the window's first sample: 450 a minute.
    expect(burnRate(f, now)).toBe(450);
  });
});
