/**
 * `--no-color`, a general option of `--help`, is taken by every command (an alias `omc-top --no-color` must not
 * break `omc-top status`), and drops colour for the whole process: doctor's terminal check says so. The real bundle.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';
import { makeProject, waitFor, type TempProject } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

let p: TempProject | null = null;
let home: string | null = null;
afterEach(() => {
  p?.cleanup();
  p = null;
  if (home) fs.rmSync(home, { recursive: true, force: true });
  home = null;
});

function setUp(): NodeJS.ProcessEnv {
  p = makeProject({ withFixture: true });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-nocolor-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') };
  for (const k of ['XDG_STATE_HOME', 'XDG_CONFIG_HOME', 'NO_COLOR', 'FORCE_COLOR']) delete env[k];
  return env;
}

describe('--no-color on every command', () => {
  it('status, status --tmux, doctor, wiki search, serve --help, cancel --help: taken, not "unknown option"', () => {
    const env = setUp();
    for (const args of [
      ['status'],
      ['status', '--tmux'],
      ['doctor'],
      ['wiki', 'search', 'checkout'],
      ['serve', '--help'],
      ['cancel', '--help'],
      ['--json'],
    ]) {
      const r = spawnSync(process.execPath, [BIN, ...args, '--no-color', '--root', p!.root], {
        cwd: p!.dir,
        env,
        encoding: 'utf8',
        timeout: scaled(60_000),
      });
      const what = args.join(' ');
      expect(r.stderr, what).not.toContain('unknown option');
      expect(r.status, what).not.toBe(2);
      expect(r.status, what).not.toBeNull();
    }
  });

  it('doctor --json --no-color: the terminal check says no colour', () => {
    const env = setUp();
    const r = spawnSync(process.execPath, [BIN, 'doctor', '--json', '--no-color', '--root', p!.root], {
      cwd: p!.dir,
      env,
      encoding: 'utf8',
    });
    const report = JSON.parse(r.stdout) as { checks: { id: string; data: { noColor?: boolean } }[] };
    expect(report.checks.find((c) => c.id === 'terminal')?.data.noColor).toBe(true);
  });

  it('watch --json --no-color: streams and ends cleanly on SIGTERM', async () => {
    const env = setUp();
    const child = spawn(
      process.execPath,
      [BIN, 'watch', '--json', '--snapshot', '--poll', '--no-color', '--root', p!.root],
      {
        cwd: p!.dir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const ended = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    try {
      await waitFor(() => out.includes('"type":"ready"') || child.exitCode !== null, {
        timeoutMs: scaled(60_000),
        what: 'watch --json to be ready',
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect({ code: await ended, err }).toEqual({ code: 0, err: '' });
  });
});
