/**
 * `status --tmux` with several sessions' loops running: one loop, the first in the sessions' attention order (the
 * Sessions pane's default order: the newest started first among loops that hold the agent alike), and `+N` for the
 * others, so two sessions' ralphs never read as one session's `ralph 1/100 ralph 2/100`. The line from a monitor's
 * cache (the bin's small path) and the one read from the files (`--fresh`, the full path) are the same. The built
 * bundle, each `status` a separate process as tmux runs it.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { NO_CLAUDE_DIR, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';

const sid = (n: number) => `${String(n).repeat(8)}-1111-4222-8333-444444444444`;

describe('status --tmux with several loops', () => {
  it('shows the first loop in attention order and a count of the others, from the cache as from the files', async ({
    emptyProject: p,
    tempDir,
  }) => {
    const env = { ...process.env, XDG_STATE_HOME: tempDir('omc-top-xdg-'), CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR };
    const dir = path.join(env.XDG_STATE_HOME, 'omc-top');
    const root = fs.realpathSync(p.root);
    const status = (...args: string[]) =>
      execFileSync(process.execPath, [BUNDLE, 'status', '--root', root, ...args], { env, encoding: 'utf8' });
    const hour = 3_600_000;
    writeLiveRalph(p, { sessionId: sid(1), iteration: 1, max: 100, startedAt: Date.now() - 2 * hour });
    writeLiveRalph(p, { sessionId: sid(2), iteration: 2, max: 100, startedAt: Date.now() - hour });
    const two = 'ralph 2/100 +1 · needs you: 0\n';
    expect(status('--tmux', '--fresh')).toBe(two);
    expect(status('--fresh', '--format', '{active} {loops}')).toBe('2 ralph 2/100 +1\n');
    // The Sessions pane's order (the same snapshot, --json): the loop shown is its first row's.
    const doc = JSON.parse(runJson(root, env)) as { sessions: Array<{ id: string }> };
    expect(doc.sessions.map((s) => s.id)).toEqual([sid(2), sid(1)]);

    // A monitor on the root keeps the cache the bin's small path answers from.
    const watch = spawn(process.execPath, [BUNDLE, 'watch', '--json', '--root', root], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    onTestFinished(() => void watch.kill('SIGKILL'));
    const cachedBy = () => {
      const f = fs.existsSync(dir) && fs.readdirSync(dir).find((n) => /^status-[0-9a-f]+\.json$/.test(n));
      return f ? (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { pid: number }).pid : null;
    };
    await waitFor(() => cachedBy() === watch.pid, { what: "the monitor's status cache", timeoutMs: 30_000 });
    expect(status('--tmux')).toBe(two);
    expect(status('--format', '{active} {loops}')).toBe('2 ralph 2/100 +1\n');

    // A third session starts its loop: the newest is shown, the others counted, on both paths.
    writeLiveRalph(p, { sessionId: sid(3), iteration: 3, max: 100 });
    const three = 'ralph 3/100 +2 · needs you: 0\n';
    expect(status('--tmux', '--fresh')).toBe(three);
    await waitFor(() => status('--tmux') === three, { what: 'the cached line with the third loop', timeoutMs: 30_000 });
    expect(status('--format', '{active} {loops}')).toBe(status('--fresh', '--format', '{active} {loops}'));
  });
});

function runJson(root: string, env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [BUNDLE, '--json', '--root', root], { env, encoding: 'utf8' });
}
