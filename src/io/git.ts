/**
 * The few git facts OMC's root resolution depends on. Each answer comes from
 * running git itself (as OMC does), with a timeout, and never throws. "Not a
 * repository" is an answer; git that cannot answer — not installed, no
 * descriptors or processes left, a repository git refuses because another
 * user owns it, a timeout — is a failure, remembered per directory so the
 * root resolution can say what failed instead of calling it "not a git repo".
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cleanLine } from './sanitize.js';
import { SYNC_KILL } from './child-end.js';
import { bytesOfPath, pathForBytes } from './safe-fs/byte-paths.js';
import {
  COMMON_DIR_ARGS,
  GIT_TIMEOUT_MS,
  SUPERPROJECT_ARGS,
  TOP_LEVEL_ARGS,
  gitEnv,
  takeEarlyAnswer,
} from './git-early.js';
import { shownPath } from './shown-path.js';

export interface GitProbe {
  topLevel(dir: string): string | null;
  /** Working tree of the superproject when `dir` is inside a submodule. */
  superproject(dir: string): string | null;
  remoteOrigin(dir: string): string | null;
  /** Absolute --git-common-dir. */
  commonDir(dir: string): string | null;
  /** Why the last topLevel(dir) had no answer when git itself failed; null when git answered. */
  failure?(dir: string): string | null;
}

/** Words for a git run that produced no answer; null when git ran and said "not a repository". */
export function describeGitFailure(e: unknown): string | null {
  const err = e as NodeJS.ErrnoException & { status?: number | null; signal?: string | null; stderr?: string };
  switch (err?.code) {
    case 'ENOENT':
      return 'git is not installed or not on PATH';
    case 'EMFILE':
    case 'ENFILE':
      return `git could not be started (${err.code}: no file descriptors left)`;
    case 'EAGAIN':
      return 'git could not be started (EAGAIN: no processes left)';
    case 'ETIMEDOUT':
      return 'git did not answer within 5 s';
  }
  if (err?.signal) return err.signal === 'SIGTERM' ? 'git did not answer within 5 s' : `git was killed (${err.signal})`;
  const stderr = typeof err?.stderr === 'string' ? err.stderr : '';
  if (/not a git repository/i.test(stderr)) return null;
  if (/dubious ownership/i.test(stderr))
    return "git refuses this repository: it is owned by another user (git's safe.directory check)";
  const first = cleanLine(stderr.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 160);
  if (typeof err?.status === 'number') return `git failed (exit ${err.status}${first ? `: ${first}` : ''})`;
  return `git could not run (${cleanLine(err?.code ?? err?.message ?? String(e))})`;
}

const failures = new Map<string, string>();

/**
 * A git that did not answer within its timeout is not asked again for a while: each question a start asks (the top
 * level, the superproject, the settings' places) would wait out the timeout again, and `status` or the monitor's
 * first frame would wait 5 s per question. Until then each run fails at once as the stuck one did.
 */
const STUCK_PAUSE_MS = 60_000;
let stuckUntil = 0;
const stuckError = (): NodeJS.ErrnoException => Object.assign(new Error('git did not answer'), { code: 'ETIMEDOUT' });

/** git's output, or what execFileSync throws: from the bin's early run of this very question when there is one (io/git-early.ts). */
function runGit(dir: string, args: readonly string[]): Buffer {
  const early = takeEarlyAnswer(dir, args);
  if (early !== null) {
    if ('stdout' in early) return early.stdout;
    throw early.error;
  }
  if (Date.now() < stuckUntil) throw stuckError();
  return execFileSync('git', [...args], {
    cwd: dir,
    encoding: 'buffer',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: GIT_TIMEOUT_MS,
    // A git that ignores SIGTERM would keep execFileSync (and so omc-top) waiting for good.
    killSignal: SYNC_KILL,
    env: gitEnv(),
  });
}

/** git's answer as bytes (a path it prints is bytes; it is not valid UTF-8 when a directory name is not). */
function gitBytes(dir: string, args: readonly string[]): Buffer | null {
  try {
    const out = runGit(dir, args);
    failures.delete(dir);
    let end = out.length;
    while (end > 0 && (out[end - 1] === 0x0a || out[end - 1] === 0x0d)) end--;
    return end === 0 ? null : out.subarray(0, end);
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer | string };
    if (Buffer.isBuffer(err.stderr)) err.stderr = err.stderr.toString('utf8');
    // spawn says ENOENT for a missing working directory as for a missing git: tell them apart.
    const why =
      err.code === 'ENOENT' && !fs.existsSync(dir)
        ? `git could not run in ${shownPath(dir)}: that directory does not exist`
        : describeGitFailure(e);
    if (why === null) failures.delete(dir);
    else failures.set(dir, why);
    if (why === 'git did not answer within 5 s' && Date.now() >= stuckUntil) stuckUntil = Date.now() + STUCK_PAUSE_MS;
    return null;
  }
}

function git(dir: string, args: string[]): string | null {
  const out = gitBytes(dir, args);
  return out === null ? null : out.toString('utf8').trim() || null;
}

/**
 * A directory git names, taken as bytes: a name that is not UTF-8 is held open by its bytes (safe-fs/byte-paths.ts)
 * instead of being trusted as the lossy text Node would decode it to.
 */
function gitPath(dir: string, args: readonly string[]): string | null {
  const out = gitBytes(dir, args);
  if (out === null) return null;
  const raw = out[0] === 0x2f ? out : Buffer.concat([bytesOfPath(path.resolve(dir)), Buffer.from('/'), out]);
  return pathForBytes(raw);
}

export const realGit: GitProbe = {
  topLevel: (dir) => gitPath(dir, TOP_LEVEL_ARGS),
  superproject: (dir) => gitPath(dir, SUPERPROJECT_ARGS),
  remoteOrigin: (dir) => git(dir, ['remote', 'get-url', 'origin']),
  commonDir: (dir) => gitPath(dir, COMMON_DIR_ARGS),
  failure: (dir) => failures.get(dir) ?? null,
};

/**
 * Git's answers for one pass (a root resolution, a discovery): the same directory is asked the same question more
 * than once on the way (the top level twice), and each answer is a git process run while the event loop waits.
 */
export function gitOnePass(git: GitProbe): GitProbe {
  const memo = new Map<string, string | null>();
  const once = (q: string, dir: string, ask: (dir: string) => string | null) => {
    const key = `${q}\0${dir}`;
    if (!memo.has(key)) memo.set(key, ask(dir));
    return memo.get(key) ?? null;
  };
  return {
    topLevel: (d) => once('top', d, (x) => git.topLevel(x)),
    superproject: (d) => once('super', d, (x) => git.superproject(x)),
    remoteOrigin: (d) => once('origin', d, (x) => git.remoteOrigin(x)),
    commonDir: (d) => once('common', d, (x) => git.commonDir(x)),
    ...(git.failure ? { failure: (d: string) => git.failure?.(d) ?? null } : {}),
  };
}
