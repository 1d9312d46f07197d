/**
 * The `/` filter of the Teams, Memory, Notepad and History panes finds a row by the words the row shows (a status
 * word, an age as drawn, a phase, a fate, a closeout), in the built bundle in a real terminal; and the Wiki's `/`
 * (OMC's ranking) clears with Esc as every other pane's filter does. Each word is read off the screen first, so a
 * fixture date that ages (an age, `due`) is taken as drawn that day.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { KEY } from '../helpers/keys.js';
import type { TerminalHarness } from '../helpers/pty.js';

/** Types `/words`, waits for the filter line's count, and returns the screen. */
async function filter(h: TerminalHarness, words: string, count: RegExp): Promise<string[]> {
  h.write('/');
  h.write(words);
  await h.waitForText(count);
  return h.screen();
}

/**
 * Esc clears a filter being typed: its line (`gone`) leaves the screen. Waited for before the next key, or Esc and
 * that key would arrive together and read as Alt+key.
 */
async function clear(h: TerminalHarness, gone: RegExp): Promise<void> {
  h.write(KEY.esc);
  await h.waitForNoText(gone);
}

describe('/ finds what a row shows', () => {
  it('Teams: the state line, the counts, the phase history and the age; a task by its lease, blocker and error', async ({
    project: p,
    pty,
  }) => {
    const h = pty({ cwd: p.dir, cols: 120, rows: 30 });
    await h.waitForText('ralph 3/10');
    h.write('t');
    const head = await h.waitForText(/▸ fix-ts-errors .* (\S+)\n/);
    const age = /▸ fix-ts-errors .*\s(\S+)$/m.exec(head)?.[1] as string;
    expect(head).toMatch(/pend \d+ · .*team-prd/);
    for (const words of ['pend', 'team-prd', `fix-ts ${age}`]) {
      const shown = await filter(h, words, /\/\S.* 1 of 1 match/);
      expect(shown.join('\n'), words).toMatch(/▸ fix-ts-errors /);
      await clear(h, /of 1 match/);
    }
    await filter(h, 'no-such-word', /0 of 1 match/);
    await clear(h, /of 1 match/);

    // The team's tasks: an expired lease, an open blocker (⛓3), a failed task's error, as their rows show them.
    h.write(KEY.enter);
    await h.waitForText('WORKERS 3');
    for (const [words, count, row] of [
      ['lease expired', 2, /#3 +in progress .*\(lease expired \S+ ago\)/],
      ['⛓3', 1, /#5 +pending .*⛓3/],
      ['formatcents', 1, /#2 +failed .*— formatCents/],
    ] as const) {
      const shown = await filter(h, words, new RegExp(`TASKS 6 · /\\S.* ${count} of 6 match`));
      expect(shown.join('\n'), words).toMatch(row);
      await clear(h, /of 6 match/);
    }
  });

  it('Memory: the source and the fate at the next session start', async ({ project: p, pty }) => {
    const h = pty({ cwd: p.dir, cols: 120, rows: 30 });
    await h.waitForText('ralph 3/10');
    h.write('m');
    const all = await h.waitForText(/PRIORITY DIRECTIVE/);
    const injected = all.split('\n').filter((l) => /✓ start$/.test(l)).length;
    expect(injected).toBeGreaterThan(0);
    const shown = await filter(h, 'explicit start', new RegExp(`${injected} of 7 match`));
    expect(shown.filter((l) => /^[▸ ] \d+ /.test(l)).every((l) => /explicit +\S+ +✓ start$/.test(l))).toBe(true);
  });

  it('Notepad: `due` and the age as drawn', async ({ project: p, pty }) => {
    const h = pty({ cwd: p.dir, cols: 120, rows: 30 });
    await h.waitForText('ralph 3/10');
    h.write('n');
    const all = await h.waitForText(/▸ 2026-/);
    const rows = all.split('\n').filter((l) => /^[▸ ] 20\d\d-\d\d-\d\d /.test(l));
    const due = rows.filter((l) => / due /.test(l)).length;
    expect(due).toBeGreaterThan(0);
    await filter(h, 'due', new RegExp(`${due} of 5 match`));
    await clear(h, /of 5 match/);
    // The first row's age, as drawn: its row is kept.
    const [stamp, age] = /^▸ (\S+ \S+) +(\S+) /.exec(rows[0] as string)?.slice(1) ?? [];
    const shown = await filter(h, age as string, /\/\S+ +\d+ of 5 match/);
    expect(shown.some((l) => l.slice(2).startsWith(`${stamp as string} `))).toBe(true);
  });

  it('History: the closeout and how long the run took', async ({ project: p, pty }) => {
    const t0 = Date.parse('2026-11-30T10:00:00.000Z');
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const line = (o: Record<string, unknown>) => JSON.stringify(o);
    const A = 'aaaaaaaa-1111-4222-8333-444444444444';
    const B = 'bbbbbbbb-1111-4222-8333-444444444444';
    const file = path.join(p.root, 'state', 'runs', 'ledger.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [
        line({ ts: at(0), run: 'ralph', sessionId: A, event: 'start', outcome: 'running' }),
        line({
          ts: at(12 * 60_000),
          run: 'ralph',
          sessionId: A,
          event: 'end',
          outcome: 'completed',
          closeoutWritten: true,
        }),
        line({ ts: at(3_600_000), run: 'autopilot', sessionId: B, event: 'start', outcome: 'running' }),
        line({
          ts: at(3_645_000),
          run: 'autopilot',
          sessionId: B,
          event: 'end',
          outcome: 'cancelled',
          closeoutWritten: false,
        }),
      ].join('\n') + '\n',
    );
    const h = pty({ cwd: p.dir, cols: 120, rows: 30 });
    await h.waitForText('ralph 3/10');
    h.write('R');
    await h.waitForText(/ralph +aaaaaaaa .*completed +12m +written/);
    await h.waitForText(/autopilot +bbbbbbbb .*cancelled +45s +missing/);
    for (const [words, row] of [
      ['written', 'aaaaaaaa'],
      ['12m', 'aaaaaaaa'],
      ['missing', 'bbbbbbbb'],
      ['45s', 'bbbbbbbb'],
    ] as const) {
      const shown = await filter(h, words, /1 of 2 runs/);
      expect(shown.join('\n'), words).toMatch(new RegExp(`▸ \\S+ +${row} `));
      await clear(h, /of 2 runs/);
    }
  });

  it("Wiki: the search is OMC's ranking; Esc clears it while typing and once kept, as every pane's filter", async ({
    project: p,
    pty,
  }) => {
    const h = pty({ cwd: p.dir, cols: 100, rows: 30 });
    await h.waitForText('ralph 3/10');
    h.write('w');
    await h.waitForText('10 of 10 pages');
    await filter(h, 'checkout', /3 matches in 10 pages/);
    await clear(h, /matches in 10 pages/);
    expect(h.screen()[1]).toMatch(/^\/ to search +10 of 10 pages/);
    // Kept (Tab leaves the box), then Esc in the list clears it.
    await filter(h, 'checkout', /3 matches in 10 pages/);
    h.write('\t');
    // Out of the box: the list's keys are offered, the query kept.
    await h.waitForText(/c category/);
    expect(h.screen()[1]).toMatch(/^\/ checkout +3 matches in 10 pages/);
    await clear(h, /matches in 10 pages/);
    expect(h.screen()[1]).toMatch(/^\/ to search +10 of 10 pages/);
  });
});
