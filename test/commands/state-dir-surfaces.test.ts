/**
 * omc-top's own state directory unusable (a file where `$XDG_STATE_HOME/omc-top` should be, as doctor's test makes
 * it): `--json` has `state_dir` and a problem line, `watch --json` a `state-dir` line (at start and when it turns
 * unusable under a running watch), and `status` / `status --tmux` end with the mark, however the format reads; a
 * monitor's status cache answering does not hide it. So a script or a tmux bar knows that acknowledgements and
 * cancels are not being kept. The real bundle (`node scripts/build.mjs` first) for the first test.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runStatusCommand } from '../../src/commands/status.js';
import { watchLines } from '../helpers/watch-lines.js';
import { statusCacheName, statusCacheText } from '../../src/feeds/attention/status-cache.js';
import { NO_CLAUDE_DIR, waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const NOT_KEPT =
  'not kept: acknowledgements (a), cancel records ("cancel did not take" in other omc-tops), the push lease, the permission listener (prompts stay in Claude’s terminal) and the status cache (status --tmux)';

/** The environment of a user whose state directory is `<base>/state/omc-top`. */
function envOf(base: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: base,
    XDG_STATE_HOME: path.join(base, 'state'),
    XDG_CONFIG_HOME: path.join(base, 'config'),
    XDG_CACHE_HOME: path.join(base, 'cache'),
    CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR,
    NO_COLOR: '1',
  };
  delete env.CI;
  return env;
}

/** Makes `<base>/state/omc-top` a file: nothing can be kept there. */
function fileInPlace(base: string): string {
  const file = path.join(base, 'state', 'omc-top');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'not a directory');
  return file;
}

/** `watch --json --snapshot` until its ready line: every line up to it. */
async function watchUntilReady(cwd: string, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>[]> {
  const child = spawn(process.execPath, [BIN, 'watch', '--json', '--snapshot', '--poll'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  await waitFor(() => out.includes('"type":"ready"'), { timeoutMs: 60_000, what: `the ready line (${err})` });
  child.kill('SIGTERM');
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const run = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: scaled(60_000) });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
};

describe('an unusable state directory, on every surface a script reads', () => {
  it('--json, watch --json and status say it; a usable one reads ok and unmarked', async ({ project, tempDir }) => {
    const bad = tempDir('omc-top-statedir-bad-');
    const file = fileInPlace(bad);
    const env = envOf(bad);
    const health = {
      path: file,
      ok: false,
      problem: { code: 'ENOTDIR', path: file, message: `${file} is a file where a directory was expected` },
    };
    const doc = JSON.parse(run(['--json'], project.dir, env)) as { state_dir: unknown; problems: unknown[] };
    expect(doc.state_dir).toEqual(health);
    expect(doc.problems).toContainEqual({
      path: file,
      message: `is a file where a directory was expected; ${NOT_KEPT}`,
      severity: 'error',
    });

    const lines = await watchUntilReady(project.dir, env);
    const types = lines.map((l) => l.type);
    // With --snapshot, before ready: a script that reads up to ready knows.
    expect(types.indexOf('state-dir')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('state-dir')).toBeLessThan(types.indexOf('ready'));
    expect(lines.find((l) => l.type === 'state-dir')).toMatchObject({ v: 1, stateDir: health });
    expect(lines).toContainEqual(
      expect.objectContaining({ type: 'snapshot', kind: 'problem', value: 'error', path: file }),
    );

    const status = run(['status'], project.dir, env);
    expect(status).toMatch(/· needs you: \d+ · state dir unusable\n$/);
    expect(run(['status', '--tmux', '--format', '{needs}'], project.dir, env)).toMatch(/^\d+ · state dir unusable\n$/);
    expect(run(['status', '--tmux', '--format', '[{state}] {needs}'], project.dir, env)).toMatch(
      /^\[state dir unusable\] \d+\n$/,
    );

    // The same project with a state directory that can be made: ok, no problem, no mark.
    const good = tempDir('omc-top-statedir-good-');
    const fine = envOf(good);
    const okDoc = JSON.parse(run(['--json'], project.dir, fine)) as { state_dir: unknown; problems: unknown[] };
    expect(okDoc.state_dir).toEqual({ path: path.join(good, 'state', 'omc-top'), ok: true, problem: null });
    expect(JSON.stringify(okDoc.problems)).not.toContain('not kept');
    const okLines = await watchUntilReady(project.dir, fine);
    expect(okLines.find((l) => l.type === 'state-dir')).toMatchObject({ stateDir: { ok: true, problem: null } });
    expect(run(['status', '--tmux'], project.dir, fine)).not.toContain('state dir');
    expect(run(['status', '--tmux', '--format', '[{state}]'], project.dir, fine)).toBe('[]\n');
  });

  it('watch --json: a state-dir line when the directory turns unusable under the running watch', async ({
    emptyProject,
    tempDir,
  }) => {
    const base = tempDir('omc-top-statedir-live-');
    const dir = path.join(base, 'state', 'omc-top');
    fs.mkdirSync(dir, { recursive: true });
    // Not --poll: a poll re-reads every domain each second; the watching store's own look (every 5 s) must see it.
    const lines = watchLines(['--root', emptyProject.root], emptyProject.dir, envOf(base));
    await waitFor(() => lines.some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: 'the ready line' });
    expect(lines.filter((l) => l.type === 'state-dir').map((l) => l.stateDir)).toEqual([
      { path: dir, ok: true, problem: null },
    ]);
    // Someone puts a file where the directory was (the status cache written meanwhile goes with it).
    fs.rmSync(dir, { recursive: true, force: true });
    fs.writeFileSync(dir, 'x');
    const turned = await waitFor(() => lines.filter((l) => l.type === 'state-dir')[1], {
      timeoutMs: 20_000,
      what: 'a second state-dir line',
    });
    expect(turned.stateDir).toEqual({
      path: dir,
      ok: false,
      problem: { code: 'ENOTDIR', path: dir, message: `${dir} is a file where a directory was expected` },
    });
  });

  it("status from a live monitor's cache still carries the mark (the cache cannot know)", ({
    emptyProject,
    tempDir,
  }) => {
    // The state directory a symlink (omc-top refuses it: every acknowledgement fails), its target holding a status
    // cache whose writer (this process) is alive: the line is the cache's, and the mark is looked at by the call.
    const base = tempDir('omc-top-statedir-cache-');
    const target = path.join(base, 'elsewhere');
    fs.mkdirSync(target);
    fs.mkdirSync(path.join(base, 'state'));
    fs.symlinkSync(target, path.join(base, 'state', 'omc-top'));
    const values = { loops: 'ralph 7/9 (from the cache)', active: 1, needs: 2, project: 'p' };
    const text = statusCacheText(emptyProject.root, values, null, Date.now(), null);
    expect(text).not.toBeNull();
    fs.writeFileSync(path.join(target, statusCacheName(emptyProject.root)), text!);
    let out = '';
    const code = runStatusCommand(['--tmux', '--root', emptyProject.root], {
      out: (s) => void (out += s),
      err: (s) => void (out += s),
      cwd: emptyProject.dir,
      env: envOf(base),
    });
    expect(code).toBe(0);
    expect(out).toBe('ralph 7/9 (from the cache) · needs you: 2 · state dir unusable\n');
  });
});
