/**
 * The run ledger's lines cited truly (sweep 3, finding 14): the file's own line numbers (what `grep -n` gives)
 * when omc-top reads only the file's last 1 MB, every skipped line counted and named, the lines not read said
 * so, an outcome OMC does not write shown as `unknown` with what it was (never as `cancelled`), and text from a
 * ledger line shown by every character.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { RunsDomain } from '../../src/store/runs/domain.js';
import type { RunLine } from '../../src/store/runs/history.js';
import { runDetailLines } from '../../src/panes/history/detail.js';
import { sessionOf, writeLongLineLedger } from '../helpers/long-line-ledger.js';

const MB = 1024 * 1024;
const LONG = 1_150_000;
const LEDGER = 'state/runs/ledger.jsonl';
const T0 = Date.parse('2026-11-30T10:00:00.000Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();

function domain(root: string): RunsDomain {
  const d = new RunsDomain({ root });
  d.scan();
  return d;
}

const runOf = (d: RunsDomain, session: string): RunLine => {
  const r = d.runs().find((x) => x.sessionId === session);
  if (!r) throw new Error(`no run of ${session}`);
  return r;
};
const messages = (d: RunsDomain) => d.problems().map((p) => p.message);
const ledgerFile = (root: string) => path.join(root, 'state', 'runs', 'ledger.jsonl');
const line = (o: Record<string, unknown>) => JSON.stringify(o) + '\n';

describe('run ledger: line numbers, skipped lines and outcomes told truly', () => {
  it('a line longer than the part read: the file’s own line numbers, the skipped lines named, the rest said unread', ({
    emptyProject: p,
  }) => {
    const built = writeLongLineLedger(p.root, { runs: 60, longBytes: LONG });
    const d = domain(p.root);
    // The long line (21) and the wrong types (31) are skipped; `not json` (11) is before the part read.
    expect(messages(d)).toContain(
      `2 ledger lines skipped (line 21: ${LONG} bytes long (not a ledger record); line 31: no "run"); OMC's reconciler skips them too`,
    );
    expect(messages(d)).toContain(
      'lines 1–20 not read: omc-top reads at most the last 1.0 MB of this file at a time; runs recorded only there are not in History',
    );
    // Every run cites the lines it came from by their numbers in the file.
    const s = sessionOf(55);
    expect(runOf(d, s).where).toEqual([`${LEDGER}:${built.lineOf(s, 'start')}`, `${LEDGER}:${built.lineOf(s, 'end')}`]);
    expect([built.lineOf(s, 'start'), built.lineOf(s, 'end')]).toEqual([95, 96]);
    for (const r of d.runs())
      for (const w of r.where) {
        const n = Number(w.slice(LEDGER.length + 1));
        expect(built.lines[n - 1]).toContain(r.sessionId!.slice(0, 8));
      }
  });

  it('a read that starts on a line’s first byte keeps that line (nothing is cut) and numbers it truly', ({
    emptyProject: p,
  }) => {
    const first = line({ ts: at(0), run: 'team', sessionId: sessionOf(0), event: 'start' });
    const kept = line({ ts: at(1), run: 'ralph', sessionId: sessionOf(1), event: 'start' });
    // A filler line that ends exactly 1 MB before the end of the file: the read begins with `kept`.
    const filler = 'y'.repeat(5000 - first.length - 1) + '\n';
    const rest = line({ ts: at(2), run: 'team', sessionId: sessionOf(2), event: 'end', outcome: 'cancelled' });
    const pad = 'z'.repeat(MB - kept.length - rest.length - 1) + '\n';
    fs.mkdirSync(path.dirname(ledgerFile(p.root)), { recursive: true });
    fs.writeFileSync(ledgerFile(p.root), first + filler + kept + pad + rest);
    expect(fs.statSync(ledgerFile(p.root)).size - MB).toBe(first.length + filler.length);
    const d = domain(p.root);
    expect(runOf(d, sessionOf(1)).where).toEqual([`${LEDGER}:3`]);
    expect(runOf(d, sessionOf(2)).where).toEqual([`${LEDGER}:5`]);
    expect(messages(d)).toContain(
      `1 ledger line skipped (line 4: line is ${pad.length - 1} characters long (not a ledger record)); OMC's reconciler skips them too`,
    );
    expect(messages(d).find((m) => m.includes('not read'))).toMatch(/^lines 1–2 not read: /);
  });

  it('a ledger too big to count the lines before the part read: its size not read, said as one sentence', ({
    emptyProject: p,
  }) => {
    // 10 MB of filler lines (more than omc-top counts newlines in), then one run.
    const filler = ('f'.repeat(1023) + '\n').repeat(10 * 1024);
    fs.mkdirSync(path.dirname(ledgerFile(p.root)), { recursive: true });
    fs.writeFileSync(
      ledgerFile(p.root),
      filler + line({ ts: at(0), run: 'ralph', sessionId: sessionOf(1), event: 'start', outcome: 'running' }),
    );
    const d = domain(p.root);
    expect(runOf(d, sessionOf(1)).mode).toBe('ralph');
    expect(messages(d).find((m) => m.includes('not read'))).toBe(
      '9.0 MB not read (its lines not counted): omc-top reads at most the last 1.0 MB of this file at a time; runs recorded only there are not in History',
    );
  });

  it('the rotated .1 past the 512 KB read: its lines keep the file’s numbers, and no standing problem line', ({
    emptyProject: p,
  }) => {
    // `.1` only grows (OMC appends 1,000 lines at each rotation): its oldest lines going unread is by design.
    const rows: string[] = [];
    for (let i = 0; i < 5000; i++)
      rows.push(
        line({
          ts: at(i),
          run: 'ralph',
          sessionId: sessionOf(i),
          event: i % 2 ? 'end' : 'start',
          outcome: i % 2 ? 'completed' : 'running',
        }),
      );
    const file = ledgerFile(p.root) + '.1';
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, rows.join(''));
    expect(fs.statSync(file).size).toBeGreaterThan(MB / 2);
    const d = domain(p.root);
    expect(messages(d)).toEqual([]);
    const last = runOf(d, sessionOf(4999));
    expect(last.where).toEqual([`${LEDGER}.1:5000`]);
  });

  it('more than 1 MB appended at once while followed: later lines keep the file’s numbers, the gap is said', ({
    emptyProject: p,
  }) => {
    fs.mkdirSync(path.dirname(ledgerFile(p.root)), { recursive: true });
    fs.writeFileSync(ledgerFile(p.root), line({ ts: at(0), run: 'ralph', sessionId: sessionOf(0), event: 'start' }));
    const d = domain(p.root);
    expect(messages(d)).toEqual([]);
    // 3,000 lines of about 400 bytes, then one run: more than one poll reads (1 MB), fewer than the 4,000 kept.
    let burst = '';
    for (let i = 0; i < 3_000; i++)
      burst += line({ ts: at(1), run: 'team', sessionId: `filler-${i}`, event: 'start', note: 'p'.repeat(300) });
    burst += line({ ts: at(2), run: 'autopilot', sessionId: sessionOf(7), event: 'start' });
    fs.appendFileSync(ledgerFile(p.root), burst);
    d.refresh([{ type: 'change', rel: LEDGER }], 'trailing');
    expect(runOf(d, sessionOf(7)).where).toEqual([`${LEDGER}:3002`]);
    const gap = messages(d).find((m) => m.includes('not read'));
    expect(gap).toMatch(/^lines 2–\d+ not read: /);
    const lastUnread = Number(/–(\d+)/.exec(gap!)![1]);
    // The first line read follows the last one not read: the unread range ends just before it.
    const firstRead = Math.min(
      ...d
        .runs()
        .filter((r) => r.sessionId?.startsWith('filler-'))
        .map((r) => Number(r.where[0]!.slice(LEDGER.length + 1))),
    );
    expect(firstRead).toBe(lastUnread + 1);
    expect(runOf(d, `filler-${firstRead - 2}`).where).toEqual([`${LEDGER}:${firstRead}`]);
  });

  it('an outcome OMC does not write is `unknown` with what it said, never `cancelled`; a problem line names it', ({
    emptyProject: p,
  }) => {
    fs.mkdirSync(path.dirname(ledgerFile(p.root)), { recursive: true });
    fs.writeFileSync(
      ledgerFile(p.root),
      line({ ts: at(0), run: 'ralph', sessionId: sessionOf(1), event: 'start', outcome: 'running' }) +
        line({ ts: at(1), run: 'ralph', sessionId: sessionOf(1), event: 'end', outcome: 'weird-outcome' }) +
        line({ ts: at(2), run: 'team', sessionId: sessionOf(2), event: 'start', outcome: 'running' }) +
        line({ ts: at(3), run: 'team', sessionId: sessionOf(2), event: 'end' }) +
        line({ ts: at(4), run: 'autopilot', sessionId: sessionOf(3), event: 'end', outcome: 'cancelled' }) +
        line({ ts: at(5), run: 'ralph', sessionId: sessionOf(4), event: 'end', outcome: 'x\u001b]0;T\u0007y' }),
    );
    const d = domain(p.root);
    const pick = (s: string) => {
      const r = runOf(d, s);
      return [r.outcome, r.outcomeWritten];
    };
    expect(pick(sessionOf(1))).toEqual(['unknown', 'weird-outcome']);
    expect(pick(sessionOf(2))).toEqual(['unknown', null]);
    expect(pick(sessionOf(3))).toEqual(['cancelled', 'cancelled']);
    expect(pick(sessionOf(4))).toEqual(['unknown', 'x␛]0;T␇y']);
    expect(messages(d)).toEqual([
      `3 ledger end lines with an outcome OMC does not write (line 2: "weird-outcome"; line 4: no "outcome"; line 6: "x␛]0;T␇y"); History shows them as unknown`,
    ]);
    const json = (d.report().runs as Record<string, unknown>[]).find((r) => r.session === sessionOf(1));
    expect(json).toMatchObject({ outcome: 'unknown', ledger_outcome: 'weird-outcome' });
  });

  it('a mode, session or source holding an escape sequence is shown by every character, its text kept', ({
    emptyProject: p,
  }) => {
    fs.mkdirSync(path.dirname(ledgerFile(p.root)), { recursive: true });
    fs.writeFileSync(
      ledgerFile(p.root),
      line({ ts: at(0), run: 'evil\u001b]0;X\u0007mode', sessionId: 'se\u001b[2Jss', event: 'start' }) +
        line({
          ts: at(1),
          run: 'ralph',
          sessionId: sessionOf(9),
          event: 'end',
          outcome: 'cancelled',
          source: 'a\u009bb',
        }),
    );
    const d = domain(p.root);
    expect(runOf(d, 'se␛[2Jss').mode).toBe('evil␛]0;X␇mode');
    expect(runOf(d, sessionOf(9)).endedBy).toBe('a<U+009B>b');
    const json = JSON.stringify(d.report());
    expect(json).toContain('"mode":"evil␛]0;X␇mode"');
    expect(json).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\\u001b|\\u0007|\\u009b/);
  });
});

describe('a run whose end is dated before its start', () => {
  it('has no duration (it read 0s), and its detail says the clock moved back between the two lines', ({
    emptyProject: p,
  }) => {
    fs.mkdirSync(path.dirname(ledgerFile(p.root)), { recursive: true });
    fs.writeFileSync(
      ledgerFile(p.root),
      line({ ts: at(10), run: 'ralph', sessionId: sessionOf(1), event: 'start', outcome: 'running' }) +
        line({ ts: at(0), run: 'ralph', sessionId: sessionOf(1), event: 'end', outcome: 'completed' }),
    );
    const r = runOf(domain(p.root), sessionOf(1));
    expect([r.outcome, r.durationMs]).toEqual(['completed', null]);
    const text = runDetailLines(r, 100, { claude: null, facts: [], budget: null }).map((l) => l.text);
    expect(text).toContain('duration: —   iterations reached: —');
    expect(text.join('\n')).toContain('the end is dated before the start (the clock moved back between them)');
  });
});
