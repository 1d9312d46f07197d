/** The script-facing surface of the bundle: --json, --help, --version, errors. */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE, makeProject, SESSION, type TempProject } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';

let p: TempProject | null = null;
afterEach(() => {
  p?.cleanup();
  p = null;
});

const run = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });

describe('omc-top CLI', () => {
  it('--json prints one document with the fixed field names and exits 0', () => {
    p = makeProject({ withFixture: true });
    const r = run(['--json'], p.dir);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.root).toBe(path.join(fs.realpathSync(p.dir), '.omc'));
    const ralph = doc.sessions.find((s: any) => s.id === SESSION.ralph);
    expect(ralph.modes[0]).toMatchObject({
      mode: 'ralph',
      active: true,
      iteration: 3,
      max_iterations: 10,
      phase: 'execution',
      path: `state/sessions/${SESSION.ralph}/ralph-state.json`,
    });
    expect(['active', 'pending', 'stale', 'finished', 'tombstoned']).toContain(ralph.modes[0].status);
    expect(Array.isArray(doc.problems)).toBe(true);
  });

  it('--json on the 200-session real-OMC load tree is complete through a pipe (no truncation at exit)', () => {
    p = makeProject();
    fs.rmSync(p.root, { recursive: true });
    spawnSync('tar', ['-xzf', path.join(FIXTURE, 'large-tree.tar.gz'), '-C', p.dir]);
    const r = run(['--json', '--root', p.root], '/');
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(65_536);
    const doc = JSON.parse(r.stdout);
    expect(doc.sessions.filter((s: any) => s.kind === 'session')).toHaveLength(200);
  });

  it('--json --cwd from elsewhere finds the same root; a subdirectory resolves to the git top-level', () => {
    p = makeProject({ withFixture: true });
    fs.mkdirSync(path.join(p.dir, 'src', 'deep'), { recursive: true });
    const a = JSON.parse(run(['--json', '--cwd', p.dir], '/').stdout);
    const b = JSON.parse(run(['--json'], path.join(p.dir, 'src', 'deep')).stdout);
    expect(a.root).toBe(b.root);
  });

  it('no .omc: a clear message saying where it looked, exit 2', () => {
    p = makeProject();
    fs.rmSync(p.root, { recursive: true });
    const r = run(['--json'], p.dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no \.omc directory found/);
    expect(r.stderr).toContain(path.join(p.dir, '.omc'));
  });

  it('--help and --version', () => {
    const h = run(['--help'], '/');
    expect(h.status).toBe(0);
    expect(h.stdout).toMatch(/Usage:/);
    expect(h.stdout).toMatch(/OMC_STATE_DIR/);
    const v = run(['--version'], '/');
    expect(v.stdout).toMatch(/^omc-top \d+\.\d+\.\d+/);
  });

  it('an unknown option is an error, not silently ignored', () => {
    const r = run(['--jsno'], '/');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown option --jsno/);
  });

  it('without a terminal the monitor refuses politely and points at --json', () => {
    p = makeProject({ withFixture: true });
    const r = run([], p.dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/needs a terminal.*--json/);
  });
});
