/**
 * `watch --json --snapshot` run in process for a test: its lines parsed as they come, stopped (and awaited) when the
 * test finishes. The tests read the array as it grows (waitFor on its contents).
 */
import { onTestFinished } from 'vitest';
import { runWatchCommand } from '../../src/commands/watch.js';

export type WatchLine = Record<string, unknown>;

export function watchLines(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): WatchLine[] {
  const lines: WatchLine[] = [];
  let stop = () => {};
  const stopped = new Promise<void>((r) => (stop = r));
  const running = runWatchCommand(['--json', '--snapshot', ...args], {
    out: (s) => s.split('\n').forEach((l) => l !== '' && lines.push(JSON.parse(l) as WatchLine)),
    err: () => {},
    cwd,
    env,
    now: Date.now,
    stopped,
  });
  onTestFinished(async () => {
    stop();
    await running;
  });
  return lines;
}
