/**
 * Raw bytes of a small file under a root (a NUL-separated /proc/<pid>/cmdline, say): the containment, the
 * no-follow open, the non-blocking open and the regular-file check of every safe read, without the text
 * decoding (which refuses NUL bytes). procfs reports size 0, so the read goes on to the end, capped.
 */
import fs from 'node:fs';
import { describeErrno } from './errors.js';
import { openRegularSync } from './open.js';
import type { ReadFailureCode } from './types.js';

export type BytesResult = { ok: true; bytes: Buffer } | { ok: false; code: ReadFailureCode; message: string };

/** Where a read of a file that reports no size (procfs) starts; it grows as the file turns out longer. */
const UNSIZED_START_BYTES = 4096;

export function readBytesSync(root: string, rel: string, maxBytes: number): BytesResult {
  const o = openRegularSync(root, rel, {
    symlink: { code: 'not-a-file', message: 'is a symlink where a file was expected; not read' },
  });
  if (!o.ok) return o;
  const { fd, st } = o;
  try {
    // Room for the size fstat gave, plus one byte to see a file that grew; never the whole cap up front: the
    // code cache reads 2 MB files under a 64 MB cap, and 64 MB buffers made V8 count that much external
    // memory, start full collections for it and take ~10 ms per read (2026-12-03).
    const cap = maxBytes + 1;
    let buf = Buffer.allocUnsafe(Math.min(cap, st.size > 0 ? st.size + 1 : UNSIZED_START_BYTES));
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (buf.length >= cap) break;
        const bigger = Buffer.allocUnsafe(Math.min(cap, buf.length * 2));
        buf.copy(bigger, 0, 0, got);
        buf = bigger;
      }
      const n = fs.readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) return { ok: false, code: 'too-large', message: `over the ${maxBytes}-byte limit; not read` };
    // A copy when most of the buffer is slack (a procfs read that grew), so the caller keeps no spare room.
    return { ok: true, bytes: got < buf.length / 2 ? Buffer.from(buf.subarray(0, got)) : buf.subarray(0, got) };
  } catch (err) {
    return { ok: false, ...describeErrno(err) };
  } finally {
    fs.closeSync(fd);
  }
}
