/**
 * A 1,000-line ledger of hostile lines, on screen: one counted problem line
 * (in the frame and the problems view), the sessions pane unaffected, the
 * History pane lists what could be read, its escape sequences shown by every
 * character (␛ …), and no byte of a line reaches the terminal as a control sequence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { sessionOf, writeLongLineLedger } from '../helpers/long-line-ledger.js';

const T0 = Date.parse('2026-11-30T10:00:00.000Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();

function hostileLedger(root: string): void {
  const lines: string[] = [];
  for (let i = 0; i < 1000; i++) {
    switch (i % 5) {
      case 0: // readable, but every text field carries escape sequences
        lines.push(
          JSON.stringify({ ts: at(i), run: 'ralph\u001b[2J', sessionId: `x\u001b]0;pwn\u0007${i}`, event: 'start' }),
        );
        break;
      case 1:
        lines.push('{"ts": "2026-11-30T10:00:00Z", "run": "ralph", "event": "end"'); // cut off
        break;
      case 2:
        lines.push('\u001b]52;c;cHduZWQ=\u0007' + 'x'.repeat(5_000));
        break;
      case 3:
        lines.push(JSON.stringify({ ts: 'yesterday', run: 'ralph', event: 'start' }));
        break;
      default:
        lines.push(JSON.stringify({ ts: at(i), run: { nested: true }, event: 'end' }));
    }
  }
  fs.mkdirSync(path.join(root, 'state', 'runs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'state', 'runs', 'ledger.jsonl'), lines.join('\n') + '\n');
}

/** Anything a terminal would act on besides Ink's own colour and cursor codes. */
const CONTROL = /\u001b(?!\[[0-9;?]*[A-Za-z])|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/;

describe('a hostile ledger on screen', () => {
  it('one counted problem line; the sessions pane is as it was; History lists the readable runs, every character shown', async ({
    project: p,
    app: mountApp,
  }) => {
    hostileLedger(p.root);
    const app = await mountApp({ root: p.root, columns: 100, rows: 30 });
    const text = await app.waitForText('ledger lines skipped');
    expect(text).toContain('88727f43'); // the sessions pane still lists the fixture's sessions
    expect(text).toMatch(/⚠ state\/runs\/ledger\.jsonl: \d{3} ledger lines skipped \(line \d+: /);
    expect(text.match(/ledger lines skipped/g)).toHaveLength(1);
    expect(CONTROL.test(app.raw())).toBe(false);

    await app.press('R');
    const history = await app.waitForText('OUTCOME');
    // The escape sequences are shown by every character (␛ … ␇), their text kept, none reaching the terminal.
    expect(history).toMatch(/▸ ralph␛\[2J\s+x␛\]0;pwn\s+12-01 02:35 crashed/);
    expect(history).toMatch(/↓\d+ more/);
    expect(CONTROL.test(app.raw())).toBe(false);
    await app.press('\r');
    await app.waitForText('ralph␛[2J run · session x␛]0;pwn␇995');
    expect(CONTROL.test(app.raw())).toBe(false);
  });
});

describe('a ledger with a line longer than the part read, on screen', () => {
  it('History says unknown for an outcome OMC does not write, and the detail cites the file’s own line numbers', async ({
    emptyProject: p,
    app: mountApp,
  }) => {
    const built = writeLongLineLedger(p.root, { runs: 60, longBytes: 1_150_000 });
    const app = await mountApp({ root: p.root, columns: 120, rows: 40 });
    await app.press('R');
    const history = await app.waitForText('OUTCOME');
    // The newest run (59) is the mode holding an OSC, ended with "weird-outcome".
    expect(history).toMatch(/▸ evil␛]0;… 0000003b\s+11-30 10:59 unknown .*outcome "weird-outcome"/);
    expect(history).not.toMatch(/cancelled .*outcome "weird-outcome"/);
    await app.press('\r');
    const s = sessionOf(59);
    const detail = (await app.waitForText(`session ${s}`)).replace(/\s+/g, ' ');
    expect(detail).toContain('evil␛]0;X␇mode run');
    expect(detail).toContain(
      'outcome: unknown — the ledger end line says "outcome": "weird-outcome", not one of OMC\'s outcomes (completed, cancelled, failed): how the run ended is not known',
    );
    expect(detail).toContain(
      `from (the run ledger): state/runs/ledger.jsonl:${built.lineOf(s, 'start')} state/runs/ledger.jsonl:${built.lineOf(s, 'end')} `,
    );
    expect([built.lineOf(s, 'start'), built.lineOf(s, 'end')]).toEqual([102, 103]);
    expect(CONTROL.test(app.raw())).toBe(false);
  });
});
