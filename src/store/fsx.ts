/**
 * Every read and write omc-top does goes through this file, so two promises
 * hold everywhere: nothing outside the resolved .omc root is read or written
 * (symlinks are resolved and checked), and a bad file turns into a specific,
 * human-readable reason instead of an exception.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { cleanLine } from './sanitize.js';

export type ReadFailureCode = 'missing' | 'not-a-file' | 'outside-root' | 'too-large' | 'permission' | 'binary' | 'io';

export interface ReadOk {
  ok: true;
  text: string;
  bytes: number;
  mtimeMs: number;
  ino: number;
  /** Bytes that were not valid UTF-8 were replaced with U+FFFD. */
  invalidUtf8: boolean;
  /** A leading byte-order mark was removed. */
  bom: boolean;
}
export interface ReadFailure {
  ok: false;
  code: ReadFailureCode;
  message: string;
}
export type ReadResult = ReadOk | ReadFailure;

/**
 * One reusable read buffer: every read is synchronous and decoded into a JS
 * string before the next, so thousands of small reads at startup allocate
 * nothing outside the heap (RSS stays low). Big files get their own buffer.
 */
let scratch = Buffer.allocUnsafe(64 * 1024);
function readBuffer(size: number): Buffer {
  if (size <= scratch.length) return scratch.subarray(0, size);
  if (size > 4 * 1024 * 1024) return Buffer.allocUnsafe(size);
  scratch = Buffer.allocUnsafe(2 ** Math.ceil(Math.log2(size)));
  return scratch.subarray(0, size);
}

/** Default cap for JSON state files; OMC's own state_write payload limit is 1 MiB. */
export const STATE_FILE_MAX_BYTES = 4 * 1024 * 1024;

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** POSIX-style relative path (what we show and put in --json), whatever the platform. */
export function toRel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/** A path with an empty, `.` or `..` segment, or a trailing slash: path.resolve would change it. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;
const POSIX = path.sep === '/';
/**
 * path.resolve(p), without its cost when p is already absolute and normal (every path the store builds:
 * path.resolve was the largest share of the safe-read path's own time in a start-up profile).
 */
function normalAbs(p: string): string {
  return POSIX && p.charCodeAt(0) === 47 && !NOT_NORMAL.test(p) ? p : path.resolve(p);
}

/** True when `child` is `parent` or lies inside it (both absolute, already resolved). */
export function isInside(parent: string, child: string): boolean {
  // Both sides normalised by path.resolve, so a prefix test is exact and cheap
  // (path.relative was a visible share of scanning 4,000 files).
  const p = normalAbs(parent);
  const c = normalAbs(child);
  if (c === p) return true;
  return c.startsWith(p.endsWith(path.sep) ? p : p + path.sep);
}

/**
 * realpath() of directories, remembered for a second: a scan of 2,000
 * sessions reads 4,000 files in 2,000 directories, and resolving every file's
 * full path again is most of the cost of a read. Files themselves are opened
 * with O_NOFOLLOW, so a symlinked file is always caught and resolved fresh.
 */
const DIR_CACHE_MS = 1_000;
const dirCache = new Map<string, { real: string | null; at: number }>();
/**
 * Entries older than DIR_CACHE_MS are never used again: drop them (at most once a second, and only once there
 * are many), so the 2,000–10,000 directories of a start-up read are not held for the life of the process.
 */
let lastSweep = 0;
function sweepDirCache(now: number): void {
  if (dirCache.size < 1_024 || now - lastSweep < DIR_CACHE_MS) return;
  lastSweep = now;
  for (const [dir, e] of dirCache) if (now - e.at >= DIR_CACHE_MS) dirCache.delete(dir);
}

function realDir(dir: string, fresh = false): string | null {
  const now = Date.now();
  const hit = dirCache.get(dir);
  // Only a directory that exists is remembered: one created a moment after a read found it missing (a
  // fresh project's first .omc/sessions/) must be seen by the very next read, not a second later.
  if (!fresh && hit && hit.real !== null && now - hit.at < DIR_CACHE_MS) return hit.real;
  let real: string | null;
  try {
    real = fs.realpathSync.native(dir);
  } catch {
    real = null;
  }
  sweepDirCache(now);
  if (dirCache.size > 10_000) dirCache.clear();
  dirCache.set(dir, { real, at: now });
  return real;
}

