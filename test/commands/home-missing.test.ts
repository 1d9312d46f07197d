/**
 * A HOME that is not there is not made: read-only commands (`--json`, `doctor`, `status`) with HOME=/nonexistent
 * leave nothing behind (the code cache is simply not kept), while a home that exists gets its `~/.cache/omc-top` as
 * before. The real bundle; the code cache turned on as a user has it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { ensureOwnDir } from '../../src/io/safe-fs/own-dir.js';

let p: TempProject | null = null;
let base: string | null = null;
afterEach(() => {
  p?.cleanup();
  p = null;
  if (base) fs.rmSync(base, { recursive: true, force: true });
  base = null;
});

function run(args: string[], home: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, OMC_TOP_CODE_CACHE: '' };
  for (const k of ['XDG_CACHE_HOME', 'XDG_STATE_HOME', 'XDG_CONFIG_HOME', 'OMC_STATE_DIR', 'CLAUDE_CONFIG_DIR'])
    delete env[k];
  return spawnSync(process.execPath, [BIN, ...args, '--root', p!.root], {
    cwd: p!.dir,
    env,
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
}

describe('HOME that does not exist', () => {
  it('--json, doctor and status create nothing there; a home that exists gets its code cache', () => {
    p = makeProject({ withFixture: true });
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-ghost-'));
    const ghost = path.join(base, 'ghost', 'a', 'b');
    for (const args of [['--json'], ['doctor'], ['status'], ['watch', '--json', '--help']]) {
      const r = run(args, ghost);
      expect(r.signal, args.join(' ')).toBeNull();
      expect(fs.existsSync(path.join(base, 'ghost')), args.join(' ')).toBe(false);
    }
    expect(run(['--json'], ghost).status).toBe(0);
    // The same with a home that is there: the cache is made under it, ~/.cache included.
    const real = path.join(base, 'home');
    fs.mkdirSync(real);
    expect(run(['--json'], real).status).toBe(0);
    expect(fs.readdirSync(path.join(real, '.cache', 'omc-top'))).toEqual([expect.stringMatching(/\.v8cache$/)]);
  });

  it('ensureOwnDir refuses to make the home or a directory above it, and makes the levels below an existing one', () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-ghost-'));
    const ghost = path.join(base, 'nohome');
    expect(() => ensureOwnDir(path.join(ghost, '.cache', 'omc-top'), ghost)).toThrow(/never makes a home directory/);
    expect(() => ensureOwnDir(path.join(ghost, '.cache', 'omc-top'), path.join(ghost, 'x'))).toThrow(
      /never makes a home directory/,
    );
    expect(fs.existsSync(ghost)).toBe(false);
    // An XDG base elsewhere that is not there is made (the XDG spec asks it), as are levels under an existing home.
    ensureOwnDir(path.join(base, 'xdg-cache', 'omc-top'), ghost);
    expect(fs.statSync(path.join(base, 'xdg-cache', 'omc-top')).isDirectory()).toBe(true);
    ensureOwnDir(path.join(base, '.cache', 'omc-top'), base);
    expect(fs.statSync(path.join(base, '.cache', 'omc-top')).isDirectory()).toBe(true);
  });
});
