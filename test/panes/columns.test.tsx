/**
 * Every column of a list keeps its last cell blank: a value too long for its
 * column is cut with `…` inside it and never runs into the next column
 * (`sta…ralph:`), at 80 and 60 columns, with wide (CJK) text too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { READERS_CAPTURED_AT } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { width as cells } from '../../src/ui/format.js';

/** A line as terminal cells: a wide character takes its cell and the one after it (''). */
function cellsOf(line: string): string[] {
  const out: string[] = [];
  for (const ch of line) {
    out.push(ch);
    if (cells(ch) === 2) out.push('');
  }
  return out;
}

/** The cell where each column title starts (after the first). */
function columnStarts(titles: string): number[] {
  const c = cellsOf(titles);
  const starts: number[] = [];
  for (let i = 3; i < c.length; i++) if (c[i] !== ' ' && c[i - 1] === ' ' && c[i - 2] !== undefined) starts.push(i);
  return starts;
}

function expectColumnsApart(lines: string[], titleMatch: RegExp, rowMatch: RegExp): void {
  const titles = lines.find((l) => titleMatch.test(l));
  expect(titles, lines.join('\n')).toBeDefined();
  const starts = columnStarts(titles as string);
  const rows = lines.filter((l) => rowMatch.test(l));
  expect(rows.length, lines.join('\n')).toBeGreaterThan(0);
  for (const row of rows) {
    const c = cellsOf(row);
    for (const s of starts) if (s - 1 < c.length) expect(c[s - 1], `cell ${s - 1} of ${JSON.stringify(row)}`).toBe(' ');
  }
}

const T = (ms: number) => new Date(READERS_CAPTURED_AT - ms).toISOString();

describe('list columns', () => {
  for (const columns of [80, 60]) {
    it(`History at ${columns} columns: a long or wide run name is cut inside its column`, async ({ app, project }) => {
      const ledger = path.join(project.root, 'state', 'runs', 'ledger.jsonl');
      fs.mkdirSync(path.dirname(ledger), { recursive: true });
      const lines = [
        { ts: T(600_000), run: 'ralph-with-a-long-name', sessionId: 'aaaaaaaa-1111', event: 'start' },
        {
          ts: T(500_000),
          run: 'ralph-with-a-long-name',
          sessionId: 'aaaaaaaa-1111',
          event: 'end',
          outcome: 'completed',
          closeoutWritten: true,
        },
        { ts: T(400_000), run: '決済フロー設計ループ', sessionId: 'bbbbbbbb-2222', event: 'start' },
        { ts: T(300_000), run: '決済フロー設計ループ', sessionId: 'bbbbbbbb-2222', event: 'end', outcome: 'cancelled' },
        { ts: T(200_000), run: 'ralph', sessionId: 'cccccccc-3333', event: 'start' },
      ];
      fs.writeFileSync(ledger, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      const a = await app({ columns, rows: 24, clock: () => READERS_CAPTURED_AT });
      await a.press('R');
      await a.waitForText(/決済フ/);
      await a.waitForText(/ralph-wi/);
      const shown = a.lines();
      for (const l of shown) expect(cells(l)).toBeLessThanOrEqual(columns);
      expectColumnsApart(shown, /MODE +SESSION/, /(aaaaaaaa|bbbbbbbb|cccccccc)/);
    });
  }
});
