/** The repaint ticker's schedule for age labels: exact under a minute, batched on the wall clock above it. */
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { ageTickMs, formatAge, ONE_CELL_TEXT, width } from '../../src/ui/format.js';

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
