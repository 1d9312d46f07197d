/**
 * omc-top started in a directory that was removed (a scratch checkout `rm -rf`'d from another pane): a bundled
 * library asks Node for the working directory as it loads, which threw a raw `ENOENT … uv_cwd` stack. Now a
 * directory given by hand (--cwd, --root) just works; without one, one line says what to do (exit 2, as for no .omc).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';

/** Runs the bin from inside `gone` after removing it (the shell keeps it as its working directory). */
function runFromGone(gone: string, args: string[]) {
  fs.mkdirSync(gone);
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const cmd = `cd ${q(gone)} && rmdir ${q(gone)} && exec ${[process.execPath, BIN, ...args].map(q).join(' ')}`;
  return spawnSync('/bin/sh', ['-c', cmd], { encoding: 'utf8', env: { ...process.env, OMC_TOP_CODE_CACHE: '0' } });
}

describe('omc-top run from a removed directory', () => {
  it('with --cwd or --root it answers for that project: --json, status, doctor --json', ({ project: p, tempDir }) => {
    const gone = path.join(tempDir('gone-cwd-'), 'scratch');
    const json = runFromGone(gone, ['--json', '--cwd', p.dir]);
    expect(json.stderr).toBe('');
    expect(json.status).toBe(0);
    expect((JSON.parse(json.stdout) as { root: string }).root).toBe(p.root);

    const status = runFromGone(gone, ['status', '--root', p.root]);
    expect(status.stderr).toBe('');
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/needs you/);

    const doctor = runFromGone(gone, ['doctor', '--json', `--cwd=${p.dir}`]);
    expect(doctor.stderr).not.toMatch(/uv_cwd|ENOENT/);
    expect(JSON.parse(doctor.stdout)).toBeTypeOf('object');
  });

  it('without a directory it says so in one line and exits 2; --help still answers', ({ tempDir }) => {
    const gone = path.join(tempDir('gone-cwd-'), 'scratch');
    const line = 'omc-top: the current directory no longer exists; cd to a project or pass --cwd DIR\n';
    for (const args of [['--json'], ['status'], ['--cwd', 'relative/dir']]) {
      const r = runFromGone(gone, args);
      expect({ args, stderr: r.stderr, stdout: r.stdout, status: r.status }).toEqual({
        args,
        stderr: line,
        stdout: '',
        status: 2,
      });
    }
    const help = runFromGone(gone, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage:');
  });
});
