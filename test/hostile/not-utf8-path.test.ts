/**
 * A project whose path is not valid UTF-8 (a byte 0xff in a directory name), holding the real-OMC fixture `.omc`.
 * Node hands omc-top that path as text with U+FFFD for the bad byte, and the text names no file. omc-top cannot
 * monitor it yet; what it says must be true: that the path is not UTF-8, with the byte shown as \xff — never
 * "git is not installed" (git is) or a bare "no .omc found". Each way in is driven through the real bundle: the
 * current directory, --cwd, --cwd=, --root, and the subcommands. A name that holds U+FFFD itself (valid UTF-8)
 * is monitored as before.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, REPO, type TempProject } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const BIN = path.join(REPO, 'dist', 'omc-top.mjs');
let p: TempProject | null = null;
let bad: Buffer | null = null;

afterEach(() => {
  if (bad) fs.rmSync(bad, { recursive: true, force: true });
  bad = null;
  p?.cleanup();
  p = null;
});

/** The fixture project moved to `<dir>-\xff-proj`; returns the shell's way to that name. */
function badProject(): string {
  p = makeProject({ withFixture: true });
  bad = Buffer.concat([Buffer.from(`${p.dir}-`), Buffer.from([0xff]), Buffer.from('-proj')]);
  fs.renameSync(p.dir, bad);
  return `"$(printf '%s-\\377-proj' "$0")"`;
}

/** Runs `script` in sh with $0 = the project's base name; `node "$BIN"` is omc-top. */
function sh(script: string) {
  const r = spawnSync('sh', ['-c', script, (p as TempProject).dir], {
    encoding: 'utf8',
    env: { ...process.env, BIN, CLAUDE_CONFIG_DIR: path.join(REPO, 'test', 'fixtures', 'no-claude-config-dir') },
    timeout: scaled(30_000),
  });
  return { code: r.status, err: r.stderr, out: r.stdout };
}

const SAYS = /is not valid UTF-8 \(the bytes shown as \\xNN\): omc-top cannot open such a path yet/;

describe('a project path that is not UTF-8', () => {
  it(
    'as the current directory, --cwd and --cwd=: the directory is named with \\xff, and nothing blames git',
    {
      timeout: scaled(60_000),
    },
    () => {
      const dir = badProject();
      for (const run of [
        `cd ${dir} && exec node "$BIN" status`,
        `exec node "$BIN" status --cwd ${dir}`,
        `exec node "$BIN" status --cwd=${dir}`,
        `exec node "$BIN" watch --json --cwd ${dir}`,
        `exec node "$BIN" cancel 88727f43-cac5-4a42-a0b2-95e28cf65511 --cwd ${dir}`,
        `exec node "$BIN" --cwd ${dir} </dev/null`,
      ]) {
        const r = sh(run);
        expect(r.code, run).not.toBe(0);
        expect(r.err, run).toMatch(SAYS);
        expect(r.err, run).toContain(`the directory ${(p as TempProject).dir}-\\xff-proj is not valid UTF-8`);
        expect(r.err, run).not.toMatch(/git (is not installed|failed)|no \.omc directory found/);
      }
    },
  );

  it('as --root: the --root path is named with \\xff', () => {
    const dir = badProject();
    const r = sh(`exec node "$BIN" status --root ${dir}/.omc`);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`the --root path ${(p as TempProject).dir}-\\xff-proj/.omc is not valid UTF-8`);
  });

  it(
    'a name holding U+FFFD itself (valid UTF-8) is monitored as before',
    () => {
      p = makeProject({ withFixture: true, prefix: 'omc-top-\ufffd-' });
      const r = sh(`exec node "$BIN" --json --cwd "$0"`);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toContain('\ufffd');
    },
    scaled(30_000),
  );
});
