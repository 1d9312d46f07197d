/**
 * Real-terminal harness: runs the bundled omc-top in a pseudo-terminal
 * (@lydell/node-pty) and feeds its output to a headless xterm, so tests assert
 * on what a user would actually see, plus the raw byte stream (alternate
 * screen, cursor visibility) and the exit code.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { REPO } from './fixtures.js';
import { scaled } from './time-scale.js';
import { frameOpen, wholeScreens } from './whole-frames.js';

const { Terminal } = xterm as unknown as { Terminal: typeof import('@xterm/headless').Terminal };

export const BIN = path.join(REPO, 'dist', 'omc-top.mjs');

export interface StartOptions {
  args?: string[];
  cols?: number;
  rows?: number;
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Wrap in `sh -c` to record `stty -g` before and after (checks cooked mode is restored). */
  checkStty?: boolean;
  /** A command that execs node with the rest (e.g. nsenter into a test's network namespace). */
  wrap?: string[];
  /** The bin to run (default: this checkout's dist/omc-top.mjs). */
  bin?: string;
}

export class TerminalHarness {
  readonly term: InstanceType<typeof Terminal>;
  readonly pty: IPty;
  private raw = '';
  private pending = Promise.resolve();
  exitCode: number | null = null;
  private exitWaiters: Array<(code: number) => void> = [];
  readonly sttyDir: string | null;
  private readonly shown: () => string[];