function realRoot(root: string): string {
  return realDir(root) ?? path.resolve(root);
}

/** Resolves `rel` under `root` lexically and rejects `..` escapes before touching the disk. */
export function resolveUnder(root: string, rel: string): string {
  const r = normalAbs(root);
  // The common case, a plain relative path (no empty, `.` or `..` segment): it is inside by construction.
  if (POSIX && rel !== '' && rel.charCodeAt(0) !== 47 && !NOT_NORMAL.test(`/${rel}`))
    return r === '/' ? `/${rel}` : `${r}/${rel}`;
  const abs = path.resolve(r, rel);
  if (!isInside(r, abs)) throw new OutsideRootError(rel);
  return abs;
}

/**
 * A path quoted in a message can come from the filesystem (a symlink's
 * target, a directory name): it is text from disk like any other, and an
 * escape sequence in it would reach the terminal through the problem line.
 */
const quotePath = (p: string) => cleanLine(p);

export class OutsideRootError extends Error {
  constructor(rel: string) {
    super(`refusing to touch ${JSON.stringify(quotePath(rel))}: it resolves outside the .omc root`);
    this.name = 'OutsideRootError';
  }
}

/**
 * ELOOP means a real loop or a chain longer than the kernel follows (40): walk
 * the links ourselves (readlink only, bounded) to say which.
 */
function describeLinkChain(abs: string): { code: ReadFailureCode; message: string } {
  const seen = new Set<string>();
  let cur = abs;
  let links = 0;
  for (; links < 1_000; links++) {
    if (seen.has(cur))
      return { code: 'outside-root', message: 'symlink loop (the link leads back to itself); not read' };
    seen.add(cur);
    let target: string;
    try {
      target = fs.readlinkSync(cur);
    } catch {
      break; // not a link (the end of the chain, or a directory link on the way): not a loop of file links
    }
    cur = path.resolve(path.dirname(cur), target);
  }
  return {
    code: 'outside-root',
    message: `a chain of ${links} symlinks, more than the 40 the kernel follows; not read`,
  };
}

function describeErrno(err: unknown): { code: ReadFailureCode; message: string } {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'ENOENT':
      return { code: 'missing', message: 'file vanished before it could be read' };
    case 'EACCES':
    case 'EPERM':
      return {
        code: 'permission',
        message: 'permission denied (OMC writes its files mode 0600; run omc-top as the same user)',
      };
    case 'EISDIR':
      return { code: 'not-a-file', message: 'is a directory where a file was expected' };
    case 'ELOOP':
      return { code: 'outside-root', message: 'symlink loop (the link leads back to itself); not read' };
    case 'ENXIO':
      // open() of a Unix socket (or a device with nothing behind it).
      return { code: 'not-a-file', message: 'is a socket or device, not a regular file; not read' };
    default:
      return { code: 'io', message: `read failed (${e?.code ?? String(err)})` };
  }
}

/**
 * Where `rel` is, with every directory on the way resolved: refused when it
 * names a place outside `root`, or when a directory on the way is a symlink
 * leading outside it. The last component is left as it is (the caller's open
 * decides about a symlink there). `rootWord` names the root in the message.
 */
function containedPath(
  root: string,
  rel: string,
  rootWord: string,
): { ok: true; path: string } | { ok: false; code: ReadFailureCode; message: string } {
  let abs: string;
  try {
    abs = resolveUnder(root, rel);
  } catch (e) {
    return { ok: false, code: 'outside-root', message: (e as Error).message };
  }
  const parent = realDir(path.dirname(abs));
  if (parent === null) return { ok: false, code: 'missing', message: 'file vanished before it could be read' };
  if (!isInside(realRoot(root), parent)) {
    return {
      ok: false,
      code: 'outside-root',
      message: `directory is a symlink to outside ${rootWord} (${quotePath(parent)}); not read`,
    };
  }
  return { ok: true, path: path.join(parent, path.basename(abs)) };
}

