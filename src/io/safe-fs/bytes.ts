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

export function readBytesSync(root: string, rel: string, maxBytes: number): BytesResult {
  const o = openRegularSync(root, rel, {
    symlink: { code: 'not-a-file', message: 'is a symlink where a file was expected; not read' },
  });
  if (!o.ok) return o;
  const { fd } = o;
  try {
    const buf = Buffer.allocUnsafe(maxBytes + 1);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) return { ok: false, code: 'too-large', message: `over the ${maxBytes}-byte limit; not read` };
    return { ok: true, bytes: Buffer.from(buf.subarray(0, got)) };
  } catch (err) {
    return { ok: false, ...describeErrno(err) };
  } finally {
    fs.closeSync(fd);
  }
}
