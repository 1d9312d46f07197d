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

/** True when `child` is `parent` or lies inside it (both absolute, already resolved). */
export function isInside(parent: string, child: string): boolean {
  // Both sides normalised by path.resolve, so a prefix test is exact and cheap
  // (path.relative was a visible share of scanning 4,000 files).
  const p = path.resolve(parent);
  const c = path.resolve(child);
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
function realDir(dir: string, fresh = false): string | null {
  const now = Date.now();
  const hit = dirCache.get(dir);
  if (!fresh && hit && now - hit.at < DIR_CACHE_MS) return hit.real;
  let real: string | null;
  try {
    real = fs.realpathSync.native(dir);
  } catch {
    real = null;
  }
  if (dirCache.size > 10_000) dirCache.clear();
  dirCache.set(dir, { real, at: now });
  return real;
}

function realRoot(root: string): string {
  return realDir(root) ?? path.resolve(root);
}

/** Resolves `rel` under `root` lexically and rejects `..` escapes before touching the disk. */
export function resolveUnder(root: string, rel: string): string {
  const abs = path.resolve(root, rel);
  if (!isInside(path.resolve(root), abs)) throw new OutsideRootError(rel);
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
    default:
      return { code: 'io', message: `read failed (${e?.code ?? String(err)})` };
  }
}

/**
 * Reads a text file under `root`. Follows a symlink only when its target is
 * still inside the root. Never throws.
 */