/**
 * Reads a text file under `root`. Follows a symlink only when its target is
 * still inside the root. Never throws.
 */
export function readTextSync(root: string, rel: string, maxBytes = STATE_FILE_MAX_BYTES): ReadResult {
  const at = containedPath(root, rel, 'the .omc root');
  if (!at.ok) return at;
  let real = at.path;
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
  let fd: number;
  try {
    fd = fs.openSync(real, flags | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOOP') return { ok: false, ...describeErrno(err) };
    // The file itself is a symlink: follow it only if it stays inside the root.
    try {
      real = fs.realpathSync.native(real);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') return { ok: false, ...describeLinkChain(real) };
      return { ok: false, ...describeErrno(e) };
    }
    if (!isInside(realRoot(root), real)) {
      return {
        ok: false,
        code: 'outside-root',
        message: `symlink points outside the .omc root (to ${quotePath(real)}); not read`,
      };
    }
    try {
      // The resolved path has no symlink left in it: one there now was swapped in after realpath.
      fd = fs.openSync(real, flags | (fs.constants.O_NOFOLLOW ?? 0));
    } catch (e) {
      return { ok: false, ...describeErrno(e) };
    }
  }
  return readOpenFile(fd, maxBytes);
}

function readToEnd(fd: number, first: Buffer, maxBytes: number): Buffer {
  const chunks = [Buffer.from(first)];
  let total = first.length;
  const chunk = Buffer.allocUnsafe(64 * 1024);
  while (total <= maxBytes) {
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, n)));
    total += n;
  }
  return Buffer.concat(chunks);
}

function fileKind(st: fs.Stats): string {
  if (st.isFIFO()) return 'a FIFO, a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a plain file';
}

/**
 * Reads an open descriptor: a regular file (checked on the descriptor, so a
 * FIFO, socket or device swapped in after any path check is still refused),
 * at most `maxBytes`, decoded as UTF-8. Closes the descriptor.
 */
function readOpenFile(fd: number, maxBytes: number): ReadResult {
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) {
      return {
        ok: false,
        code: 'not-a-file',
        message: st.isDirectory()
          ? 'is a directory where a file was expected'
          : `is not a regular file (${fileKind(st)})`,
      };
    }
    if (st.size > maxBytes) {
      return {
        ok: false,
        code: 'too-large',
        message: `file is ${formatBytes(st.size)}, over the ${formatBytes(maxBytes)} limit; not read`,
      };
    }
    // procfs and sysfs report size 0 for files that have content, and some of them (sysctls) return
    // end-of-file after a short first read: give those one buffer large enough for a whole page.
    let buf = readBuffer(st.size > 0 ? Math.min(st.size, maxBytes) + 1 : Math.min(maxBytes, 4095) + 1);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    // Size 0 on a file that has bytes: procfs (/proc/<pid>/stat, /proc/stat) reports no size. Read on
    // to the end, still capped.
    if (st.size === 0 && got > 0) {
      buf = readToEnd(fd, buf.subarray(0, got), maxBytes);
      got = buf.length;
    }
    if (got > maxBytes) {
      return {
        ok: false,
        code: 'too-large',
        message: `file grew past the ${formatBytes(maxBytes)} limit while being read`,
      };
    }
    const bytes = buf.subarray(0, got);
    if (bytes.includes(0)) {
      return { ok: false, code: 'binary', message: 'contains NUL bytes (binary data, not text); not read' };
    }
    let text: string;
    let invalidUtf8 = false;
    try {
      text = fatalDecoder.decode(bytes);
    } catch {
      text = lenientDecoder.decode(bytes);
      invalidUtf8 = true;
    }
    let bom = false;
    if (text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      bom = true;
    }
    return { ok: true, text, bytes: got, mtimeMs: st.mtimeMs, ino: st.ino, invalidUtf8, bom };
  } catch (err) {
    return { ok: false, ...describeErrno(err) };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads a small file at an absolute path that must not be a symlink at all
 * (lock files, the names a ContainedDir hands out): O_NONBLOCK so a FIFO
 * cannot hang us, O_NOFOLLOW so a link to /dev/zero or outside is refused,
 * then the same descriptor checks and size cap as every other read.
 */
export function readNoFollowSync(abs: string, maxBytes: number): ReadResult {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      return { ok: false, code: 'not-a-file', message: 'is a symlink where a file was expected; not read' };
    return { ok: false, ...describeErrno(err) };
  }
  return readOpenFile(fd, maxBytes);
}

