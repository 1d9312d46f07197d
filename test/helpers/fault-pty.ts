/**
 * A pseudo-terminal running any command (not only the bundle itself, as
 * test/helpers/pty.ts does): the fault tests wrap omc-top in `unshare`,
 * `setsid` or a shell, close the terminal's master side under it, and look
 * at the process from /proc. The screen is a headless xterm, as in pty.ts.
 */
import fs from 'node:fs';
import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { REPO, waitFor } from './fixtures.js';
import { BIN } from './pty.js';
import { scaled } from './time-scale.js';
import { wholeScreens } from './whole-frames.js';

const { Terminal } = xterm as unknown as { Terminal: typeof import('@xterm/headless').Terminal };

export { BIN };

/** Single-quotes for /bin/sh. */
export const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `node dist/omc-top.mjs ARGS` as a shell word list, with extra node flags first. */
export function omcTopCommand(args: readonly string[], nodeArgs: readonly string[] = []): string {
  return [process.execPath, ...nodeArgs, BIN, ...args].map(shq).join(' ');
}

export interface PtyRunOptions {
  file: string;
  args: string[];
  cols?: number;
  rows?: number;
  cwd?: string;
  env?: Record<string, string | undefined>;
}

export interface PtyExit {
  exitCode: number;
  signal: number;
}

export class PtyRun {
  readonly pty: IPty;
  readonly term: InstanceType<typeof Terminal>;
  private raw = '';
  private pending = Promise.resolve();
  exit: PtyExit | null = null;
  readonly exited: Promise<PtyExit>;
  private readonly shown: () => string[];

  constructor(opts: PtyRunOptions) {
    const cols = opts.cols ?? 80;
    const rows = opts.rows ?? 24;
    this.term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
    this.shown = wholeScreens(this.term, () => this.buffer());
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, TERM: 'xterm-256color', ...opts.env }))
      if (v !== undefined) env[k] = v;
    // Ink renders no live frames when CI is set.
    delete env.CI;
    this.pty = spawn(opts.file, opts.args, { name: 'xterm-256color', cols, rows, cwd: opts.cwd ?? REPO, env });
    this.pty.onData((d) => {
      this.raw += d;
      this.pending = this.pending.then(() => new Promise<void>((r) => this.term.write(d, r)));
    });
    this.exited = new Promise((resolve) =>
      this.pty.onExit((e) => {
        this.exit = { exitCode: e.exitCode, signal: e.signal ?? 0 };
        resolve(this.exit);
      }),
    );
  }

  get output(): string {
    return this.raw;
  }

  /** The screen a user sees: the last whole one while a frame is drawn (whole-frames.ts), the buffer after exit. */
  text(): string {
    return (this.exit === null ? this.shown() : this.buffer()).join('\n');
  }

  private buffer(): string[] {
    const buf = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < this.term.rows; i++)
      out.push((buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '').replace(/\s+$/, ''));
    return out;
  }

  async waitForText(match: string | RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + scaled(timeoutMs);
    for (;;) {
      await this.pending;
      const t = this.text();
      if (typeof match === 'string' ? t.includes(match) : match.test(t)) return t;
      if (this.exit)
        throw new Error(
          `process exited (${JSON.stringify(this.exit)}) before ${String(match)} appeared.\nScreen:\n${t}\nRaw tail: ${JSON.stringify(this.raw.slice(-600))}`,
        );
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(match)}.\nScreen:\n${t}`);
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  write(data: string): void {
    this.pty.write(data);
  }

  /**
   * Closes our (master) side of the terminal, as a killed tmux pane or a
   * dropped ssh connection does: the kernel hangs the terminal up, reads give
   * EOF, writes fail with EIO. No signal is sent by us (node-pty's destroy()
   * would add a SIGHUP of its own).
   */
  closeMaster(): void {
    (this.pty as unknown as { _socket: { destroy(): void } })._socket.destroy();
  }

  /** The pid of the process started in the terminal. */
  get pid(): number {
    return this.pty.pid;
  }

  dispose(): void {
    for (const pid of [...descendants(this.pty.pid), this.pty.pid]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    this.term.dispose();
  }
}

/** Child pids of `pid`, recursively, from /proc (Linux). */
export function descendants(pid: number): number[] {
  let kids: number[] = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      kids = kids.concat(
        fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
      );
    }
  } catch {
    return [];
  }
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

/** The omc-top node process at or under `pid` (the terminal may run a wrapper first). */
export async function findOmcTop(pid: number, timeoutMs = 10_000): Promise<number> {
  return waitFor(
    () =>
      [pid, ...descendants(pid)].find((p) => {
        try {
          const argv = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
          return argv[0] === process.execPath && argv.includes(BIN);
        } catch {
          return false;
        }
      }),
    { timeoutMs, what: `omc-top under pid ${pid}` },
  );
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie has exited; only its parent has not collected it yet.
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** CPU time (user + system, ms) the process has used so far. */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, in clock ticks (100 per second on Linux).
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}