  constructor(opts: StartOptions = {}) {
    const cols = opts.cols ?? 80;
    const rows = opts.rows ?? 24;
    this.term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
    this.shown = wholeScreens(this.term, () => this.buffer());
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, TERM: 'xterm-256color', ...opts.env })) {
      if (v !== undefined) env[k] = v;
    }
    // history: the monitor samples live loops into $XDG_STATE_HOME/omc-top; keep tests out of the user's.
    if (opts.env?.XDG_STATE_HOME === undefined) env.XDG_STATE_HOME = path.join(os.tmpdir(), 'omc-top-test-state');
    // V8's code cache (io/code-cache.ts) is off unless a test asks: a start without a full cache makes one two
    // seconds in, a pause of tens of milliseconds a screen assertion could land in. test/io/code-cache.test.ts and
    // the CLI e2e test it; every start here still compiles the app the way the bin does.
    if (opts.env?.OMC_TOP_CODE_CACHE === undefined) env.OMC_TOP_CODE_CACHE = '0';
    if (opts.env?.XDG_CACHE_HOME === undefined) env.XDG_CACHE_HOME = path.join(os.tmpdir(), 'omc-top-test-cache');
    // The runner's own CI variable is not the user's shell: a test that wants one says so (ci-variable.e2e).
    delete env.CI;
    if (opts.env?.CI !== undefined) env.CI = opts.env.CI;
    delete env.NO_COLOR;
    if (opts.env?.NO_COLOR !== undefined) env.NO_COLOR = opts.env.NO_COLOR;
    let file = process.execPath;
    let args = [opts.bin ?? BIN, ...(opts.args ?? [])];
    this.sttyDir = null;
    if (opts.checkStty) {
      this.sttyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-stty-'));
      const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const cmd = `stty -g > ${q(path.join(this.sttyDir, 'before'))}; ${[file, ...args].map(q).join(' ')}; code=$?; stty -g > ${q(path.join(this.sttyDir, 'after'))}; exit $code`;
      file = '/bin/sh';
      args = ['-c', cmd];
    }
    if (opts.wrap && opts.wrap.length > 0) {
      args = [...opts.wrap.slice(1), file, ...args];
      file = opts.wrap[0] as string;
    }
    // node-pty sets TERM to the terminal's name: the name is the TERM asked for (TERM=dumb is a case of its own).
    this.pty = spawn(file, args, { name: env.TERM ?? 'xterm-256color', cols, rows, cwd: opts.cwd ?? REPO, env });
    this.pty.onData((d) => {
      this.raw += d;
      this.pending = this.pending.then(() => new Promise<void>((r) => this.term.write(d, r)));
    });
    this.pty.onExit(({ exitCode }) => {
      this.exitCode = exitCode;
      for (const w of this.exitWaiters.splice(0)) w(exitCode);
    });
  }

  /** Everything the program wrote, raw. */
  get output(): string {
    return this.raw;
  }

  /**
   * The visible screen, one string per row, trailing spaces trimmed: while a frame is being drawn, the last whole
   * screen (whole-frames.ts), once the program has exited, the buffer as it was left.
   */
  screen(): string[] {
    return this.exitCode === null ? this.shown() : this.buffer();
  }

  /**
   * The terminal's buffer. Only the terminal's columns: after a narrowing resize xterm keeps each row's old cells
   * past the right edge, which no one sees (a real terminal drops them).
   */
  private buffer(): string[] {
    const buf = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < this.term.rows; i++)
      out.push((buf.getLine(buf.viewportY + i)?.translateToString(true, 0, this.term.cols) ?? '').replace(/\s+$/, ''));
    return out;
  }

  text(): string {
    return this.screen().join('\n');
  }

  get altScreen(): boolean {
    return this.term.buffer.active.type === 'alternate';
  }

  /** Whether the last cursor-visibility command left the cursor shown. */
  get cursorVisible(): boolean {
    const hide = this.raw.lastIndexOf('\u001b[?25l');
    const show = this.raw.lastIndexOf('\u001b[?25h');
    return show >= hide;
  }

  /** Whether the bytes read so far end inside a frame (the screen is then the last whole one). */
  get midFrame(): boolean {
    return frameOpen(this.term);
  }

  /** How many screens the waits have looked at (a test of the waits knows one looked after the screen changed). */
  screensLooked = 0;

  async settle(): Promise<void> {
    await this.pending;
  }

  /** Waits until the screen matches; fails with the screen contents if it never does. */
  async waitForText(match: string | RegExp, timeoutMs = 8_000): Promise<string> {
    const deadline = Date.now() + scaled(timeoutMs);
    for (;;) {
      await this.pending;
      const t = this.text();
      this.screensLooked++;
      if (typeof match === 'string' ? t.includes(match) : match.test(t)) return t;
      if (this.exitCode !== null)
        throw new Error(
          `process exited (${this.exitCode}) before ${String(match)} appeared.\nScreen:\n${t}\nRaw tail: ${JSON.stringify(this.raw.slice(-400))}`,
        );
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(match)}.\nScreen:\n${t}`);
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  async waitForNoText(match: string | RegExp, timeoutMs = 8_000): Promise<void> {
    const deadline = Date.now() + scaled(timeoutMs);
    for (;;) {
      await this.pending;
      const t = this.text();
      this.screensLooked++;
      if (!(typeof match === 'string' ? t.includes(match) : match.test(t))) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(match)} to go away.\nScreen:\n${t}`);
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  write(data: string): void {
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
    this.term.resize(cols, rows);
  }

  waitForExit(timeoutMs = 8_000): Promise<number> {
    if (this.exitCode !== null) return Promise.resolve(this.exitCode);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`process did not exit.\nScreen:\n${this.text()}`)),
        scaled(timeoutMs),
      );
      this.exitWaiters.push((c) => {
        clearTimeout(t);
        resolve(c);
      });
    });
  }

  /** stty -g before and after the run (only with checkStty). */
  stty(): { before: string; after: string } | null {
    if (!this.sttyDir) return null;
    return {
      before: fs.readFileSync(path.join(this.sttyDir, 'before'), 'utf8').trim(),
      after: fs.readFileSync(path.join(this.sttyDir, 'after'), 'utf8').trim(),
    };
  }

  kill(signal = 'SIGKILL'): void {
    try {
      this.pty.kill(signal);
    } catch {
      /* gone */
    }
  }

  /**
   * Ends the process, waits until it has (so nothing of it still writes in the directories a test removes next),
   * then disposes.
   */
  async close(): Promise<void> {
    if (this.exitCode === null) {
      this.kill();
      await this.waitForExit(10_000).catch(() => undefined);
    }
    this.dispose();
  }

  dispose(): void {
    if (this.exitCode === null) this.kill();
    this.term.dispose();
    if (this.sttyDir) fs.rmSync(this.sttyDir, { recursive: true, force: true });
  }
}
