/** The soak's judge itself: it must catch a steady leak and must not call allocator noise one. */
import { describe, expect, it } from 'vitest';
import { LIMITS, fit, flatness } from '../../bench/soak/soak.mjs';

const every5s = (ys: number[]) => ys.map((y, i) => ({ x: i * 5_000, y }));

describe('soak growth estimate', () => {
  it('a slow leak hidden under ±5 MB swings is measured in full and fails the limit', () => {
    const leak = every5s(Array.from({ length: 20 }, (_, i) => 140 + i * 0.6 + (i % 3 ? 5 : -5)));
    const g = fit(leak).growth;
    expect(g).toBeGreaterThan(LIMITS.rssGrowthMb);
    expect(g).toBeCloseTo(0.6 * 19, 0);
  });

  it('RSS swinging ±10 MB between GCs with no trend (what tripped a least-squares judge at 8.06 MB in CI) stays under it', () => {
    // Swings of 138–160 MB, as post-GC RSS showed in that run while its heap stayed flat.
    const noisy = every5s([145, 139, 152, 160, 141, 138, 155, 147, 142, 158, 140, 151, 149, 139, 159, 150]);
    expect(Math.abs(fit(noisy).growth)).toBeLessThan(LIMITS.rssGrowthMb);
  });

  it('a flat series grows 0', () => {
    expect(fit(every5s([100, 100, 100, 100])).growth).toBe(0);
  });

  it('peaks are measured from the trend: RSS handed back over a long run is not a spike, a real spike is', () => {
    // Falls 30 MB over the run with ±3 MB of noise: the early samples sit far above the median, not above the trend.
    const falling = Array.from({ length: 60 }, (_, i) => ({ t: i * 5_000, v: 150 - i * 0.5 + (i % 2 ? 3 : -3) }));
    expect(flatness(falling)!.aboveTrend).toBeLessThan(LIMITS.rssAboveTrendMb);
    const spiked = falling.map((s, i) => (i === 45 ? { ...s, v: s.v + 25 } : s));
    expect(flatness(spiked)!.aboveTrend).toBeGreaterThan(LIMITS.rssAboveTrendMb);
  });

  it('the heap floor: a flat sawtooth (fill, reset) is not growth, a rising floor is', () => {
    // 22 → 31 MB over 20 samples, then back to 22: the driver's notepad cycle, twice and a half.
    const saw = Array.from({ length: 50 }, (_, i) => ({ t: i * 2_000, v: 22 + (i % 20) * 0.45 }));
    expect(flatness(saw)!.floorGrowth).toBeLessThan(1);
    expect(flatness(saw)!.growth).toBeGreaterThan(0); // why the floor, not the slope, judges the heap
    const leaking = saw.map((s, i) => ({ ...s, v: s.v + i * 0.3 })); // 9 MB a minute
    expect(flatness(leaking)!.floorGrowth).toBeGreaterThan(LIMITS.heapGrowthMb);
  });
});
