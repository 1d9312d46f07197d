/**
 * Safe reads: non-blocking (a FIFO never hangs), no-follow unless the link stays inside the root, regular
 * files only (checked on the descriptor), size-capped, decoded as UTF-8. Never throws.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cleanLine } from '../sanitize.js';
import { describeErrno, describeLinkChain, fileKind, formatBytes } from './errors.js';
import { containedByName, containedPath, isInside, quotePath, realRoot } from './paths.js';
import type { ReadFailure, ReadFailureCode, ReadOk, ReadResult } from './types.js';
import { fatalDecoder, lenientDecoder } from './utf8.js';
import { READ_FLAGS } from './open.js';
import { realpathText } from './byte-paths.js';

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

/** How a read treats its bytes. */
export interface ReadOptions {
  /**
   * NUL bytes are part of the text: they separate fields (a process's /proc/<pid>/cmdline, for the caller to split
   * on), or the file's own reader takes them as characters (OMC reads a wiki page with NULs in it like any other).
   * Otherwise a NUL means binary data and the file is refused.
   */
  keepNul?: boolean;
  /** What the root is called in a refusal ("symlink points outside <it>"); default "the .omc root". */
  rootLabel?: string;
  /**
   * The file is the user's own (omc-top's config file), not a file another program writes under a root: a
   * symlink as its last part is followed wherever it points (home-manager and stow link into /nix/store or a
   * dotfiles repo). The rest holds as for every read: never waiting on a FIFO, regular files only (a FIFO or
   * a device at the end of the link is refused before it is opened, and again on the descriptor), size-capped.
   */
  followLink?: boolean;
}

/**
 * Reads a text file under `root`. Follows a symlink only when its target is
 * still inside the root. Never throws.
 */
export function readTextSync(
  root: string,
  rel: string,
  maxBytes = STATE_FILE_MAX_BYTES,
  opts: ReadOptions = {},
): ReadResult {
  const rootLabel = opts.rootLabel ?? 'the .omc root';
  const at = containedPath(root, rel, rootLabel);
  if (!at.ok) return at;
  let real = at.path;
  let fd: number;
  try {
    fd = fs.openSync(real, READ_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOOP') return { ok: false, ...describeErrno(err) };
    // The file itself is a symlink: follow it only if it stays inside the root (or the caller reads its own file).
    try {
      real = realpathText(real);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') return { ok: false, ...describeLinkChain(real) };
      // The user's own link that leads nowhere is a mistake to name, not a file that is simply not there yet.
      if (opts.followLink && (e as NodeJS.ErrnoException).code === 'ENOENT') return danglingLink(real);
      return { ok: false, ...describeErrno(e) };
    }
    if (opts.followLink) {
      const refused = notRegularTarget(real);
      if (refused) return refused;
    } else if (!isInside(realRoot(root), real)) {
      return {
        ok: false,
        code: 'outside-root',
        message: `symlink points outside ${rootLabel} (to ${quotePath(real)}); not read`,
      };
    }
    try {
      // The resolved path has no symlink left in it: one there now was swapped in after realpath.
      fd = fs.openSync(real, READ_FLAGS);
    } catch (e) {
      return { ok: false, ...describeErrno(e) };
    }
  }
  return readOpenFile(fd, maxBytes, opts);
}

/**
 * Reads the file named by the bytes `name` in the directory `relDir` under `root`: a name that is not UTF-8
 * (listDirSync gives its bytes as DirEntry.nameBytes) has no text path that opens it. The same checks as
 * readTextSync, except that a symlink so named is refused, not followed: following one is checked by its target's
 * real path, and the way to it is a name no text path holds.
 */
export function readTextByNameSync(
  root: string,
  relDir: string,
  name: Buffer,
  maxBytes = STATE_FILE_MAX_BYTES,
  opts: ReadOptions = {},
): ReadResult {
  const at = containedByName(root, relDir, name, opts.rootLabel ?? 'the .omc root');
  if (!at.ok) return at;
  let fd: number;
  try {
    fd = fs.openSync(at.path, READ_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      return { ok: false, code: 'not-a-file', message: 'is a symlink whose name is not UTF-8; not followed' };
    return { ok: false, ...describeErrno(err) };
  }
  return readOpenFile(fd, maxBytes, opts);
}

/**
 * The end of a followed link, looked at before it is opened: opening a device can itself do something (a tape
 * rewinds, a terminal becomes ours), so a link to one is refused unopened. The descriptor check still follows.
 */
function notRegularTarget(real: string): ReadFailure | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(real);
  } catch (e) {
    return { ok: false, ...describeErrno(e) };
  }
  if (st.isFile()) return null;
  return {
    ok: false,
    code: 'not-a-file',
    message: st.isDirectory()
      ? `is a symlink to a directory (${quotePath(real)}) where a file was expected; not read`
      : `is a symlink to ${fileKind(st)} (${quotePath(real)}), not a regular file; not read`,
  };
}

function danglingLink(link: string): ReadFailure {
  let target = '?';
  try {
    target = fs.readlinkSync(link);
  } catch {
    // gone between the two calls: the words below still hold
  }
  return {
    ok: false,
    code: 'io',
    message: `is a symlink to ${quotePath(path.resolve(path.dirname(link), target))}, which does not exist; not read`,
  };
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

/**
 * Reads an open descriptor: a regular file (checked on the descriptor, so a
 * FIFO, socket or device swapped in after any path check is still refused),
 * at most `maxBytes`, decoded as UTF-8. Closes the descriptor.
 */
function readOpenFile(fd: number, maxBytes: number, opts: ReadOptions = {}): ReadResult {
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
    // The byte past the stated size is looked for only at the cap (to tell a file that grew past it): below
    // it, the size fstat gave is the file this read stands for (its stamp), and asking the kernel once more
    // for the end-of-file it already implied was one read() in two at start-up (9,000 at 2,000 + 5,000).
    const enough = st.size > 0 && st.size < maxBytes ? st.size : buf.length;
    let got = 0;
    while (got < enough) {
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
    if (!opts.keepNul && bytes.includes(0)) {
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
    return {
      ok: true,
      text,
      bytes: got,
      mtimeMs: st.mtimeMs,
      ctimeMs: st.ctimeMs,
      ino: st.ino,
      dev: st.dev,
      invalidUtf8,
      bom,
      uid: st.uid,
      mode: st.mode,
      nlink: st.nlink,
    };
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
export function readJsonSync(
  root: string,
  rel: string,
  maxBytes = STATE_FILE_MAX_BYTES,
  opts: ReadOptions = {},
): JsonResult {
  const r = readTextSync(root, rel, maxBytes, opts);
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
