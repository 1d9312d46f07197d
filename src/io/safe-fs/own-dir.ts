/**
 * omc-top's own directories ($XDG_STATE_HOME/omc-top, $XDG_CACHE_HOME/omc-top): made here, and when they cannot be
 * made or written, the real reason in words. Node's recursive mkdir reports ENOENT on a read-only filesystem and
 * ENOTDIR naming the directory it wanted, not the file in the way; so the levels are made one at a time from the
 * deepest one that exists, and each failure names the path it happened on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeWriteError } from './errors.js';
import { OutsideRootError, quotePath } from './paths.js';
import { homeDir } from '../home-dir.js';

/**
 * Why one of omc-top's own directories cannot be used: `code` the errno, `path` the path it is about. The message is
 * `<path> <reason>` (or `<path>: <reason>`): a problem line shows the two apart, as it does for every file.
 */
export class OwnDirError extends Error {
  constructor(
    readonly code: string,
    /** The directory omc-top wanted. */
    readonly dir: string,
    /** The path the failure is about: the file in the way, the level that could not be made, or the full one. */
    readonly path: string,
    /** What is wrong with `path`, without naming it. */
    readonly reason: string,
  ) {
    super(`${quotePath(path)}${/^(is|cannot) /.test(reason) ? ' ' : ': '}${reason}`);
    this.name = 'OwnDirError';
  }
}

/** The deepest existing path at or above `abs` (following symlinks, as mkdir does), and the levels below it. */
function deepestExisting(abs: string): { at: string; st: fs.Stats; missing: string[] } {
  const missing: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return { at: cur, st: fs.statSync(cur), missing };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const up = path.dirname(cur);
      // ENOTDIR: a file is further up; that file is then the deepest thing that exists.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || up === cur) throw failure(abs, e);
      missing.unshift(cur);
      cur = up;
    }
  }
}

function notADirectory(dir: string, at: string, st: fs.Stats): OwnDirError {
  const what = st.isFile() ? 'a file' : 'not a directory';
  const tail = at === dir ? '' : `, so ${quotePath(dir)} cannot be made`;
  return new OwnDirError('ENOTDIR', dir, at, `is ${what} where a directory was expected${tail}`);
}

function failure(dir: string, e: unknown): OwnDirError {
  const code = (e as NodeJS.ErrnoException)?.code ?? 'EIO';
  return new OwnDirError(code, dir, dir, `cannot be made: ${describeWriteError(e)}`);
}

/**
 * A home directory that is not there is not omc-top's to make (HOME=/nonexistent: a service account, a sandbox):
 * a read-only `--json` must not leave `/nonexistent/.cache/omc-top` behind. Below an existing home, the levels
 * (`~/.cache`, `~/.local/state`) are made as usual, and so is an XDG base that is not there (the XDG spec asks
 * that); never the home itself or a directory above it. The refusal when one of `missing` is that.
 */
function homeNotThere(abs: string, missing: readonly string[], home: string): OwnDirError | null {
  const h = path.resolve(home);
  const above = missing.find((level) => level === h || h.startsWith(level.endsWith('/') ? level : level + '/'));
  return above === undefined
    ? null
    : new OwnDirError(
        'ENOENT',
        abs,
        h,
        `is not there: omc-top never makes a home directory, so ${quotePath(abs)} is not made`,
      );
}

/**
 * Creates one of omc-top's own directories, which is the root of later contained writes and so cannot itself be
 * created under one: mode 0700 for every level made, and refused when the path that exists is not a real directory
 * (a symlink planted there would redirect every later write). Throws OwnDirError with the real reason.
 */
export function ensureOwnDir(abs: string, home: string = homeDir()): void {
  const { at, st, missing } = deepestExisting(abs);
  if (!st.isDirectory()) throw notADirectory(abs, at, st);
  const noHome = homeNotThere(abs, missing, home);
  if (noHome) throw noHome;
  for (const level of missing) {
    try {
      fs.mkdirSync(level, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw failure(abs, e);
    }
  }
  if (!fs.lstatSync(abs).isDirectory()) {
    const refused = new OutsideRootError(abs);
    refused.message = `${quotePath(abs)} is a symlink, not a directory: refused (it would redirect omc-top's writes)`;
    throw refused;
  }
}

/** statfs(2) f_type of the kernel's own filesystems (linux/magic.h): proc, sysfs, debugfs, tracefs, securityfs, cgroup, cgroup2, bpf, configfs, pstore. */
const KERNEL_FILESYSTEMS = new Set([
  0x9fa0, 0x62656572, 0x64626720, 0x74726163, 0x73636673, 0x27e0eb, 0x63677270, 0xcafe4a11, 0x62656570, 0x6165676c,
]);

/**
 * Why `abs` could not hold omc-top's files, observed without writing anything (doctor): a file in the way, a
 * read-only filesystem, no write permission, a full disk or no free inodes. null: nothing seen against it.
 */
export function ownDirFault(abs: string, home: string = homeDir()): OwnDirError | null {
  let found: ReturnType<typeof deepestExisting>;
  try {
    found = deepestExisting(abs);
  } catch (e) {
    return e as OwnDirError;
  }
  const { at, st } = found;
  if (!st.isDirectory()) return notADirectory(abs, at, st);
  const noHome = homeNotThere(abs, found.missing, home);
  if (noHome) return noHome;
  if (at === abs && fs.lstatSync(abs).isSymbolicLink())
    return new OwnDirError('ELOOP', abs, abs, 'is a symlink, not a directory: omc-top refuses it');
  try {
    // access(2) answers EROFS for a read-only mount even to root, and EACCES for a directory we may not write.
    fs.accessSync(at, fs.constants.W_OK | fs.constants.X_OK);
  } catch (e) {
    return at === abs
      ? new OwnDirError((e as NodeJS.ErrnoException).code ?? 'EIO', abs, abs, describeWriteError(e))
      : failure(abs, e);
  }
  let space: fs.StatsFs;
  try {
    space = fs.statfsSync(at);
  } catch {
    return null; // no answer about space is no fault seen
  }
  // A filesystem with no blocks at all holds no files of anyone's: a kernel's window (/proc, /sys), where mkdir
  // fails whatever the user may write, is said as such; another (a tmpfs with no size limit) gives no answer about
  // space, and no full disk is made of it.
  if (Number(space.blocks) === 0) {
    if (!KERNEL_FILESYSTEMS.has(Number(space.type))) return null;
    return new OwnDirError('EINVAL', abs, at, 'is on a kernel filesystem (like /proc or /sys): it holds no files');
  }
  const full = Number(space.bavail) === 0 || (Number(space.files) > 0 && Number(space.ffree) === 0);
  if (!full) return null;
  const err = Object.assign(new Error('no space'), { code: 'ENOSPC' });
  const inodes = Number(space.bavail) === 0 ? '' : ', no free inodes';
  return new OwnDirError('ENOSPC', abs, at, `${describeWriteError(err)}${inodes}`);
}

/** A failed write into one of omc-top's own directories, as the path it is about and the reason (a problem line). */
export function ownDirProblem(dir: string, e: unknown): { path: string; reason: string } {
  if (e instanceof OwnDirError) return { path: e.path, reason: e.reason };
  return { path: dir, reason: describeWriteError(e) };
}

/** The same in one line, naming the path: the OwnDirError's own words, or `<dir>: <reason>`. */
export function describeOwnDirError(dir: string, e: unknown): string {
  if (e instanceof OwnDirError) return e.message;
  return `${quotePath(dir)}: ${describeWriteError(e)}`;
}
