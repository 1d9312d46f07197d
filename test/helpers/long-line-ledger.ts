/**
 * A run ledger shaped like the hostile tester's (sweep 3, finding 14), made smaller: runs of the four watched
 * modes and one mode name holding an OSC sequence, every third end line with an outcome OMC never writes, and at
 * fixed places a line that is not JSON, a line longer than the part of the file omc-top reads (1 MB), and a line
 * with wrong types. `lineOf` gives a line's number as `grep -n` would, to hold omc-top's citations to.
 */
import fs from 'node:fs';
import path from 'node:path';

export const LEDGER_MODES = ['ralph', 'autopilot', 'team', 'ultragoal', 'evil\u001b]0;X\u0007mode'];
const T0 = Date.parse('2026-11-30T10:00:00.000Z');

export const sessionOf = (i: number) => `${i.toString(16).padStart(8, '0')}-1111-4222-8333-444444444444`;

export interface BuiltLedger {
  lines: string[];
  /** The 1-based line number of the first line holding `text`. */
  lineOf(text: string, event?: 'start' | 'end'): number;
}

export function writeLongLineLedger(root: string, opts: { runs: number; longBytes: number }): BuiltLedger {
  const lines: string[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const ts = new Date(T0 + i * 60_000).toISOString();
    const run = LEDGER_MODES[i % LEDGER_MODES.length];
    lines.push(JSON.stringify({ ts, run, sessionId: sessionOf(i), event: 'start', outcome: 'running' }));
    if (i % 3)
      lines.push(
        JSON.stringify({
          ts,
          run,
          sessionId: sessionOf(i),
          event: 'end',
          outcome: ['completed', 'cancelled', 'weird-outcome'][i % 3],
          closeoutWritten: Boolean(i % 2),
        }),
      );
  }
  lines.splice(10, 0, 'not json');
  lines.splice(20, 0, 'x'.repeat(opts.longBytes));
  lines.splice(30, 0, JSON.stringify({ ts: 'bad', run: 5, event: 'start' }));
  const file = path.join(root, 'state', 'runs', 'ledger.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return {
    lines,
    lineOf: (text, event) =>
      lines.findIndex((l) => l.includes(text) && (!event || l.includes(`"event":"${event}"`))) + 1,
  };
}
