/**
 * The user's home directory, always absolute. Node's `os.homedir()` returns $HOME as it is, even when it is set
 * but empty or relative (`HOME= omc-top`), and every path built on it (the code cache, omc-top's state, OMC's
 * `$HOME/.omc`, Claude Code's `~/.claude`) was then relative to the directory omc-top ran in: dot-directories
 * written into the user's project. A $HOME that is not absolute counts as unset, as OMC's and Claude Code's own
 * fallbacks would have it: the account's home from the password database.
 */
import os from 'node:os';
import path from 'node:path';

function accountHome(): string | null {
  try {
    const h = os.userInfo().homedir;
    return path.isAbsolute(h) ? h : null;
  } catch {
    // No password entry for this uid (some containers).
    return null;
  }
}

/**
 * `env.HOME` when absolute, else the process's own $HOME when absolute, else the account's home; the root
 * directory when there is none at all (nothing is then written beside the user's files).
 */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.HOME;
  if (typeof fromEnv === 'string' && path.isAbsolute(fromEnv)) return fromEnv;
  // Not in `env` at all: the process's own (a caller's env without HOME still means this user).
  if (fromEnv === undefined) {
    const own = os.homedir();
    if (path.isAbsolute(own)) return own;
  }
  return accountHome() ?? path.parse(process.cwd()).root;
}
