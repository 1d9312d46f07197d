/**
 * The project a root given with --root belongs to, by name, on every surface: the directory a `.omc` sits in, or
 * for a state directory's root (OMC_STATE_DIR's `<name>-<16 hex>`, not a `.omc`) its own name as the fleet shows
 * it. Never the directory omc-top was started in, which is not that root's project; nor are the `.omc` roots under
 * that directory offered as "OMC state also in …".
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { nestedSearchBase } from '../../src/store/sessions/nested-roots.js';
import { projectNameOf } from '../../src/store/root.js';

const S = 'aaaaaaaa-6666-4666-8666-000000000001';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function world() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-root-name-'));
  dirs.push(base);
  // Where omc-top is started: a project of its own, with a .omc that has nothing to do with --root.
  const here = path.join(base, 'startedhere');
  writeLiveRalph({ root: path.join(here, '.omc') }, { sessionId: S, iteration: 1, max: 5 });
  writeLiveRalph({ root: path.join(here, 'sub', '.omc') }, { sessionId: S, iteration: 1, max: 5 });
  const stateRoot = path.join(base, 'state', 'webapp-0123456789abcdef');
  writeLiveRalph({ root: stateRoot }, { sessionId: S, iteration: 2, max: 9 });
  const plain = path.join(base, 'elsewhere', 'one-1');
  writeLiveRalph({ root: plain }, { sessionId: S, iteration: 3, max: 9 });
  const dotOmc = path.join(base, 'proj', '.omc');
  writeLiveRalph({ root: dotOmc }, { sessionId: S, iteration: 4, max: 9 });
  return { here, stateRoot, plain, dotOmc };
}

const envFor = (cwd: string) => {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: path.join(cwd, '..', 'xdg') };
  delete env.CI;
  return env;
};
const run = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: envFor(cwd), timeout: 30_000 });

/** `watch --json --snapshot` up to its `ready` line (then stopped): the lines it printed. */
async function watchLines(cwd: string, root: string): Promise<Array<{ type: string; project: string }>> {
  const child = spawn(process.execPath, [BIN, 'watch', '--json', '--snapshot', '--root', root], {
    cwd,
    env: envFor(cwd),
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  try {
    await waitFor(() => out.includes('"type":"ready"'), { what: 'the ready line', timeoutMs: 20_000 });
  } finally {
    child.kill('SIGTERM');
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; project: string });
}

describe('the project of a root given with --root', () => {
  it('status {project} and watch --json name it by the root, not by the directory omc-top started in', async () => {
    const w = world();
    const cases: Array<[string, string]> = [
      [w.stateRoot, 'webapp'],
      [w.plain, 'one-1'],
      [w.dotOmc, 'proj'],
    ];
    for (const [root, name] of cases) {
      expect(run(w.here, 'status', '--fresh', '--format', '{project}', '--root', root).stdout, root).toBe(`${name}\n`);
      const lines = await watchLines(w.here, root);
      expect(lines.length, root).toBeGreaterThan(1);
      for (const l of lines) expect(l.project, `${root} ${l.type}`).toBe(name);
    }
  });

  it('offers no other .omc under the directory omc-top started in for a state directory root', () => {
    const w = world();
    const res = (root: string) => ({ rule: 'override' as const, root, projectDir: w.here });
    expect(nestedSearchBase(res(w.stateRoot))).toBeNull();
    expect(nestedSearchBase(res(w.dotOmc))).toBe(path.dirname(w.dotOmc));
    expect(projectNameOf(res(w.stateRoot), path.basename)).toBe('webapp');
    expect(
      projectNameOf({ rule: 'git' as const, root: path.join(w.here, '.omc'), projectDir: w.here }, path.basename),
    ).toBe('startedhere');
  });
});
