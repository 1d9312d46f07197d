/**
 * A write to stdout that fails (a full disk: `> /dev/full`, ENOSPC) is not a success: every command says it on
 * stderr in one line, as `echo` does, and exits 1 (a command that failed already keeps its own status). A reader
 * that went away (`| head`, EPIPE) is not such a failure: test/faults/terminal-gone.e2e.test.ts keeps that quiet.
 * The real bundle, each command as a user runs it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

let p: TempProject | null = null;
let home: string | null = null;
afterEach(() => {
  p?.cleanup();
  p = null;
  if (home) fs.rmSync(home, { recursive: true, force: true });
  home = null;
});

/** 1, or a command's own failure status (doctor's findings), never 0. */
const expected = (args: string[], status: number | null) => (args[0] === 'doctor' && status !== 0 ? status : 1);

const LINE = 'omc-top: cannot write to standard output: no space left on device (ENOSPC)\n';

describe.runIf(fs.existsSync('/dev/full'))('stdout is a full disk (/dev/full)', () => {
  it('--json, status, status --tmux, doctor, wiki search, watch --json, --version: the one line on stderr, exit 1', () => {
    p = makeProject({ withFixture: true });
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-full-home-'));
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') };
    delete env.XDG_STATE_HOME;
    delete env.XDG_CONFIG_HOME;
    const full = fs.openSync('/dev/full', 'w');
    try {
      for (const args of [
        ['--json'],
        ['status'],
        ['status', '--tmux'],
        ['doctor'],
        ['doctor', '--json'],
        ['wiki', 'search', 'checkout'],
        ['watch', '--json', '--snapshot', '--poll'],
        ['--version'],
      ]) {
        const r = spawnSync(process.execPath, [BIN, ...args, ...(args[0] === '--version' ? [] : ['--root', p.root])], {
          cwd: p.dir,
          env,
          stdio: ['ignore', full, 'pipe'],
          encoding: 'utf8',
          timeout: scaled(60_000),
        });
        const what = args.join(' ');
        expect({ what, status: r.status, signal: r.signal, stderr: r.stderr.split('\n').slice(-2).join('\n') }).toEqual(
          {
            what,
            status: expected(args, r.status),
            signal: null,
            stderr: LINE,
          },
        );
      }
    } finally {
      fs.closeSync(full);
    }
  });
});
