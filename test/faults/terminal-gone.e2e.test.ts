/**
 * The terminal goes away under omc-top: a tmux pane is killed, an ssh
 * connection drops, a reader closes the pipe. The kernel then hangs the
 * terminal up (reads give EOF, writes fail with EIO) and, depending on who
 * leads the session, may or may not send SIGHUP. Whatever happens, omc-top
 * must exit at once, cleanly (not by a crash), and not stay behind spinning
 * or sleeping with nobody to see it.
 *
 * test/e2e/exit-paths.e2e.test.ts covers the paths where the terminal stays
 * (q, Ctrl-C, SIGTERM, a SIGHUP sent by kill, a crash) and checks it is
 * restored; here nothing is left to restore, so the checks are: how fast,
 * which exit status, and no "Assertion failed" / core dump from Node.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { omcTopCommand, PtyRun, findOmcTop, alive, shq } from '../helpers/fault-pty.js';
import { makeProject, REPO, waitFor, type TempProject } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { execFileSync } from 'node:child_process';
import { scaled } from '../helpers/time-scale.js';

let run: PtyRun | null = null;
let p: TempProject | null = null;
let scratch: string | null = null;
afterEach(() => {
  run?.dispose();
  run = null;
  p?.cleanup();
  p = null;
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

/** Starts `script` (a /bin/sh script that runs omc-top) in a pty on a copy of the fixture, waits for the first frame. */
async function started(
  script: (cmd: string, files: { err: string; status: string }) => string,
): Promise<{ pid: number; err: string; status: string }> {
  p = makeProject({ withFixture: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-gone-'));
  const files = { err: path.join(scratch, 'stderr'), status: path.join(scratch, 'status') };
  run = new PtyRun({ file: '/bin/sh', args: ['-c', script(omcTopCommand([]), files)], cwd: p.dir });
  await run.waitForText('ralph 3/10');
  return { pid: await findOmcTop(run.pid), ...files };
}

/** Waits for the process to be gone; returns how long it took. */
async function goneWithin(pid: number, ms: number): Promise<number> {
  const t0 = Date.now();
  await waitFor(() => !alive(pid), {
    timeoutMs: ms,
    what: `omc-top (pid ${pid}) to exit after the terminal went away`,
  });
  return Date.now() - t0;
}

const stderrOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

describe('the terminal is closed under omc-top', () => {
  it('omc-top leads the session (started directly in the pane): SIGHUP, exit 129 within a second, no Node assertion', async () => {
    const s = await started((cmd, f) => `exec ${cmd} 2>${shq(f.err)}`);
    expect(s.pid).toBe(run!.pid);
    run!.closeMaster();
    await goneWithin(s.pid, 2_000);
    // node-pty reaps its direct child: the real exit status, signal 0 = not killed by SIGSEGV/SIGABRT.
    expect(await run!.exited).toEqual({ exitCode: 129, signal: 0 });
    expect(stderrOf(s.err)).not.toMatch(/Assertion failed|ResetStdio|Native stack trace/);
  });

  it('omc-top is the foreground job of a shell (the shell leads the session): exits 129 at once, cleanly', async () => {
    const s = await started((cmd, f) => `trap '' HUP; ${cmd} 2>${shq(f.err)}; echo $? > ${shq(f.status)}`);
    run!.closeMaster();
    await goneWithin(s.pid, 2_000);
    const status = await waitFor(() => fs.existsSync(s.status) && fs.readFileSync(s.status, 'utf8').trim(), {
      what: 'exit status from the shell',
    });
    expect(status).toBe('129');
    expect(stderrOf(s.err)).not.toMatch(/Assertion failed|ResetStdio|Native stack trace/);
  });

  it('omc-top runs in another session (no SIGHUP ever reaches it): the end of input tells it the terminal is gone', async () => {
    const s = await started(
      (cmd, f) => `setsid -w /bin/sh -c ${shq(`${cmd} 2>${shq(f.err)}; echo $? > ${shq(f.status)}`)}`,
    );
    const sid = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[4];
    expect(sid(s.pid)).not.toBe(sid(run!.pid));
    run!.closeMaster();
    // Nothing on disk changes and no key arrives: only the hang-up itself can end it.
    await goneWithin(s.pid, 2_000);
    const status = await waitFor(() => fs.existsSync(s.status) && fs.readFileSync(s.status, 'utf8').trim(), {
      what: 'exit status',
    });
    expect(status).toBe('129');
    expect(stderrOf(s.err)).not.toMatch(/Assertion failed|ResetStdio|Native stack trace/);
  });
});

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

describe.skipIf(!hasTmux)('a real tmux pane is killed', () => {
  it('kill-pane: omc-top exits within a second, cleanly (no Node assertion on the dead terminal)', async () => {
    p = makeProject({ withFixture: true });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-tmux-'));
    const err = path.join(scratch, 'stderr');
    const sock = `omc-top-faults-${process.pid}`;
    // The tmux server hands its own environment to the pane: without CI, or Ink would draw nothing.
    const env = { ...process.env };
    delete env.CI;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', sock, ...args], { encoding: 'utf8', env });
    try {
      tmux('new-session', '-d', '-x', '80', '-y', '24', '-c', p.dir, `exec ${omcTopCommand([])} 2>${shq(err)}`);
      const pid = Number(tmux('list-panes', '-F', '#{pane_pid}').trim());
      await waitFor(() => /ralph 3\/10/.test(tmux('capture-pane', '-p')), { what: 'first frame in tmux' });
      tmux('kill-pane', '-t', '0');
      await goneWithin(pid, 2_000);
      expect(stderrOf(err)).not.toMatch(/Assertion failed|ResetStdio|Native stack trace/);
    } finally {
      try {
        tmux('kill-server');
      } catch {
        /* the server went with its last pane */
      }
    }
  });
});

describe('stdout is a pipe the reader closes', () => {
  it('--json | head: exits without hanging and without a stack trace, whatever is left unwritten', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-pipe-'));
    scratch = dir;
    // 200 sessions: ~240 KB of JSON, far more than a pipe holds, so the writer meets the closed end.
    execFileSync('tar', ['-xzf', path.join(REPO, 'test', 'fixtures', 'real-omc', 'large-tree.tar.gz'), '-C', dir]);
    const child = spawn(process.execPath, [BIN, '--json', '--root', path.join(dir, '.omc')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      child.on('exit', (code, signal) => r({ code, signal })),
    );
    const first = await new Promise<string>((r) => child.stdout.once('data', (b: Buffer) => r(b.toString())));
    expect(first.startsWith('{')).toBe(true);
    child.stdout.destroy();
    const t0 = Date.now();
    const res = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 5_000))]);
    expect(res, 'omc-top --json did not exit after its reader went away').not.toBeNull();
    expect(Date.now() - t0).toBeLessThan(scaled(5_000));
    expect(res!.signal).toBeNull();
    expect(stderr).not.toMatch(/EPIPE|Error:|at /);
  });
});
