/**
 * The tmux line the README gives, run by a real tmux server in a directory whose name is shell code. tmux puts
 * `#{pane_current_path}` into the `#()` command's text and runs that text with `sh -c`: a path written into it
 * bare or in double quotes runs its `$(…)` (a cloned repository may hold such a directory). The line must quote
 * the path with tmux's own `q:` modifier, so nothing in the name runs and omc-top gets the path as it is. The line
 * is read from README.md, and the docs that repeat it must repeat it exactly.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';

const S = 'aaaaaaaa-5555-4555-8555-000000000001';

/** The `set -g status-right '…'` line of a markdown file's tmux example, as written there. */
function statusRightOf(file: string): string {
  const text = fs.readFileSync(path.join(REPO, file), 'utf8');
  const m = /^set -g status-right '(.*)'$/m.exec(text);
  if (!m) throw new Error(`${file}: no set -g status-right line`);
  return m[1]!;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Processes whose command line names `dir` (the tmux server and its status jobs, run from paths under it). */
function processesUnder(dir: string): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) out.push(Number(pid));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

describe.skipIf(spawnSync('tmux', ['-V']).status !== 0)("the README's tmux status line", () => {
  it('is the same wherever the docs give it', () => {
    const line = statusRightOf('README.md');
    expect(statusRightOf('docs/scripting.md')).toBe(line);
    expect(statusRightOf('docs/attention.md')).toBe(line);
  });

  it('runs nothing from a directory name and gives omc-top the path as it is', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-tmux-line-'));
    // The tmux server and its status jobs end after kill-server returns, and a job still running writes into `base`
    // (its arguments, omc-top's files): removed once none of them is left (CI saw ENOTEMPTY after 2 s of retries).
    cleanups.push(async () => {
      await waitFor(() => processesUnder(base).length === 0, {
        what: `tmux and its status jobs under ${base} to end`,
        timeoutMs: 20_000,
      });
      fs.rmSync(base, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    });
    const mark = path.join(base, 'RAN');
    // Shell code a name can hold without a slash: a command substitution, backquotes, a double quote, a `;`.
    const name = 'p $(touch "$OMC_TOP_MARK") `touch "$OMC_TOP_MARK"` "q" ; x';
    const dir = path.join(base, name);
    const root = path.join(dir, '.omc');
    fs.mkdirSync(root, { recursive: true });
    writeLiveRalph({ root }, { sessionId: S, iteration: 3, max: 10 });
    // `omc-top` on tmux's PATH: writes down the arguments it got, then runs the bundle with them.
    const bin = path.join(base, 'bin');
    const args = path.join(base, 'args.jsonl');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'omc-top'),
      `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(args)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n` +
        `process.exitCode = require('node:child_process').spawnSync(process.execPath, [${JSON.stringify(BIN)}, ...process.argv.slice(2)], { stdio: 'inherit' }).status ?? 1;\n`,
      { mode: 0o755 },
    );
    const sock = path.join(base, 'tmux.sock');
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, OMC_TOP_MARK: mark };
    delete env.TMUX;
    delete env.CI;
    const tmux = (...a: string[]) =>
      spawnSync('tmux', ['-S', sock, '-f', '/dev/null', ...a], { encoding: 'utf8', env });
    expect(tmux('new-session', '-d', '-s', 'main', '-x', '80', '-y', '20', '-c', dir).status).toBe(0);
    cleanups.push(() => void tmux('kill-server'));
    // tmux reads the pane's path from its process, which may not have started yet on a loaded machine: wait for it.
    const current = await waitFor(
      () => tmux('display-message', '-p', '-t', 'main', '#{pane_current_path}').stdout.trim() || null,
      { what: "tmux to know the pane's path", timeoutMs: 20_000 },
    );
    expect(current).toBe(dir);

    // tmux expands the line as its status does, and runs its #() job with sh -c.
    const line = statusRightOf('README.md');
    const calls = await waitFor(
      () => {
        tmux('display-message', '-p', '-t', 'main', line);
        return fs.existsSync(args) ? fs.readFileSync(args, 'utf8') : null;
      },
      { what: 'tmux to run the status job', timeoutMs: 20_000 },
    );
    const argv = JSON.parse(calls.split('\n')[0]!) as string[];
    expect(argv).toEqual(['status', '--tmux', '--cwd', dir]);
    expect(fs.existsSync(mark)).toBe(false);
    // And the line it prints for that path is the project's.
    const out = spawnSync(process.execPath, [BIN, ...argv], { encoding: 'utf8', env });
    expect(out.stdout).toBe('ralph 3/10 · needs you: 0\n');
    expect(fs.existsSync(mark)).toBe(false);
  });
});
