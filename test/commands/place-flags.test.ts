/**
 * Where to look, said once and plainly on every command: `--cwd DIR` or `--root DIR` (both at once is a usage
 * error, not one silently winning), and a starting directory that is not one is named as itself, not fused with
 * the rules that would have looked in it. A mode name omc-top does not know, for `cancel --mode`, says which it knows.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { writeLiveRalph } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';

const S = 'deb09f6c-0000-4000-8000-000000000001';

const run = (cwd: string, ...args: string[]) => {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: path.join(cwd, '.xdg') };
  delete env.CI;
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 30_000 });
};

describe('--cwd and --root', () => {
  it('both at once: usage error (exit 2) on every command that takes them', ({ emptyProject: p }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 1, max: 5 });
    for (const cmd of [['--json'], ['status'], ['watch', '--json'], ['cancel', S], ['ack', 'orphaned:x@1']]) {
      const r = run(p.dir, ...cmd, '--cwd', p.dir, '--root', p.root);
      expect(r.status, cmd.join(' ')).toBe(2);
      expect(r.stderr, cmd.join(' ')).toContain('use either --cwd or --root, not both');
      expect(r.stdout, cmd.join(' ')).toBe('');
    }
  });

  it('a --cwd that is not a directory is named as itself (exit 2)', ({ emptyProject: p }) => {
    const missing = path.join(p.dir, 'nope');
    const file = path.join(p.dir, 'afile');
    fs.writeFileSync(file, 'x');
    for (const cmd of [['--json'], ['status'], ['watch', '--json']]) {
      const r = run(p.dir, ...cmd, '--cwd', missing);
      expect(r.status, cmd.join(' ')).toBe(2);
      expect(r.stderr, cmd.join(' ')).toContain(`${missing} does not exist: no directory to look for .omc from`);
      expect(r.stderr, cmd.join(' ')).not.toContain('git could not run');
    }
    expect(run(p.dir, 'status', '--cwd', file).stderr).toContain(
      `${file} is a file, not a directory: no directory to look for .omc from`,
    );
  });
});

describe('cancel --mode with a name omc-top does not know', () => {
  it('says nothing is there to cancel and which modes it knows', ({ emptyProject: p }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 1, max: 5 });
    const r = run(p.dir, 'cancel', S, '--mode', 'banana');
    expect(r.status).toBe(4);
    expect(r.stderr).toMatch(/no banana state in .*\(banana is none of the modes omc-top knows: ralph, .*autopilot/);
    // A known mode that is simply not there says only that.
    expect(run(p.dir, 'cancel', S, '--mode', 'autopilot').stderr).not.toContain('none of the modes');
  });
});
