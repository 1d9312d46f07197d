/**
 * A directory under the root held open, and the walk that opens it without following a symlink out: the base
 * of every contained write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isHeldDir, realpathText } from './byte-paths.js';
import { isInside, OutsideRootError, quotePath, resolveUnder, toRel } from './paths.js';

/**
 * A directory under the root, held open. Every write-side operation (mkdir,
 * create, rename, link, unlink) names its target through `at(name)`, which on
 * Linux is `/proc/self/fd/<fd>/<name>`: the kernel resolves that to this very
 * directory, the one we opened, whatever has been renamed or swapped for a
 * symlink on the path to it since (the *at() system calls, which Node lacks).
 * The directory itself was reached from the real root one component at a time
 * with O_NOFOLLOW, so no symlink on the way can lead out. Without /proc the
 * path is re-verified (real path and inode) right before each use instead.
 */
export class ContainedDir {
  constructor(
    private fd: number | null,
    /** Real path of the directory when it was opened (for messages). */
    readonly real: string,
    private readonly ino: number,
  ) {}

  /** A path for `name` inside this directory; `name` is one plain component. */
  at(name: string): string {
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
      throw new Error(`refusing to use "${quotePath(name)}" as a file name`);
    if (this.fd === null) throw new Error('directory already closed');
    if (PROC_FD) return `/proc/self/fd/${this.fd}/${name}`;
    let st: fs.Stats;
    try {
      st = fs.statSync(realpathText(this.real));
    } catch {
      throw new OutsideRootError(this.real);
    }
    if (st.ino !== this.ino || realpathText(this.real) !== this.real) throw new OutsideRootError(this.real);
    return path.join(this.real, name);
  }

  /** An error from an operation named through `at()`, with the directory's real path in place of /proc/self/fd/N. */
  explain(e: unknown): unknown {
    const err = e as NodeJS.ErrnoException & { dest?: string };
    if (this.fd === null || !PROC_FD || !(err instanceof Error)) return e;
    const prefix = `/proc/self/fd/${this.fd}`;
    const fix = (t: string) => t.split(prefix).join(this.real);
    if (typeof err.path === 'string') err.path = fix(err.path);
    if (typeof err.dest === 'string') err.dest = fix(err.dest);
    err.message = fix(err.message);
    return err;
  }

  /** The names in this directory (the one held open, not whatever its path leads to now). */
  names(): string[] {
    if (this.fd === null) throw new Error('directory already closed');
    // Without /proc, at() re-checks the held directory is still the one at its path before it is listed.
    return fs.readdirSync(PROC_FD ? `/proc/self/fd/${this.fd}` : path.dirname(this.at('x')));
  }

  /** fsync of the directory itself (after a rename), best effort as in OMC. */
  sync(): void {
    try {
      if (this.fd !== null) fs.fsyncSync(this.fd);
    } catch {
      /* best effort */
    }
  }

  /** The same fsync in libuv's pool, off the main thread: what a slow disk costs is not a stall of the screen. */
  async syncAsync(): Promise<void> {
    const fd = this.fd;
    if (fd === null) return;
    await new Promise<void>((resolve) => fs.fsync(fd, () => resolve())); // best effort, as sync()
  }

  close(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
    this.fd = null;
  }
}

const PROC_FD = (() => {
  try {
    return process.platform === 'linux' && fs.statSync('/proc/self/fd').isDirectory();
  } catch {
    return false;
  }
})();
// O_NONBLOCK: O_DIRECTORY already refuses a FIFO before it could wait for a writer; this says so in the flags too.
export const DIR_FLAGS =
  fs.constants.O_RDONLY |
  (fs.constants.O_DIRECTORY ?? 0) |
  (fs.constants.O_NOFOLLOW ?? 0) |
  (fs.constants.O_NONBLOCK ?? 0);
/** How many symlinked components (inside the root) one open may resolve before giving up. */
const MAX_DIR_LINKS = 16;

function openDirFd(p: string): number {
  // A held directory (byte-paths.ts) is the magic link /proc/self/fd/N itself, which O_NOFOLLOW would refuse:
  // open it as "N/.", the link then a step on the way, as for every path under it.
  const fd = fs.openSync(isHeldDir(p) ? `${p}/.` : p, DIR_FLAGS);
  if (!PROC_FD) {
    // Without O_DIRECTORY semantics guaranteed, check what we got.
    if (!fs.fstatSync(fd).isDirectory()) {
      fs.closeSync(fd);
      throw Object.assign(new Error(`not a directory: ${p}`), { code: 'ENOTDIR' });
    }
  }
  return fd;
}

/**
 * An error of an operation on `/proc/self/fd/<N>/<name>` (the walk's own handle on a level), with the path it stands
 * for in its message and fields: a message never names an internal descriptor (EROFS on `mkdir '<project>/.claude'`).
 */
function named(e: unknown, procPath: string, realPath: string): unknown {
  const err = e as NodeJS.ErrnoException;
  if (!(err instanceof Error) || procPath === realPath) return e;
  if (typeof err.path === 'string') err.path = err.path.split(procPath).join(realPath);
  err.message = err.message.split(procPath).join(realPath);
  return err;
}

