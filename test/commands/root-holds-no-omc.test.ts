/**
 * `--root` given a directory that holds nothing of OMC's (an empty one, someone else's): not refused, since a fresh
 * root OMC will fill is legitimate, but said on every surface, so "no loops · needs you: 0" is not read as OMC idle
 * there: doctor warns, `status` adds a note on stderr (its line stays one, exit 0), the monitor shows a problem line
 * that goes once OMC writes there. The built bundle, as a user runs it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let base: string | null = null;
let h: TerminalHarness | null = null;
afterEach(async () => {
  await h?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
  h = base = null;
});

/** An empty directory to give as --root, and a home with nothing in it. */
function scene(): { dir: string; env: NodeJS.ProcessEnv } {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-root-empty-'));
  const dir = path.join(base, 'emptydir');
  const home = path.join(base, 'home');
  fs.mkdirSync(dir);
  fs.mkdirSync(home);
  const env = { ...process.env, HOME: home, XDG_STATE_HOME: path.join(base, 'xdg'), OMC_STATE_DIR: undefined };
  return { dir, env };
}

const run = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd: base!, env, encoding: 'utf8' });

describe('--root given a directory that holds no OMC state', () => {
  it('doctor warns, naming what is missing', () => {
    const { dir, env } = scene();
    const out = run(env, 'doctor', '--root', dir).stdout;
    const line = out.split('\n').find((l) => l.includes('.omc root')) ?? '';
    expect(line).toMatch(/^warn\s/);
    expect(out).toContain(`${dir} holds no OMC state (no state/, notepad.md, project-memory.json, wiki/`);
  });

  it('status says so on stderr, its one line and exit code unchanged; a root OMC wrote in says nothing', () => {
    const { dir, env } = scene();
    const r = run(env, 'status', '--root', dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('no loops · needs you: 0\n');
    expect(r.stderr).toContain(`note: ${dir} holds no OMC state`);
    expect(r.stderr.split('\n').filter((l) => l.includes('holds no OMC state'))).toHaveLength(1);
    fs.mkdirSync(path.join(dir, 'state', 'sessions'), { recursive: true });
    const after = run(env, 'status', '--root', dir);
    expect(after.status).toBe(0);
    expect(after.stderr).not.toContain('holds no OMC state');
  });

  it(
    'the monitor shows a problem line, gone once OMC writes its state there',
    async () => {
      const { dir, env } = scene();
      const t = (h = new TerminalHarness({ cwd: base!, args: ['--root', dir], cols: 200, rows: 24, env }));
      await t.waitForText('⚠ --root: ' + dir + ' holds no OMC state', 30_000);
      fs.mkdirSync(path.join(dir, 'state', 'sessions'), { recursive: true });
      await t.waitForNoText('holds no OMC state', 30_000);
    },
    scaled(90_000),
  );
});
