/**
 * A script that stops a long-running command as soon as it reads its first line gets the clean exit, never
 * death by the signal: `watch --json --snapshot` stopped on "ready", `serve` stopped on its address. The real
 * bundle, a child process; the test seam OMC_TOP_TEST_PAUSE_AFTER_FIRST_LINE_MS (src/commands/test-pause.ts)
 * holds the process right after that line, so the SIGTERM sent on reading it always arrives in the moment a
 * late handler would leave open (the CI failure of 4 Dec caught that moment by chance: watch died by SIGTERM).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A git project with an empty `.omc` and a home of its own. */
function project(): { dir: string; env: NodeJS.ProcessEnv } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-first-line-'));
  dirs.push(base);
  const home = path.join(base, 'home');
  const dir = path.join(base, 'proj');
  fs.mkdirSync(home);
  fs.mkdirSync(path.join(dir, '.omc', 'state', 'sessions'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    // Long enough for this test to read the line and signal even on a loaded machine (a signal after the pause
    // would pass without testing anything).
    OMC_TOP_TEST_PAUSE_AFTER_FIRST_LINE_MS: String(scaled(1000)),
  };
  delete env.OMC_STATE_DIR;
  delete env.CLAUDE_CONFIG_DIR;
  return { dir, env };
}

/** Starts `args`, sends SIGTERM the moment stdout matches `first`, and gives how the process ended. */
async function stopOnFirstLine(args: string[], first: RegExp) {
  const p = project();
  const child = spawn(process.execPath, [BIN, ...args], { cwd: p.dir, env: p.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('close', (code, signal) => r({ code, signal })),
  );
  const seen = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no first line: ${out} ${err}`)), scaled(60_000));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (first.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  try {
    await seen;
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  child.kill('SIGTERM');
  const end = await ended;
  return { ...end, out, err };
}

describe('stopped as soon as the first line is read', () => {
  it('watch --json --snapshot: SIGTERM on "ready" ends it with exit 0', async () => {
    const r = await stopOnFirstLine(['watch', '--json', '--snapshot', '--poll'], /"type":"ready"/);
    expect({ code: r.code, signal: r.signal, err: r.err }).toEqual({ code: 0, signal: null, err: '' });
  });

  it('serve: SIGTERM on its address ends it with exit 0', async () => {
    const r = await stopOnFirstLine(['serve', '--port', '0'], /http:\/\/127\.0\.0\.1:\d+\/#/);
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 0, signal: null });
  });
});