export type JsonResult =
  | { ok: true; value: unknown; read: ReadOk }
  | { ok: false; code: ReadFailureCode | 'invalid-json' | 'empty'; message: string };

/** Reads and parses a JSON file; the failure message says what is wrong in words a user can act on. */
export function readJsonSync(root: string, rel: string, maxBytes = STATE_FILE_MAX_BYTES): JsonResult {
  const r = readTextSync(root, rel, maxBytes);
  if (!r.ok) return r;
  return parseJsonText(r.text, r);
}

export function parseJsonText(text: string, read: ReadOk): JsonResult {
  if (text.trim() === '') return { ok: false, code: 'empty', message: 'file is empty (probably caught mid-write)' };
  try {
    return { ok: true, value: JSON.parse(text), read };
  } catch (e) {
    // V8 quotes the text around the error, which is file content: clean it like any other.
    const detail = cleanLine((e as Error).message)
      .replace(/\s+/g, ' ')
      .slice(0, 120);
    // A file cut mid-write fails where the text ends ("{", or after a comma): that is truncation, not a typo.
    const at = /at position (\d+)/.exec(detail);
    const truncated =
      /end of (JSON )?input|Unterminated/i.test(detail) || (at !== null && Number(at[1]) >= text.trimEnd().length);
    return {
      ok: false,
      code: 'invalid-json',
      message: truncated ? `truncated JSON (${read.bytes} bytes; ${detail})` : `invalid JSON (${detail})`,
    };
  }
}

export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  /**
   * The name on disk is not valid UTF-8: `name` shows the bad bytes as U+FFFD
   * and cannot be used to open the entry. Domains report it instead of letting
   * it vanish.
   */
  invalidName?: true;
}

/** Names (as decoded) whose bytes on disk are not valid UTF-8; only looked for when a name holds U+FFFD. */
function invalidNames(abs: string, names: string[]): Set<string> {
  const out = new Set<string>();
  if (!names.some((n) => n.includes('\ufffd'))) return out;
  try {
    for (const raw of fs.readdirSync(abs, { encoding: 'buffer' })) {
      try {
        fatalDecoder.decode(raw);
      } catch {
        out.add(lenientDecoder.decode(raw));
      }
    }
  } catch {
    /* gone meanwhile: the listing itself stands */
  }
  return out;
}

/**
 * Lists a directory under root. Missing → `code: 'missing'`; never throws.
 * A directory that is (or sits under) a symlink leading out of the root is
 * not listed: the names in it are outside the root too.
 */
export function listDirSync(
  root: string,
  rel: string,
): { ok: true; entries: DirEntry[] } | { ok: false; code: ReadFailureCode; message: string } {
  let abs: string;
  try {
    abs = resolveUnder(root, rel);
  } catch (e) {
    return { ok: false, code: 'outside-root', message: (e as Error).message };
  }
  // Resolved fresh, not from the cache: a directory swapped for a symlink a moment ago would
  // otherwise be listed through it for up to a second (and the fresh answer re-primes the cache
  // for the reads that follow the listing).
  const real = realDir(abs, true);
  if (real !== null && !isInside(realRoot(root), real)) {
    return {
      ok: false,
      code: 'outside-root',
      message: `directory is a symlink to outside the .omc root (${quotePath(real)}); not listed`,
    };
  }
  try {
    const dirents = fs.readdirSync(abs, { withFileTypes: true });
    const bad = invalidNames(
      abs,
      dirents.map((d) => d.name),
    );
    return {
      ok: true,
      entries: dirents.map((d) => {
        const e: DirEntry = {
          name: d.name,
          kind: d.isFile() ? 'file' : d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'symlink' : 'other',
        };
        if (bad.has(d.name)) e.invalidName = true;
        return e;
      }),
    };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOTDIR')
      return { ok: false, code: 'not-a-file', message: 'is a file where a directory was expected' };
    return { ok: false, ...describeErrno(err) };
  }
}

