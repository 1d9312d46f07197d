/** The repaint ticker's schedule for age labels: exact under a minute, batched on the wall clock above it. */
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { AGE_CHARS, ageTickMs, formatAge, formatAgo, ONE_CELL_TEXT, width } from '../../src/ui/format.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0); // on a minute boundary

describe('ageTickMs', () => {
  it('under a minute: the next 5 s step of the label itself', () => {
    expect(ageTickMs(T0 - 12_000, T0)).toBe(3_000);
    expect(formatAge(T0 - 12_000, T0)).toBe('10s');
    expect(formatAge(T0 - 12_000, T0 + 3_000)).toBe('15s');
  });

  it('minute labels change on the next half-minute after the label would, never before it, never a unit late', () => {
    for (let age = 60_000; age < 3_600_000; age += 7_001) {
      const now = T0 + 3_333;
      const d = ageTickMs(now - age, now);
      expect((now + d) % 30_000, `age ${age}`).toBe(0);
      expect(formatAge(now - age, now + d), `age ${age}`).not.toBe(formatAge(now - age, now));
      expect(d - (60_000 - (age % 60_000)), `age ${age}`).toBeLessThan(30_000);
    }
  });

  it('rows of scattered ages turn over together: at most 2 distinct instants a minute for 100 rows', () => {
    const now = T0 + 1_234;
    const instants = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const updated = now - 60_000 - i * 9_377;
      // Follow each row's label over one minute.
      let t = now;
      while (t < now + 60_000) {
        t += ageTickMs(updated, t);
        if (t < now + 60_000) instants.add(t);
      }
    }
    expect(instants.size).toBeLessThanOrEqual(2);
  });

  it('hour labels change on the next minute of the clock', () => {
    const now = T0 + 20_000;
    const d = ageTickMs(now - 2 * 3_600_000 - 3_599_000, now);
    expect((now + d) % 60_000).toBe(0);
    expect(formatAge(now - 2 * 3_600_000 - 3_599_000, now + d)).toBe('3h');
  });
});

describe('formatAge / formatAgo at the edges of time', () => {
  const DAY = 86_400_000;
  it('past: days up to a year, then years; the label never exceeds the 4 cells of the AGE column', () => {
    expect(formatAge(T0 - 364 * DAY, T0)).toBe('364d');
    expect(formatAge(T0 - 366 * DAY, T0)).toBe('1y');
    expect(formatAge(Date.parse('1970-01-01T00:00:00Z'), T0)).toBe('56y');
    expect(formatAge(Date.parse('0001-01-01T00:00:00Z'), T0)).toBe('1ky+');
    expect(formatAgo(Date.parse('1970-01-01T00:00:00Z'), T0)).toBe('56y ago');
  });

  it('ahead of the clock: a + in the cell, "in …" in a sentence; a few seconds ahead is still now', () => {
    expect(formatAge(T0 + 4_000, T0)).toBe('0s');
    expect(formatAgo(T0 + 4_000, T0)).toBe('0s ago');
    expect(formatAge(T0 + 3 * 3_600_000, T0)).toBe('+3h');
    expect(formatAgo(T0 + 3 * 3_600_000, T0)).toBe('in 3h');
    expect(formatAge(T0 + 99 * DAY, T0)).toBe('+99d');
    expect(formatAge(T0 + 200 * DAY, T0)).toBe('+<1y');
    expect(formatAgo(T0 + 200 * DAY, T0)).toBe('in 200d');
    expect(formatAge(T0 + 400 * DAY, T0)).toBe('+1y');
    expect(formatAgo(T0 + 400 * DAY, T0)).toBe('in 1y');
    expect(formatAge(8.64e15, T0)).toBe('+far');
    for (const d of [10_000, 3_600_000, 50 * DAY, 300 * DAY, 5_000 * DAY, 8.64e15 - T0])
      expect(width(formatAge(T0 + d, T0)), `+${d}`).toBeLessThanOrEqual(4);
  });

  it('a label ahead of the clock is repainted within a minute, and when it turns to a past age', () => {
    expect(ageTickMs(T0 + 400 * DAY, T0)).toBe(60_000);
    const ahead = T0 + 20_000;
    const d = ageTickMs(ahead, T0);
    expect(formatAge(ahead, T0)).toBe('+20s');
    expect(formatAge(ahead, T0 + d)).toBe('0s');
  });
});

describe('AGE_CHARS', () => {
  it('holds every character an age is written with, past or ahead, from seconds to millennia (the filter trusts it)', () => {
    const written = new Set<string>();
    for (let span = 1_000; span < 2_000 * 365.25 * 86_400_000; span = Math.ceil(span * 1.07)) {
      for (const ch of formatAge(T0 - span, T0) + formatAge(T0 + span, T0) + formatAge(null, T0)) written.add(ch);
    }
    const outside = [...written].filter((ch) => !AGE_CHARS.includes(ch.toLowerCase()));
    expect(outside).toEqual([]);
    // And nothing in it that no age writes: a needless character only costs the filter a clocked pass.
    expect([...AGE_CHARS].filter((ch) => !written.has(ch))).toEqual([]);
  });
});

describe('width', () => {
  it('measures the one-cell fast path exactly as string-width does, and everything else by string-width', () => {
    for (const s of ['ralph 3/10 · ultrawork', '…', '—', '▸ x', '↑3 ↓7 more', '│', '• – ←→', 'abc~ ']) {
      expect(ONE_CELL_TEXT.test(s), s).toBe(true);
      expect(width(s), s).toBe(stringWidth(s));
    }
    for (const s of ['決済', '🚀 go', 'e\u0301', '⚠️', 'a\tb', '\u001b[31mred']) {
      expect(ONE_CELL_TEXT.test(s), s).toBe(false);
      expect(width(s), s).toBe(stringWidth(s));
    }
  });
});
