/**
 * Incremental reads of files that grow (Claude's transcripts, append-only JSONL logs): a byte range, or the
 * tail from an offset, with the same containment as every read.
 */
import fs from 'node:fs';
import { describeErrno } from './errors.js';
import { openRegularSync } from './open.js';
import type { ReadFailure, ReadFailureCode } from './types.js';
import { fatalDecoder, lenientDecoder } from './utf8.js';

/**
 * The newlines in a part of a file that was not read: how many, and where the last one is (-1: none), so a
 * reader of a file's tail still knows the file's own line numbers. null: the part was longer than allowed and
 * was not counted.
 */
export type NewlineCount = { newlines: number; lastAt: number } | null;

export type RangeResult =
  | {
      ok: true;
      bytes: Buffer;
      from: number;
      size: number;
      ino: number;
      mtimeMs: number;
      /** Set when a count was asked for and bytes before `from` were passed over. */
      skipped?: NewlineCount;
    }
  | { ok: false; code: ReadFailureCode; message: string };

/** Fills `buf` from `at`; how many bytes were read (fewer at the end of the file). */
function readAt(fd: number, buf: Buffer, at: number): number {
  let got = 0;
  while (got < buf.length) {
    const n = fs.readSync(fd, buf, got, buf.length - got, at + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

const COUNT_CHUNK = 1024 * 1024;

/** A byte scan, no decoding: cheap enough for tens of MB, bounded by `upTo`. */
function countNewlines(fd: number, from: number, to: number, upTo: number): NewlineCount {
  if (to - from > upTo) return null;
  const buf = Buffer.allocUnsafe(Math.min(COUNT_CHUNK, to - from));
  let newlines = 0;
  let lastAt = -1;
  for (let at = from; at < to;) {
    const got = readAt(fd, buf.subarray(0, Math.min(buf.length, to - at)), at);
    if (got === 0) return null; // shrank under us: the count would not describe the file
    for (let i = buf.indexOf(10, 0); i !== -1 && i < got; i = buf.indexOf(10, i + 1)) {
      newlines += 1;
      lastAt = at + i;
    }
    at += got;
  }
  return { newlines, lastAt };
}

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
  /** Also count the newlines in [from(size), start) when that part is at most `upTo` bytes (see NewlineCount). */
  count?: { from(size: number): number; upTo: number },
): RangeResult {
  // A symlinked log is refused outright: following it is never needed for a file a program appends to.
  const o = openRegularSync(root, rel, { symlink: { code: 'outside-root', message: 'is a symlink; not followed' } });
  if (!o.ok) return o;
  const { fd, st } = o;
  try {
    const from = Math.max(0, Math.min(st.size, Math.floor(pickStart(st.size, st.ino))));
    const len = Math.max(0, Math.min(maxBytes, st.size - from, into ? into.length : Infinity));
    const buf = into ? into.subarray(0, len) : Buffer.allocUnsafe(len);
    const got = readAt(fd, buf, from);
    // Counted in the same open as the read, so the count and the bytes describe the same file.
    const countFrom = count ? Math.max(0, count.from(st.size)) : from;
    const skipped = count && from > countFrom ? countNewlines(fd, countFrom, from, count.upTo) : undefined;
    return {
      ok: true,
      bytes: buf.subarray(0, got),
      from,
      size: st.size,
      ino: st.ino,
      mtimeMs: st.mtimeMs,
      ...(skipped !== undefined ? { skipped } : {}),
    };
  } catch (err) {
    return { ok: false, ...describeErrno(err) };
  } finally {
    fs.closeSync(fd);
  }
}

export type LogTailResult =
  | {
      ok: true;
      text: string;
      start: number;
      size: number;
      ino: number;
      mtimeMs: number;
      invalidUtf8: boolean;
      /** The newlines in [from, start) when bytes were passed over and `countSkippedUpTo` allowed it. */
      skipped?: NewlineCount;
      /** With `skipped`: the file offset of the first newline read (start - 1: none read). */
      firstNewlineAt?: number;
    }
  | ReadFailure;

/**
 * Reads bytes [from, size) of an append-only log under root (a JSONL ledger),
 * at most `maxBytes` of them: when more were appended, only the last
 * `maxBytes` are returned and `start` says where they begin. Same containment
 * as readTextSync, except that a symlinked log is refused rather than followed
 * (OMC appends to the path itself). `size` and `ino` let the caller notice a
 * truncation or a replaced file and start over. Never throws.
 */
export function readLogTailSync(
  root: string,
  rel: string,
  from: number,
  maxBytes: number,
  /** Count the newlines in a passed-over part up to this many bytes (0: never). */
  countSkippedUpTo = 0,
): LogTailResult {
  // From `from`, or from the last `maxBytes` when more were appended; from 0 when the file shrank (rotated).
  const readFrom = (size: number) => (from > size ? 0 : from);
  const r = readRangeSync(
    root,
    rel,
    (size) => Math.max(readFrom(size), size - maxBytes),
    maxBytes,
    undefined,
    countSkippedUpTo > 0 ? { from: readFrom, upTo: countSkippedUpTo } : undefined,
  );
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
    ...(r.skipped !== undefined ? { skipped: r.skipped, firstNewlineAt: r.from + r.bytes.indexOf(10) } : {}),
  };
}
