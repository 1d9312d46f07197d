/**
 * The few git facts OMC's root resolution depends on. Each answer comes from
 * running git itself (as OMC does), with a timeout, and never throws: no git,
 * not a repository, or a timeout all read as "not in git".
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface GitProbe {
  topLevel(dir: string): string | null;
  /** Working tree of the superproject when `dir` is inside a submodule. */
  superproject(dir: string): string | null;
  remoteOrigin(dir: string): string | null;
  /** Absolute --git-common-dir. */
  commonDir(dir: string): string | null;
}

function git(dir: string, args: string[]): string | null {
  try {
    const out = execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    }).trim();
    return out === '' ? null : out;
  } catch {
    return null;
  }
}

export const realGit: GitProbe = {
  topLevel: (dir) => git(dir, ['rev-parse', '--show-toplevel']),
  superproject: (dir) => git(dir, ['rev-parse', '--show-superproject-working-tree']),
  remoteOrigin: (dir) => git(dir, ['remote', 'get-url', 'origin']),
  commonDir: (dir) => {
    const out = git(dir, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
    return out ? path.resolve(dir, out) : null;
  },
};
