// A page shown through a line source must read exactly as the same page made as one array: every window of it,
// whatever the rows' line counts. And the Cost pane's loop rows say how many lines they make without making them:
// the count must be what they make, for every kind of row at every width.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinLines, rowLines, type ToneLine } from '../../src/ui/line-source.js';
import { loopLine, loopLineCount } from '../../src/panes/cost/lines.js';
import type { LoopRow } from '../../src/store/cost/loops.js';

const line = (text: string): ToneLine => ({ text });

describe('line sources', () => {
  it('every window of joined parts and rows made on demand is that window of the whole array', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 4 }), { maxLength: 12 }),
        fc.nat({ max: 5 }),
        fc.nat({ max: 5 }),
        fc.integer({ min: -3, max: 40 }),
        fc.integer({ min: -3, max: 40 }),
        (counts, headN, tailN, start, end) => {
          const head = Array.from({ length: headN }, (_, i) => line(`h${i}`));
          const tail = Array.from({ length: tailN }, (_, i) => line(`t${i}`));
          const made: number[] = [];
          const rows = counts.map((n, r) => ({ r, n }));
          const part = rowLines(
            rows,
            (x) => x.n,
            (x) => {
              made.push(x.r);
              return Array.from({ length: x.n }, (_, k) => line(`r${x.r}.${k}`));
            },
          );
          const whole = [
            ...head,
            ...rows.flatMap((x) => Array.from({ length: x.n }, (_, k) => line(`r${x.r}.${k}`))),
            ...tail,
          ];
          const joined = joinLines([head, part, tail]);
          expect(joined.length).toBe(whole.length);
          expect(joined.slice(start, end)).toEqual(whole.slice(Math.max(0, start), Math.max(0, end)));
          // Only rows the window reaches are made.
          const reached = new Set(
            whole
              .slice(Math.max(0, start), Math.max(0, end))
              .filter((l) => l.text.startsWith('r'))
              .map((l) => Number(l.text.slice(1).split('.')[0])),
          );
          for (const r of made) if (counts[r] !== 0) expect(reached.has(r)).toBe(true);
        },
      ),
    );
  });

  it("a Cost pane loop row's line count is the lines it makes, for every kind of row and width", () => {
    const base: LoopRow = {
      key: 'omc|x',
      kind: 'omc',
      sessionId: 'x',
      label: 'ralph 3/10',
      detail: '',
      state: 'enforced',
      nextMs: null,
      process: null,
      spend: null,
      competing: false,
      rateLimit: null,
      ended: false,
    };
    const NOW = Date.parse('2026-12-01T12:00:00.000Z');
    for (const detail of ['', 'ralph: make the tests pass'])
      for (const competing of [false, true])
        for (const rateLimit of [
          null,
          { untilMs: NOW + 60_000, by: 'wait daemon' as const, daemonResumes: true, daemonAlive: true },
        ])
          for (const width of [60, 80, 110, 111, 200]) {
            const row = { ...base, detail, competing, rateLimit };
            expect(loopLineCount(row, width), JSON.stringify({ detail, competing, rateLimit, width })).toBe(
              loopLine(row, NOW, width).length,
            );
          }
  });
});
