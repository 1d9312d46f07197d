/**
 * Class 5 of the second hardening round: job control. Ctrl-Z leaves the
 * alternate screen and restores cooked mode before the process stops (so the
 * shell's prompt is not drawn over omc-top); SIGCONT re-enters, re-enables
 * raw mode and repaints (so after `fg` keys act instead of echoing). With no job-control shell above it (the
 * process group orphaned), a stop could never be undone: it is not made. The real bundle in a real pty, under a
 * real interactive bash or alone; the terminal mode is read from the pty itself (stty -F).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/fixtures.js';
import { makeSandbox, type Sandbox } from '../helpers/hostile-sandbox.js';
import { TerminalHarness } from '../helpers/pty.js';

const MOUSE_ON = '\u001b[?1000h\u001b[?1006h';
const MOUSE_OFF = '\u001b[?1006l\u001b[?1000l';
const PUSH_TITLE = '\u001b[22;0t';
const POP_TITLE = '\u001b[23;0t';
/** The private modes (`CSI ? n h`) a stretch of output turns on, as a sorted list. */
const privateModesOn = (bytes: string) =>
  [...new Set([...bytes.matchAll(/\u001b\[\?([\d;]+)h/g)].flatMap((m) => (m[1] ?? '').split(';')))].sort();
/** The index of the screen's last row with text on it. */
const lastRow = (rows: string[]) => rows.reduce((last, row, i) => (row.trim() === '' ? last : i), -1);

let h: TerminalHarness | null = null;
let s: Sandbox | null = null;
afterEach(() => {
  h?.dispose();
  s?.cleanup();
  h = null;
  s = null;
});

const state = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
};
/** Whether `pid`'s group holds its terminal (/proc stat: field 5 its group, field 8 the terminal's foreground group). */
const holdsTerminal = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return f[2] === f[5];
};
const ttyMode = (pid: number) =>
  execFileSync('stty', ['-a', '-F', fs.readlinkSync(`/proc/${pid}/fd/0`)], { encoding: 'utf8' });
// The shared condition wait, with room for a loaded machine.
const until = (what: string, ok: () => boolean) => waitFor(() => ok() || null, { what, timeoutMs: 30_000 });

// An interactive bash (job control on) runs omc-top as its job, as a user's shell does; after the job stops it
// reads a line (the tty is cooked again, so the test's Enter reaches it) and brings the job back with `fg`.
const SHELL = ['bash', '--norc', '--noprofile', '-i', '-c', '"$@"; read -r _; fg', 'omc-top-shell'];
/** The shell's child: omc-top itself. */
const childOf = (pid: number) => {
  const kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return kids.length === 1 ? Number(kids[0]) : null;
};

