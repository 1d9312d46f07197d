/**
 * git for tests that build repositories of their own (submodules, linked worktrees): a fixed author, so a commit
 * needs no user configuration on the machine, and the `file` transport allowed, which `git submodule add` of a
 * local path needs since git 2.38.1 refuses it by default.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

/** Runs `git ARGS` in `cwd`; throws (with git's stderr) when git fails. */
export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], { cwd, env: GIT_ENV, stdio: 'pipe' });

/**
 * Makes `lib` a repository with one committed file, `file` (its directories made), and adds it to the repository
 * `superDir` as the submodule `m`; returns the submodule's directory.
 */
export function addLocalSubmodule(superDir: string, lib: string, file = 'f'): string {
  fs.mkdirSync(path.dirname(path.join(lib, file)), { recursive: true });
  git(lib, 'init', '-q');
  fs.writeFileSync(path.join(lib, file), 'x');
  git(lib, 'add', file);
  git(lib, 'commit', '-qm', 'init');
  git(superDir, 'submodule', '-q', 'add', lib, 'm');
  return path.join(superDir, 'm');
}