/** lstat that never throws. */
export function statSync(root: string, rel: string): fs.Stats | null {
  try {
    return fs.lstatSync(resolveUnder(root, rel));
  } catch {
    return null;
  }
}

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
      throw new Error(`refusing to use ${JSON.stringify(quotePath(name))} as a file name`);
    if (this.fd === null) throw new Error('directory already closed');
    if (PROC_FD) return `/proc/self/fd/${this.fd}/${name}`;
    let st: fs.Stats;
    try {
      st = fs.statSync(fs.realpathSync.native(this.real));
    } catch {
      throw new OutsideRootError(this.real);
    }
    if (st.ino !== this.ino || fs.realpathSync.native(this.real) !== this.real) throw new OutsideRootError(this.real);
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

  /** fsync of the directory itself (after a rename), best effort as in OMC. */
  sync(): void {
    try {
      if (this.fd !== null) fs.fsyncSync(this.fd);
    } catch {
      /* best effort */
    }
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
const DIR_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);
/** How many symlinked components (inside the root) one open may resolve before giving up. */
const MAX_DIR_LINKS = 16;

function openDirFd(p: string): number {
  const fd = fs.openSync(p, DIR_FLAGS);
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
 * Opens `relDir` under root without following any symlink on the way, except
 * one that resolves inside the real root (then the walk restarts along its real
 * path). `create` makes missing levels (mode 0700), each inside the level just
 * opened. Throws OutsideRootError for a way out, ENOENT / ENOTDIR otherwise.
 */
export function openDirUnder(root: string, relDir: string, opts: { create?: boolean } = {}): ContainedDir {
  const abs = resolveUnder(root, relDir);
  let rr: string;
  try {
    rr = fs.realpathSync.native(root);
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
              fs.mkdirSync(here, { mode: 0o700 });
            } catch (m) {
              if ((m as NodeJS.ErrnoException).code !== 'EEXIST') throw m;
            }
            i--; // open what is there now (ours, or a racer's: checked the same way)
            continue;
          }
          if (code === 'ENOENT') throw dirGone(e, path.join(cur, name));
          if (code !== 'ENOTDIR' && code !== 'ELOOP') throw e;
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
            target = fs.realpathSync.native(here);
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
  opts: { create?: boolean } = {},
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

/** The target of a write must not be a symlink (we would replace the link) or a directory. */
function assertReplaceable(dir: ContainedDir, name: string, rel: string): void {
  try {
    const st = fs.lstatSync(dir.at(name));
    if (st.isSymbolicLink()) throw new Error(`refusing to write ${quotePath(rel)}: it is a symlink`);
    if (st.isDirectory()) throw new Error(`refusing to write ${quotePath(rel)}: it is a directory`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** mkdir -p for a directory under root: every level made inside the one just opened, never through a symlink out. */
/**
 * Creates one of omc-top's own directories (its state under $XDG_STATE_HOME), which is the root of later
 * contained writes and so cannot itself be created under one: mode 0700, and refused when the path that
 * exists is not a real directory (a symlink planted there would redirect every later write).
 */
export function ensureOwnDir(abs: string): void {
  fs.mkdirSync(abs, { recursive: true, mode: 0o700 });
  if (!fs.lstatSync(abs).isDirectory()) throw new OutsideRootError(abs);
}

export function ensureDirUnder(root: string, relDir: string): string {
  const abs = resolveUnder(root, relDir);
  openDirUnder(root, relDir, { create: true }).close();
  return abs;
}

/** Creates a new file `name` (O_EXCL, no-follow, 0600) in `dir`; returns its descriptor. */
export function createExclusive(dir: ContainedDir, name: string): number {
  return fs.openSync(
    dir.at(name),
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
    0o600,
  );
}

/**
 * Atomic replace in OMC's own way (src/lib/atomic-write.ts): temp file in the
 * same directory named `.<name>.tmp.<uuid>`, created O_EXCL mode 0600, fully
 * written and fsynced, renamed over the target, then the directory fsynced.
 * Readers see the old bytes or the new bytes, never a mix. We use OMC's temp
 * naming (not write-file-atomic's `<name>.<hash>`) so OMC's session-end sweep
 * and every watcher that already ignores OMC's temps also ignore ours. The
 * temp, the rename and the cleanup all happen in the one directory held open.
 */
export function atomicWriteSync(root: string, rel: string, content: string, opts: { mkdir?: boolean } = {}): void {
  const abs = resolveUnder(root, rel);
  const name = path.basename(abs);
  const data = Buffer.from(content, 'utf8');
  withDirUnder(
    root,
    path.dirname(toRel(root, abs)) || '.',
    (dir) => {
      assertReplaceable(dir, name, rel);
      const tmp = `.${name}.tmp.${randomUUID()}`;
      let fd: number | null = null;
      try {
        fd = createExclusive(dir, tmp);
        let off = 0;
        while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off);
        if (fs.fstatSync(fd).size !== data.length) throw new Error('short write');
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        fd = null;
        fs.renameSync(dir.at(tmp), dir.at(name));
      } catch (e) {
        discardTemp(fd, dir.at(tmp));
        throw e;
      }
      dir.sync();
    },
    { create: opts.mkdir },
  );
}

/** Best-effort cleanup after a failed or finished temp-file write: close the descriptor if open, remove the temp. */
export function discardTemp(fd: number | null, tmp: string): void {
  if (fd !== null) {
    try {
      fs.closeSync(fd);
    } catch {
      /* already failing */
    }
  }
  try {
    fs.unlinkSync(tmp);
  } catch {
    /* never created, or already renamed */
  }
}

/**
 * Deletes a file under root; missing is fine. The unlink happens in the
 * directory held open (see ContainedDir) and never follows a symlink: a
 * symlinked directory on the way out of the root is refused, a symlink as the
 * last component is removed itself, a directory is not removed.
 */
export function unlinkUnder(root: string, rel: string): boolean {
  const abs = resolveUnder(root, rel);
  try {
    return withDirUnder(root, path.dirname(toRel(root, abs)) || '.', (dir) => {
      fs.unlinkSync(dir.at(path.basename(abs)));
      return true;
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Human-readable reason for a failed write, with the errno a user can search for. */
export function describeWriteError(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { missingDir?: string };
  const missing = err?.missingDir ? quotePath(err.missingDir) : undefined;
  switch (err?.code) {
    case 'ENOSPC':
      return 'disk full (ENOSPC): nothing was changed; your draft is kept';
    case 'EROFS':
      return 'read-only filesystem (EROFS): nothing was changed; your draft is kept';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${err.code}): nothing was changed; your draft is kept`;
    case 'EDQUOT':
      return 'disk quota exceeded (EDQUOT): nothing was changed; your draft is kept';
    case 'ENOENT':
      // The directory was deleted under us (rm -rf .omc, a branch switch); say which one.
      return `directory gone (ENOENT: ${missing ?? (err.path ? path.dirname(err.path) : 'no such file or directory')}): nothing was changed; your draft is kept`;
    default:
      return err instanceof Error ? err.message : String(e);
  }
}

export type RangeResult =
  | { ok: true; bytes: Buffer; from: number; size: number; ino: number; mtimeMs: number }
  | { ok: false; code: ReadFailureCode; message: string };

/**
 * Reads bytes [from, from+maxBytes) of a file under root, with readTextSync's guarantees
 * (lexical and symlink containment, O_NONBLOCK so a FIFO never hangs, regular files only).
 * `pickStart` sees the file's size and inode before anything is read, so an incremental
 * reader can start over when the file was replaced or truncated. Growing logs (Claude's
 * transcripts) are read this way: the cost is the new bytes, not the file size.
 */
export function readRangeSync(
  root: string,
  rel: string,
  pickStart: (size: number, ino: number) => number,
  maxBytes: number,
  /** Read into this buffer (reused by the caller; the result is only valid until its next read). */
  into?: Buffer,
): RangeResult {
  const at = containedPath(root, rel, 'the root');
  if (!at.ok) return at;
  let fd: number;
  try {
    // A symlinked log is refused outright: following it is never needed for a file a program appends to.
    fd = fs.openSync(at.path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      return { ok: false, code: 'outside-root', message: 'is a symlink; not followed' };
    return { ok: false, ...describeErrno(err) };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { ok: false, code: 'not-a-file', message: 'is not a regular file' };
    const from = Math.max(0, Math.min(st.size, Math.floor(pickStart(st.size, st.ino))));
    const len = Math.max(0, Math.min(maxBytes, st.size - from, into ? into.length : Infinity));
    const buf = into ? into.subarray(0, len) : Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = fs.readSync(fd, buf, got, len - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return { ok: true, bytes: buf.subarray(0, got), from, size: st.size, ino: st.ino, mtimeMs: st.mtimeMs };
  } catch (err) {
    return { ok: false, ...describeErrno(err) };
  } finally {
    fs.closeSync(fd);
  }
}

// ---- history (issue 17): incremental reads of append-only logs and one-write appends ----

export type LogTailResult =
  | { ok: true; text: string; start: number; size: number; ino: number; mtimeMs: number; invalidUtf8: boolean }
  | ReadFailure;

/**
 * Reads bytes [from, size) of an append-only log under root (a JSONL ledger),
 * at most `maxBytes` of them: when more were appended, only the last
 * `maxBytes` are returned and `start` says where they begin. Same containment
 * as readTextSync, except that a symlinked log is refused rather than followed
 * (OMC appends to the path itself). `size` and `ino` let the caller notice a
 * truncation or a replaced file and start over. Never throws.
 */
export function readLogTailSync(root: string, rel: string, from: number, maxBytes: number): LogTailResult {
  // From `from`, or from the last `maxBytes` when more were appended; from 0 when the file shrank (rotated).
  const r = readRangeSync(root, rel, (size) => Math.max(from > size ? 0 : from, size - maxBytes), maxBytes);
  if (!r.ok) return r;
  let text: string;
  let invalidUtf8 = false;
  try {
    text = fatalDecoder.decode(r.bytes);
  } catch {
    text = lenientDecoder.decode(r.bytes);
    invalidUtf8 = true;
  }
  return {
    ok: true,
    text,
    start: r.from,
    size: r.from + r.bytes.length,
    ino: r.ino,
    mtimeMs: r.mtimeMs,
    invalidUtf8,
  };
}

/**
 * Appends one record to a log under root in a single write(2) on an O_APPEND
 * descriptor, as OMC's appendFileSync does (no lock: concurrent appenders of
 * one short line do not interleave). The directory must already exist and be
 * inside the real root; a symlinked target is refused. Throws on failure.
 */
export function appendUnderSync(root: string, rel: string, text: string): void {
  const abs = resolveUnder(root, rel);
  // The directory is held open (ContainedDir), so a parent swapped for a symlink cannot redirect the append.
  withDirUnder(root, toRel(root, path.dirname(abs)), (dir) => {
    const fd = fs.openSync(
      dir.at(path.basename(abs)),
      fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    try {
      if (!fs.fstatSync(fd).isFile()) throw new Error(`refusing to append to ${toRel(root, abs)}: not a regular file`);
      const data = Buffer.from(text, 'utf8');
      const n = fs.writeSync(fd, data, 0, data.length);
      if (n !== data.length) throw new Error(`short append to ${toRel(root, abs)} (${n} of ${data.length} bytes)`);
    } finally {
      fs.closeSync(fd);
    }
  });
}
