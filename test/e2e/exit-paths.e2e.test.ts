/**
 * However omc-top ends, the user's terminal comes back: alternate screen
 * left, cursor shown, cooked mode (stty settings identical to before).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';
import { KEY } from '../helpers/keys.js';

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
afterEach(() => {
  h?.dispose();
  p?.cleanup();
  h = null;
  p = null;
});

async function started(env: Record<string, string> = {}): Promise<TerminalHarness> {
  p = makeProject({ withFixture: true });
  h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24, checkStty: true, env });
  await h.waitForText('ralph 3/10');
  expect(h.altScreen).toBe(true);
  return h;
}

async function expectRestored(t: TerminalHarness, code: number): Promise<void> {
  expect(await t.waitForExit()).toBe(code);
  await t.settle();
  expect(t.altScreen).toBe(false);
  expect(t.cursorVisible).toBe(true);
  const stty = t.stty();
  expect(stty?.after).toBe(stty?.before);
  // Bracketed paste is switched off again.
  expect(t.output.lastIndexOf('\u001b[?2004l')).toBeGreaterThan(t.output.lastIndexOf('\u001b[?2004h'));
}

describe('terminal restore on every exit path', () => {
  it('Ctrl-C', async () => {
    const t = await started();
    t.write(KEY.ctrlC);
    await expectRestored(t, 0);
  });

  it('SIGTERM', async () => {
    const t = await started();
    // Signal omc-top itself (the pty's child is sh, which waits for it).
    const { execFileSync } = await import('node:child_process');
    execFileSync('pkill', ['-TERM', '-f', `dist/omc-top.mjs`, '-P', String(t.pty.pid)]);
    await expectRestored(t, 143);
  });

  it('SIGHUP (tmux pane killed)', async () => {
    const t = await started();
    const { execFileSync } = await import('node:child_process');
    execFileSync('pkill', ['-HUP', '-f', `dist/omc-top.mjs`, '-P', String(t.pty.pid)]);
    await expectRestored(t, 129);
  });

  it('an uncaught error: restored, then the error is printed on the normal screen', async () => {
    const t = await started({ OMC_TOP_TEST_CRASH_AFTER_MS: '300' });
    await expectRestored(t, 1);
    expect(t.text()).toMatch(/omc-top crashed: Error: test crash requested/);
  });

  it('q quits from the help overlay too (Esc is what closes it)', async () => {
    const t = await started();
    t.write('?');
    await t.waitForText('omc-top keys');
    t.write('q');
    await expectRestored(t, 0);
  });
});

describe('command line', () => {
  it('NO_COLOR: no colour codes at all, meaning still visible in text', async () => {
    p = makeProject({ withFixture: true });
    h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24, env: { NO_COLOR: '1' } });
    await h.waitForText('ralph 3/10');
    // SGR colour parameters 30-37, 90-97 (fg) and 38;5 / 38;2 never appear.
    expect(h.output).not.toMatch(/\u001b\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7])(?:;[0-9;]*)?m/);
    expect(h.text()).toMatch(/finished/);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
