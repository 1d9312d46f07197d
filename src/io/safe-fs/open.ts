/**
 * The one open every safe read starts with: a path contained in its root, opened read-only, never waiting on a
 * FIFO or a device (O_NONBLOCK) and never through a symlink as the last part (O_NOFOLLOW), then checked to be
 * a regular file on the descriptor itself (no race between a stat and the open).
 */
import fs from 'node:fs';
import { describeErrno } from './errors.js';
import { containedPath } from './paths.js';
import type { ReadFailure } from './types.js';

export const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

export interface OpenWords {
  /** What a symlink as the last part is called (ELOOP); by default the errno's own words. */
  symlink?: Omit<ReadFailure, 'ok'>;
  /** What a non-regular file is called. */
  notFile?: (st: fs.Stats) => string;
}

/** An open descriptor on a regular file under `root`; the caller closes it. */
export function openRegularSync(
  root: string,
  rel: string,
  words: OpenWords = {},
): { ok: true; fd: number; st: fs.Stats } | ReadFailure {
  const at = containedPath(root, rel, 'the root');
  if (!at.ok) return at;
  let fd: number;
  try {
    fd = fs.openSync(at.path, READ_FLAGS);
  } catch (err) {
    if (words.symlink && (err as NodeJS.ErrnoException).code === 'ELOOP') return { ok: false, ...words.symlink };
    return { ok: false, ...describeErrno(err) };
  }
  try {
    const st = fs.fstatSync(fd);
    if (st.isFile()) return { ok: true, fd, st };
    fs.closeSync(fd);
    return { ok: false, code: 'not-a-file', message: words.notFile?.(st) ?? 'is not a regular file' };
  } catch (err) {
    fs.closeSync(fd);
    return { ok: false, ...describeErrno(err) };
  }
}