describe('job control in a real terminal', () => {
  for (const how of ['Ctrl-Z', 'kill -TSTP'] as const) {
    it(`under a shell, ${how}: alternate screen left and cooked mode back before it stops; fg repaints and keys act again`, async () => {
      s = makeSandbox();
      h = new TerminalHarness({ args: ['--root', s.root], cols: 100, rows: 30, wrap: SHELL });
      await h.waitForText(/STATUS\s+SESSION/);
      const shell = h.pty.pid;
      const pid = await waitFor(() => childOf(shell), { what: 'omc-top under the shell', timeoutMs: 30_000 });
      expect(ttyMode(pid)).toMatch(/-icanon/);
      if (how === 'Ctrl-Z') h.write('\u001a');
      else process.kill(pid, 'SIGTSTP');
      await until('the process to stop', () => state(pid) === 'T');
      // Stopped, it cannot write any more: what it wrote before stopping may still be in the pty on its way
      // to the harness, so wait for that (bounded), never for a time.
      await until('the alternate screen left', () => !h!.altScreen && h!.cursorVisible);
      await h.settle();
      expect(state(pid)).toBe('T');
      const cooked = ttyMode(pid);
      expect(cooked).toMatch(/(^|\s)icanon(\s|$)/);
      expect(cooked).toMatch(/(^|\s)echo(\s|$)/);

      h.write('\r'); // the shell's `read` returns, and its `fg` continues the job
      await until('the process to run again', () => state(pid) !== 'T');
      await h.waitForText(/STATUS\s+SESSION/);
      expect(h.altScreen).toBe(true);
      await until('raw mode again', () => /-icanon/.test(ttyMode(pid)));
      // A key acts (raw mode): n opens the notepad at once, nothing echoed, no Enter needed.
      h.write('n');
      await h.waitForText(/1 Priority/);
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    });
  }

  it('fg takes back every mode the start entered (the wheel too), pops the title at the stop and sets it again, and draws at the size the terminal took while stopped', async () => {
    s = makeSandbox();
    h = new TerminalHarness({ args: ['--root', s.root], cols: 100, rows: 30, wrap: SHELL });
    await h.waitForText(/STATUS\s+SESSION/);
    const pid = await waitFor(() => childOf(h!.pty.pid), { what: 'omc-top under the shell', timeoutMs: 30_000 });
    await h.settle();
    const started = h.output;
    expect(started).toContain(MOUSE_ON);
    expect(started).toContain(PUSH_TITLE);

    h.write('\u001a');
    await until('the process to stop', () => state(pid) === 'T');
    await until('the alternate screen left', () => !h!.altScreen && h!.cursorVisible);
    await h.settle();
    const atStop = h.output.slice(started.length);
    // The shell's own title is back while omc-top is stopped: the one pushed at the start is popped.
    expect(atStop).toContain(POP_TITLE);
    expect(atStop).toContain(MOUSE_OFF);

    // The terminal is resized while the shell has it: SIGWINCH goes to the shell, never to the stopped monitor.
    h.resize(120, 40);
    const stopped = h.output.length;
    h.write('\r');
    await until('the process to run again', () => state(pid) !== 'T');
    await h.waitForText(/STATUS\s+SESSION/);
    // Drawn at 120x40: the footer (the frame's last row) is below the old 30th row, and the header reaches column 100.
    await until('the frame at the new size', () => lastRow(h!.screen()) >= 35);
    await h.settle();
    const afterFg = h.output.slice(stopped);
    expect(privateModesOn(afterFg)).toEqual(privateModesOn(started));
    expect(afterFg).toContain(MOUSE_ON);
    // The title is pushed again and set: the title stack is as the start left it.
    expect(afterFg.indexOf(PUSH_TITLE)).toBeGreaterThanOrEqual(0);
    expect(afterFg.indexOf('\u001b]2;omc-top ', afterFg.indexOf(PUSH_TITLE))).toBeGreaterThan(0);
    expect(h.screen().some((row) => row.length > 100)).toBe(true);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });

  // `bg` (or `kill -CONT` while the shell has the terminal) continues the job in the background: the terminal is the
  // shell's. Taking it there left the shell on a blank alternate screen with mouse reports on, and the mode change
  // stopped the job again (SIGTTOU). The bytes after the continue are read up to a line the shell prints after the
  // job has handled that SIGCONT (a later SIGTSTP stops it only once the earlier signal was handled: one queue).
  for (const how of ['bg', 'kill -CONT'] as const) {
    it(`under a shell, Ctrl-Z then ${how}: the background job leaves the terminal alone; fg draws again`, async () => {
      s = makeSandbox();
      const script = `"$@"; read -r _; ${how === 'bg' ? 'bg; read -r _; ' : ''}echo "bg checked"; read -r _; fg`;
      const wrap = ['bash', '--norc', '--noprofile', '-i', '-c', script, 'omc-top-shell'];
      h = new TerminalHarness({ args: ['--root', s.root], cols: 100, rows: 30, wrap });
      await h.waitForText(/STATUS\s+SESSION/);
      const pid = await waitFor(() => childOf(h!.pty.pid), { what: 'omc-top under the shell', timeoutMs: 30_000 });
      h.write('\u001a');
      await until('the process to stop', () => state(pid) === 'T');
      await until('the alternate screen left', () => !h!.altScreen && h!.cursorVisible);
      // The shell takes the terminal back once it has seen the job stop: a `kill -CONT` typed at its prompt comes
      // after that; sent before it, the job would still be the terminal's foreground and rightly take it.
      await until('the shell holding the terminal', () => !holdsTerminal(pid));
      await h.settle();
      const stoppedAt = h.output.length;

      if (how === 'bg')
        h.write('\r'); // the shell's `read` returns and it runs `bg`
      else process.kill(pid, 'SIGCONT');
      await until('the job running in the background', () => state(pid) !== 'T');
      process.kill(pid, 'SIGTSTP');
      await until('the job stopped again', () => state(pid) === 'T');
      h.write('\r');
      await h.waitForText(/bg checked/);
      const inBackground = h.output.slice(stoppedAt);
      expect(privateModesOn(inBackground)).toEqual([]);
      expect(inBackground).not.toContain(MOUSE_ON);
      expect(h.altScreen).toBe(false);

      h.write('\r'); // `fg`: the terminal is ours again
      await h.waitForText(/STATUS\s+SESSION/);
      expect(h.altScreen).toBe(true);
      await until('raw mode again', () => /-icanon/.test(ttyMode(pid)));
      h.write('n');
      await h.waitForText(/1 Priority/);
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    });
  }

  it('with no shell to bring it back (started straight in the terminal, as tmux split-window does): Ctrl-Z and kill -TSTP do not stop it', async () => {
    s = makeSandbox();
    h = new TerminalHarness({ args: ['--root', s.root], cols: 100, rows: 30 });
    await h.waitForText(/STATUS\s+SESSION/);
    const pid = h.pty.pid;
    h.write('\u001a');
    await h.waitForText(/Ctrl-Z: no shell with job control started omc-top here/);
    process.kill(pid, 'SIGTSTP');
    // The signal is handled before the key written after it: once that key has acted, a stop would have been made.
    h.write('n');
    await h.waitForText(/1 Priority/);
    expect(state(pid)).not.toBe('T');
    expect(h.altScreen).toBe(true);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
