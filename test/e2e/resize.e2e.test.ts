/**
 * Narrowing the terminal leaves no row of the wider frame behind. Ink draws the tree it holds the moment the
 * terminal resizes; drawn at the old width, each wide row wrapped onto two in the narrower terminal, the screen
 * scrolled, and every later frame landed too low: `npm run demo` at 80 columns narrowed to 60 showed two footers
 * and four problem lines where the frame has two.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TerminalHarness } from '../helpers/pty.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { SESSION, waitFor, writeOmcJson } from '../helpers/fixtures.js';
// @ts-expect-error plain ESM without types
import { startSimulator } from '../../demo/simulate.mjs';
// @ts-expect-error plain ESM without types
import { demoConfigDir } from '../../demo/sim/claude.mjs';

async function resizedCleanly(h: TerminalHarness, cols: number, rows: number): Promise<void> {
  h.resize(cols, rows);
  await cleanFrame(h, cols, rows);
}

/** What is wrong with the screen as one frame of `cols` x `rows` (the frame is one row shorter), or null. */
function frameFault(h: TerminalHarness, cols: number, rows: number): string | null {
  const s = h.screen();
  const footers = s.filter((l) => /^s:Sessions /.test(l)).length;
  const titles = s.filter((l) => /STATUS\s+SESSION/.test(l)).length;
  if (h.term.cols !== cols || s.length !== rows) return `the terminal is ${h.term.cols}x${s.length}`;
  if (!(s[0] ?? '').startsWith('omc-top')) return 'the header is not on the first row';
  if (titles !== 1) return `${titles} column-title rows`;
  if (footers !== 1) return `${footers} footers`;
  if (!(s[rows - 2] ?? '').startsWith('s:Sessions ')) return 'the footer is not on the frame’s last row';
  return null;
}

/** Waits for the screen to hold one clean frame of this size (with the fault, frames after a resize never do). */
async function cleanFrame(h: TerminalHarness, cols: number, rows: number): Promise<void> {
  await waitFor(() => frameFault(h, cols, rows) === null, { timeoutMs: 10_000, what: 'one clean frame' }).catch(
    (e: Error) => {
      throw new Error(`${e.message} of ${cols}x${rows}: ${frameFault(h, cols, rows)}\nScreen:\n${h.text()}`);
    },
  );
}

describe('narrowing the terminal', () => {
  it('the demo at 80x24 narrowed to 60 columns shows one frame: one footer, its problem lines once', async ({
    emptyProject: p,
    pty,
  }) => {
    const stop = (await startSimulator(p.root, p.dir)) as () => void;
    onTestFinished(stop);
    const h = pty({ cols: 80, rows: 24, args: ['--root', p.root], env: { CLAUDE_CONFIG_DIR: demoConfigDir(p.dir) } });
    await h.waitForText(/⚠ .*\n.*\n\s*\ns:Sessions .*c cancel/, 20_000);
    await resizedCleanly(h, 60, 24);
    // The demo keeps writing: later frames land on the same rows.
    const seen = h.output.length;
    await waitFor(() => h.output.length > seen + 200, { timeoutMs: 10_000, what: 'more frames' });
    // A frame is judged whole: the screen is read once a frame's bytes are all in (a loaded machine may hand the
    // test the lines' erase in one chunk and their text in the next), and a fault that lasts is still one.
    await h.settle();
    await waitFor(() => frameFault(h, 60, 24) === null, { timeoutMs: 10_000, what: 'one whole frame at 60x24' }).catch(
      () => undefined,
    );
    expect(frameFault(h, 60, 24), h.text()).toBeNull();
    expect(h.screen().filter((l) => l.startsWith('⚠ ')).length).toBe(2);
  });

  it('the real-OMC tree at 80x24 narrowed to 60 columns while a loop moves, then widened back', async ({
    project: p,
    pty,
  }) => {
    const h = pty({ cwd: p.dir, cols: 80, rows: 24 });
    await h.waitForText('ralph 3/10');
    await h.waitForText(/^s:Sessions .* live$/m);
    await resizedCleanly(h, 60, 24);
    const file = path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeOmcJson(file, {
      ...state,
      session_id: SESSION.ralph,
      iteration: 4,
      last_checked_at: new Date().toISOString(),
    });
    await h.waitForText('ralph 4/10');
    await cleanFrame(h, 60, 24);
    await resizedCleanly(h, 80, 24);
  });

  it('below 20x5 one line says so, in words that fit (no frame wrapped into itself); q still quits; back to 80x24, the frame', async ({
    project: p,
    pty,
  }) => {
    const h = pty({ cwd: p.dir, cols: 80, rows: 24 });
    await h.waitForText(/^s:Sessions .* live$/m);
    h.resize(10, 3);
    await waitFor(() => (h.screen()[0] ?? '').trimEnd() === 'need 20x5' && h.screen().slice(1).join('').trim() === '', {
      timeoutMs: 10_000,
      what: 'the one line, its wording for 10 columns (not one cut mid-word)',
    }).catch((e: Error) => {
      throw new Error(`${e.message}\nScreen:\n${h.text()}`);
    });
    await resizedCleanly(h, 80, 24);
    h.resize(19, 10);
    await h.waitForText('20x5 (q quits)');
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