/**
 * Whose a directory level made by a contained write is, which decides its mode. 'private': omc-top's own (its state
 * directory's requests, answers, receipts), 0700 so no other user reads them. 'shared': a level in a tree another
 * program owns (a project's `.omc` and the levels under it, its `.claude`): made 0777 less the umask, as OMC's own
 * `mkdirSync(dir, { recursive: true })` makes it, so it is the directory OMC would have made there.
 */
export type NewDirMode = 'private' | 'shared';
const MKDIR_MODE: Record<NewDirMode, number> = { private: 0o700, shared: 0o777 };

/**
 * Opens `relDir` under root without following any symlink on the way, except
 * one that resolves inside the real root (then the walk restarts along its real
 * path). `create` makes missing levels (with that mode, see NewDirMode), each inside the level just
 * opened. Throws OutsideRootError for a way out, ENOENT / ENOTDIR otherwise.
 */
export function openDirUnder(root: string, relDir: string, opts: { create?: NewDirMode } = {}): ContainedDir {
  const abs = resolveUnder(root, relDir);
  let rr: string;
  try {
    rr = realpathText(root);
  } catch (e) {
    throw dirGone(e, path.resolve(root));
  }
  let parts = path.relative(path.resolve(root), abs).split(path.sep).filter(Boolean);
  const child = (fd: number, name: string) => (PROC_FD ? `/proc/self/fd/${fd}/${name}` : name);
  for (let links = 0; ; links++) {
    let fd = openDirFd(rr);
    let cur = rr;
    let restart: string[] | null = null;
    let made = 0;
    try {
      for (let i = 0; i < parts.length; i++) {
        const name = parts[i] as string;
        const here = PROC_FD ? child(fd, name) : path.join(cur, name);
        let next: number;
        try {
          next = openDirFd(here);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' && opts.create && made++ < 8) {
            try {
              fs.mkdirSync(here, { mode: MKDIR_MODE[opts.create] }); // the kernel takes the umask off
            } catch (m) {
              if ((m as NodeJS.ErrnoException).code !== 'EEXIST') throw named(m, here, path.join(cur, name));
            }
            i--; // open what is there now (ours, or a racer's: checked the same way)
            continue;
          }
          if (code === 'ENOENT') throw dirGone(e, path.join(cur, name));
          if (code !== 'ENOTDIR' && code !== 'ELOOP') throw named(e, here, path.join(cur, name));
          const st = fs.lstatSync(here);
          if (!st.isSymbolicLink())
            throw Object.assign(
              new Error(`${toRel(rr, path.join(cur, name))} is a file where a directory was expected`),
              {
                code: 'ENOTDIR',
              },
            );
          let target: string;
          try {
            target = realpathText(here);
          } catch {
            throw new OutsideRootError(relDir);
          }
          if (!isInside(rr, target)) throw new OutsideRootError(relDir);
          restart = [...path.relative(rr, target).split(path.sep).filter(Boolean), ...parts.slice(i + 1)];
          break;
        }
        fs.closeSync(fd);
        fd = next;
        cur = path.join(cur, name);
      }
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    if (restart === null) return new ContainedDir(fd, cur, fs.fstatSync(fd).ino);
    fs.closeSync(fd);
    if (links >= MAX_DIR_LINKS) throw new OutsideRootError(relDir);
    parts = restart;
  }
}

/** ENOENT for a directory on the way: the message names that directory (not its parent). */
function dirGone(e: unknown, dir: string): unknown {
  const err = e as NodeJS.ErrnoException & { missingDir?: string };
  if (err?.code === 'ENOENT') err.missingDir = dir;
  return e;
}

/** Runs `fn` with `relDir` held open (see ContainedDir); always closes it. */
export function withDirUnder<T>(
  root: string,
  relDir: string,
  fn: (dir: ContainedDir) => T,
  opts: { create?: NewDirMode } = {},
): T {
  const dir = openDirUnder(root, relDir, opts);
  try {
    return fn(dir);
  } catch (e) {
    throw dir.explain(e);
  } finally {
    dir.close();
  }
}

// omc-top's own directories are made in own-dir.ts; re-exported for the modules that import it from here.
export { ensureOwnDir } from './own-dir.js';

/**
 * mkdir -p for a directory under root: every level made inside the one just opened, never through a symlink out,
 * each with `mode` (NewDirMode: whose the levels are).
 */
export function ensureDirUnder(root: string, relDir: string, mode: NewDirMode): string {
  const abs = resolveUnder(root, relDir);
  openDirUnder(root, relDir, { create: mode }).close();
  return abs;
}

/** A name that must not exist yet (O_EXCL), made 0600, never through a symlink. */
const EXCL_FLAGS =
  fs.constants.O_WRONLY |
  fs.constants.O_CREAT |
  fs.constants.O_EXCL |
  (fs.constants.O_NOFOLLOW ?? 0) |
  (fs.constants.O_NONBLOCK ?? 0);

/** Creates a new file `name` (O_EXCL, no-follow, 0600) in `dir`; returns its descriptor. */
export function createExclusive(dir: ContainedDir, name: string): number {
  return fs.openSync(dir.at(name), EXCL_FLAGS, 0o600);
}

/** createExclusive with the open in libuv's pool. */
// (Its return type is inferred: the open's flags are on the one line that names the promises API.)
export function createExclusiveAsync(dir: ContainedDir, name: string) {
  return fs.promises.open(dir.at(name), EXCL_FLAGS, 0o600);
}