export function readTextSync(root: string, rel: string, maxBytes = STATE_FILE_MAX_BYTES): ReadResult {
  let abs: string;
  try {
    abs = resolveUnder(root, rel);
  } catch (e) {
    return { ok: false, code: 'outside-root', message: (e as Error).message };
  }
  const parent = realDir(path.dirname(abs));
  if (parent === null) return { ok: false, code: 'missing', message: 'file vanished before it could be read' };
  let real = path.join(parent, path.basename(abs));
  if (!isInside(realRoot(root), parent)) {
    return {
      ok: false,
      code: 'outside-root',
      message: `directory is a symlink to outside the .omc root (${quotePath(parent)}); not read`,
    };
  }
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
      fd = fs.openSync(real, flags);
    } catch (e) {
      return { ok: false, ...describeErrno(e) };
    }
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) {
      return {
        ok: false,
        code: 'not-a-file',
        message: st.isDirectory() ? 'is a directory where a file was expected' : 'is not a regular file',
      };
    }
    if (st.size > maxBytes) {
      return {
        ok: false,
        code: 'too-large',
        message: `file is ${formatBytes(st.size)}, over the ${formatBytes(maxBytes)} limit; not read`,
      };
    }
    // procfs and sysfs report size 0 for files that have content: read those in
    // growing steps up to the cap, instead of sizing the buffer from stat.
    const sizeKnown = st.size > 0;
    let buf = readBuffer(sizeKnown ? Math.min(st.size, maxBytes) + 1 : Math.min(maxBytes, 4095) + 1);
    let got = 0;
    for (;;) {
      while (got < buf.length) {
        const n = fs.readSync(fd, buf, got, buf.length - got, null);
        if (n === 0) break;
        got += n;
      }
      if (sizeKnown || got < buf.length || buf.length > maxBytes) break;
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
      buf.copy(bigger, 0, 0, got);
      buf = bigger;
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
    return {
      ok: true,
      entries: dirents.map((d) => ({
        name: d.name,
        kind: d.isFile() ? 'file' : d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'symlink' : 'other',
      })),
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
 * Checks that the directory that will receive a write is inside the real root
 * (catches a session dir that is a symlink to somewhere else) and that the
 * target itself is not a symlink we would write through.
 */
function assertWritableTarget(root: string, abs: string): void {
  const rr = realRoot(root);
  const parent = path.dirname(abs);
  const realParent = fs.realpathSync.native(parent);
  if (!isInside(rr, realParent)) throw new OutsideRootError(toRel(root, abs));
  try {
    const st = fs.lstatSync(abs);
    if (st.isSymbolicLink()) {
      throw new Error(`refusing to write ${toRel(root, abs)}: it is a symlink`);
    }
    if (st.isDirectory()) throw new Error(`refusing to write ${toRel(root, abs)}: it is a directory`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** mkdir -p for a directory under root, checking each level stays inside the real root. */
export function ensureDirUnder(root: string, relDir: string): string {
  const abs = resolveUnder(root, relDir);
  fs.mkdirSync(abs, { recursive: true, mode: 0o700 });
  const real = fs.realpathSync.native(abs);
  if (!isInside(realRoot(root), real)) throw new OutsideRootError(relDir);
  return abs;
}

/**
 * Atomic replace in OMC's own way (src/lib/atomic-write.ts): temp file in the
 * same directory named `.<name>.tmp.<uuid>`, created O_EXCL mode 0600, fully
 * written and fsynced, renamed over the target, then the directory fsynced.
 * Readers see the old bytes or the new bytes, never a mix. We use OMC's temp
 * naming (not write-file-atomic's `<name>.<hash>`) so OMC's session-end sweep
 * and every watcher that already ignores OMC's temps also ignore ours.
 */
export function atomicWriteSync(root: string, rel: string, content: string, opts: { mkdir?: boolean } = {}): void {
  const abs = resolveUnder(root, rel);
  if (opts.mkdir) ensureDirUnder(root, path.dirname(rel) || '.');
  assertWritableTarget(root, abs);
  const dir = path.dirname(abs);
  const tmp = path.join(dir, `.${path.basename(abs)}.tmp.${randomUUID()}`);
  const data = Buffer.from(content, 'utf8');
  let fd: number | null = null;
  try {
    fd = fs.openSync(tmp, 'wx', 0o600);
    let off = 0;
    while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off);
    if (fs.fstatSync(fd).size !== data.length) throw new Error('short write');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(tmp, abs);
  } catch (e) {
    discardTemp(fd, tmp);
    throw e;
  }
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    /* directory fsync is best effort, as in OMC */
  }
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

/** Deletes a file under root; missing is fine. Refuses symlinked parents that leave the root. */
export function unlinkUnder(root: string, rel: string): boolean {
  const abs = resolveUnder(root, rel);
  try {
    const realParent = fs.realpathSync.native(path.dirname(abs));
    if (!isInside(realRoot(root), realParent)) throw new OutsideRootError(rel);
    fs.unlinkSync(abs);
    return true;
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
  const err = e as NodeJS.ErrnoException;
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
      return `directory gone (ENOENT: ${err.path ? path.dirname(err.path) : 'no such file or directory'}): nothing was changed; your draft is kept`;
    default:
      return err instanceof Error ? err.message : String(e);
  }
}

// ---- history (issue 17): incremental reads of append-only logs and one-write appends ----

export type RangeResult =
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
export function readRangeSync(root: string, rel: string, from: number, maxBytes: number): RangeResult {
  let abs: string;
  try {
    abs = resolveUnder(root, rel);
  } catch (e) {
    return { ok: false, code: 'outside-root', message: (e as Error).message };
  }
  const parent = realDir(path.dirname(abs));
  if (parent === null) return { ok: false, code: 'missing', message: 'file vanished before it could be read' };
  if (!isInside(realRoot(root), parent))
    return {
      ok: false,
      code: 'outside-root',
      message: `directory is a symlink to outside the .omc root (${quotePath(parent)}); not read`,
    };
  let fd: number;
  try {
    fd = fs.openSync(
      path.join(parent, path.basename(abs)),
      fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0),
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      return { ok: false, code: 'outside-root', message: 'is a symlink; an append-only log is read only in place' };
    return { ok: false, ...describeErrno(err) };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { ok: false, code: 'not-a-file', message: 'is not a regular file' };
    const size = st.size;
    const begin = Math.max(from > size ? 0 : from, size - maxBytes);
    const buf = Buffer.allocUnsafe(Math.max(0, size - begin));
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, begin + got);
      if (n === 0) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    let text: string;
    let invalidUtf8 = false;
    try {
      text = fatalDecoder.decode(bytes);
    } catch {
      text = lenientDecoder.decode(bytes);
      invalidUtf8 = true;
    }
    return { ok: true, text, start: begin, size: begin + got, ino: st.ino, mtimeMs: st.mtimeMs, invalidUtf8 };
  } catch (err) {
    return { ok: false, ...describeErrno(err) };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Appends one record to a log under root in a single write(2) on an O_APPEND
 * descriptor, as OMC's appendFileSync does (no lock: concurrent appenders of
 * one short line do not interleave). The directory must already exist and be
 * inside the real root; a symlinked target is refused. Throws on failure.
 */
export function appendUnderSync(root: string, rel: string, text: string): void {
  const abs = resolveUnder(root, rel);
  const realParent = fs.realpathSync.native(path.dirname(abs));
  if (!isInside(realRoot(root), realParent)) throw new OutsideRootError(rel);
  const fd = fs.openSync(
    path.join(realParent, path.basename(abs)),
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
}
