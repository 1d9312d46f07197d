/**
 * Incremental reads of files that grow (Claude's transcripts, append-only JSONL logs): a byte range, or the
 * tail from an offset, with the same containment as every read.
 */
import fs from 'node:fs';
import { describeErrno } from './errors.js';
import { openRegularSync } from './open.js';
import type { ReadFailure, ReadFailureCode } from './types.js';
import { fatalDecoder, lenientDecoder } from './utf8.js';

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
  // A symlinked log is refused outright: following it is never needed for a file a program appends to.
  const o = openRegularSync(root, rel, { symlink: { code: 'outside-root', message: 'is a symlink; not followed' } });
  if (!o.ok) return o;
  const { fd, st } = o;
  try {
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
