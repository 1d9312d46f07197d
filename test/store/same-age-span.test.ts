/**
 * sameAgeSpan (ui/format.ts): the clock readings around `now` at which an age reads as it does at `now`. The `/`
 * filter keeps its rows for that stretch, so a stretch that reached into the next reading would keep a row the
 * screen no longer shows (or leave out one it does): every reading inside it must be the reading at `now`, and the
 * stretch must hold `now`. Held to formatAge itself, on ages past and ahead, whole and fractional ms.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAge, sameAgeSpan } from '../../src/ui/format.js';

const NOW = Date.UTC(2026, 11, 7, 1, 2, 3, 456);
const YEAR = 365.25 * 86_400_000;

/** Readings to try inside [from, to]: the ends, points near them, and some between (an infinite end: far away). */
function inside(from: number, to: number, now: number, picks: number[]): number[] {
  const lo = Number.isFinite(from) ? from : now - 2000 * YEAR;
  const hi = Number.isFinite(to) ? to : now + 2000 * YEAR;
  return [lo, hi, lo + 0.5, hi - 0.5, now, ...picks.map((f) => lo + (hi - lo) * f)].filter((t) => t >= lo && t <= hi);
}

const age = fc.oneof(
  fc.integer({ min: -5_000, max: 400_000 }), // seconds, minutes and the slack ahead
  fc.integer({ min: -200 * 86_400_000, max: 3 * 86_400_000 }), // ahead: "+3h", "+12d", "+<1y"
  fc.double({ min: -150 * YEAR, max: 1200 * YEAR, noNaN: true }), // days, years, "far", "1ky+"
);

describe('sameAgeSpan', () => {
  it('every reading inside the stretch is the reading at now, and the stretch holds now', () => {
    fc.assert(
      fc.property(
        age,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        (ageMs, frac, picks) => {
          const now = NOW + frac;
          const ms = now - ageMs;
          const { from, to } = sameAgeSpan(ms, now);
          expect(from).toBeLessThanOrEqual(now);
          expect(to).toBeGreaterThanOrEqual(now);
          const reading = formatAge(ms, now);
          for (const t of inside(from, to, now, picks)) expect(formatAge(ms, t), `${ms} at ${t}`).toBe(reading);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a stretch is as long as the reading, less a ms at each end: the filter keeps its rows that long', () => {
    const ms = NOW - 12_345; // "10s" from 10,000 to 14,999 ms of age
    expect(sameAgeSpan(ms, NOW)).toEqual({ from: ms + 10_001, to: ms + 14_999 });
    const hours = NOW - 5 * 3_600_000 - 17; // "5h" for the hour
    expect(sameAgeSpan(hours, NOW)).toEqual({ from: hours + 5 * 3_600_000 + 1, to: hours + 6 * 3_600_000 - 1 });
    expect(sameAgeSpan(null, NOW)).toEqual({ from: -Infinity, to: Infinity });
  });

  it('ahead of the clock: it ends where the age would read as past', () => {
    const ms = NOW + 7_000; // "+5s"; within 5 s of the clock it reads "0s"
    const { to } = sameAgeSpan(ms, NOW);
    expect(formatAge(ms, to)).toBe('+5s');
    expect(formatAge(ms, to + 1)).toBe('0s');
  });
});
