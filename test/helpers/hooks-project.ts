/**
 * A scratch project and a scratch home for `omc-top hooks` tests: the command runs in-process against real
 * files, with omc-top's state and config directories (and Claude's) under a temp home of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runHooksCommand } from '../../src/commands/hooks.js';
import { REPO, makeProject, type TempProject } from './fixtures.js';
import { addLocalSubmodule } from './git-scratch.js';

export const HOOK = path.join(REPO, 'dist', 'omc-top-hook.mjs');

const projects: TempProject[] = [];
const bases: string[] = [];

/** Removes every project and home made since the last call (call it from afterEach). */
export function cleanupHooksProjects(): void {
  for (const p of projects.splice(0)) p.cleanup();
  for (const b of bases.splice(0)) fs.rmSync(b, { recursive: true, force: true });
}

/** A temp directory removed by cleanupHooksProjects. */
export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  bases.push(dir);
  return dir;
}

export function hooksProject() {
  const p = makeProject({ prefix: 'omc-top-hooks-' });
  projects.push(p);
  const base = scratchDir('omc-top-hooks-home-');
  const env: NodeJS.ProcessEnv = {
    HOME: base,
    XDG_STATE_HOME: path.join(base, 'state'),
    XDG_CONFIG_HOME: path.join(base, 'config'),
    CLAUDE_CONFIG_DIR: path.join(base, 'claude'),
    PATH: process.env.PATH,
  };
  const out: string[] = [];
  const run = (...argv: string[]) =>
    runHooksCommand([...argv, '--cwd', p.dir], {
      out: (s) => out.push(s),
      err: (s) => out.push(s),
      cwd: p.dir,
      env,
      script: HOOK,
    });
  const settings = path.join(p.dir, '.claude', 'settings.local.json');
  /** Where install keeps what the file looked like (one record per settings file). */
  const recordsDir = path.join(base, 'state', 'omc-top', 'permissions');
  return { p, env, out, run, settings, base, recordsDir };
}

export type HooksProject = ReturnType<typeof hooksProject>;

/** Runs `omc-top hooks VERB` in `cwd` with the scratch home of `s`; returns the exit status and what it said. */
export function hooksIn(s: HooksProject, cwd: string, verb: string): { code: number; said: string } {
  const out: string[] = [];
  const code = runHooksCommand([verb, '--cwd', cwd], {
    out: (t) => out.push(t),
    err: (t) => out.push(t),
    cwd,
    env: s.env,
    script: HOOK,
  });
  return { code, said: out.join('') };
}

/** A hooks project whose repository has a submodule `m` (a local repository added by `git submodule add`). */
export function hooksProjectWithSubmodule(): { s: HooksProject; sub: string } {
  const s = hooksProject();
  return { s, sub: addLocalSubmodule(s.p.dir, scratchDir('omc-top-lib-')) };
}

/**
 * The user settings file of the scratch home of `s`: Claude's config directory made, and the file written with
 * `text` when given (else not made).
 */
export function userSettingsFile(s: HooksProject, text?: string): string {
  const user = path.join(s.env.CLAUDE_CONFIG_DIR as string, 'settings.json');
  fs.mkdirSync(path.dirname(user), { recursive: true });
  if (text !== undefined) fs.writeFileSync(user, text);
  return user;
}
