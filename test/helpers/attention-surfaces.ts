/**
 * Every surface that shows the "needs you" count, read the way a user or a
 * script reads it: the header and the title of a running monitor, the bundle's
 * `status --tmux` (from the monitor's cache, and `--fresh` from the files), its
 * `--json`, and a `watch --json` stream kept running beside them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO } from './fixtures.js';

export const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');

const run = (args: string[], env: NodeJS.ProcessEnv) =>
  execFileSync(process.execPath, [BUNDLE, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

/** `needs you: N` of `status --tmux` (cached while a monitor runs; `fresh` reads the files). */
export function statusCount(root: string, env: NodeJS.ProcessEnv, fresh = false): number {
  const line = run(['status', '--tmux', '--root', root, ...(fresh ? ['--fresh'] : [])], env);
  const m = /needs you: (\d+)/.exec(line);
  if (!m) throw new Error(`status --tmux printed ${JSON.stringify(line)}`);
  return Number(m[1]);
}

/** `attention.needs_you` of `--json`, with the items. */
export function jsonAttention(
  root: string,
  env: NodeJS.ProcessEnv,
): { needs_you: number; items: Record<string, unknown>[] } {
  return (JSON.parse(run(['--json', '--root', root], env)) as { attention: { needs_you: number; items: [] } })
    .attention;
}

/** The header's count ("needs you: N", absent at 0). */
export const headerCount = (header: string) => Number(/needs you: (\d+)/.exec(header)?.[1] ?? 0);

/** The last terminal title written (OSC 2), as its count. */
export function titleCount(written: string): number | null {
  const titles = [...written.matchAll(/\x1b\]2;([^\x07]*)\x07/g)].map((m) => m[1] as string);
  const last = titles.at(-1);
  return last === undefined ? null : Number(/needs you: (\d+)/.exec(last)?.[1] ?? 0);
}

/** A `watch --json --snapshot` beside the monitor: its latest count (ready, then every attention line). */
export class WatchStream {
  private readonly child: ChildProcess;
  private out = '';
  err = '';

  constructor(root: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [BUNDLE, 'watch', '--json', '--snapshot', '--root', root], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (d: Buffer) => (this.out += d.toString('utf8')));
    this.child.stderr?.on('data', (d: Buffer) => (this.err += d.toString('utf8')));
  }

  lines(): Record<string, unknown>[] {
    return this.out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  ready(): boolean {
    return this.lines().some((l) => l.type === 'ready');
  }

  /** The count as the stream last said it (null before `ready`). */
  count(): number | null {
    if (!this.ready()) return null;
    const att = this.lines().filter((l) => l.type === 'attention');
    return (att.at(-1)?.needsYou as number | undefined) ?? null;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const done = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await done;
  }
}
