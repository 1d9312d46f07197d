/**
 * `--root` given the project (the directory holding `.omc`) instead of its `.omc`: read as its `.omc`, said once,
 * so `status`, `--json` and the monitor count its loops where they used to say "no loops · needs you: 0" as if all
 * were clear. A directory given as `--root` that holds none of OMC's files is said too. The built bundle, as a user
 * (or a tmux status line) runs it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';

const S = '0b5e9c1e-3333-4222-8333-444455556666';
let p: TempProject | null = null;
afterEach(() => {
  p?.cleanup();
  p = null;
});

/** A project whose .omc holds one live ralph. */
function project(): TempProject {
  p = makeProject({ prefix: 'omc-top-root-proj-' });
  const now = new Date().toISOString();
  writeOmcJson(path.join(p.root, 'state', 'sessions', S, 'ralph-state.json'), {
    active: true,
    iteration: 4,
    max_iterations: 10,
    started_at: now,
    last_checked_at: now,
    session_id: S,
  });
  return p;
}

const run = (cwd: string, ...args: string[]) => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: path.join(cwd, 'home'),
    XDG_CACHE_HOME: path.join(cwd, 'cache'),
  };
  delete env.CI;
  return execFileSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8' });
};

describe('--root given the project instead of its .omc', () => {
  it('status and --json read the project’s .omc and say so; the same as --root proj/.omc', () => {
    const { dir } = project();
    const parent = path.dirname(dir);
    const name = path.basename(dir);
    const asProject = JSON.parse(run(parent, '--json', '--root', name));
    const asOmc = JSON.parse(run(parent, '--json', '--root', path.join(name, '.omc')));
    expect(asProject.sessions.map((s: { id: string }) => s.id)).toEqual([S]);
    expect(asProject.sessions).toEqual(asOmc.sessions);
    expect(asProject.notices).toContainEqual(
      expect.stringContaining(`is the project: reading its ${path.join(dir, '.omc')}, where OMC keeps its state`),
    );
    expect(run(parent, 'status', '--tmux', '--root', name)).toBe(
      run(parent, 'status', '--tmux', '--root', `${name}/.omc`),
    );
  });

  it('a directory with none of OMC’s files is said, not taken for an empty .omc', () => {
    const { dir } = project();
    const other = path.join(dir, 'src');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'main.ts'), 'export {};\n');
    const j = JSON.parse(run(dir, '--json', '--root', 'src'));
    expect(j.sessions).toEqual([]);
    // Said once, as a problem line (not also as a notice in other words).
    const said = (doc: { notices: string[]; problems: Array<{ message: string }> }) =>
      [...doc.notices, ...doc.problems.map((p) => p.message)].filter((m) => /holds no(ne of)? OMC/.test(m));
    expect(said(j)).toEqual([
      `${other} holds no OMC state (no state/, notepad.md, project-memory.json, wiki/…): no loop shows here until OMC's hooks write there`,
    ]);
    // A real .omc (OMC's names) is never said so.
    expect(said(JSON.parse(run(dir, '--json', '--root', '.omc')))).toEqual([]);
  });
});
