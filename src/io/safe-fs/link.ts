/**
 * Reading what a symlink names, and who owns a directory: both contained in their root like every read. A link's
 * target is bytes (a path the kernel hands back); it is decoded strictly first so a name that is not UTF-8 is
 * reported instead of silently turned into another name.
 */
import fs from 'node:fs';
import { DIR_FLAGS } from './contained-dir.js';
import { describeErrno } from './errors.js';
import { containedPath } from './paths.js';
import type { ReadFailure } from './types.js';
import { fatalDecoder, lenientDecoder } from './utf8.js';

export interface LinkTarget {
  ok: true;
  /** The target as text (bad bytes shown as U+FFFD when invalidUtf8). */
  target: string;
  /** The target exactly as the kernel returned it. */
  raw: Buffer;
  invalidUtf8: boolean;
}

/** readlink(2) of `rel` under `root` (e.g. '/proc', '123/exe'); never throws. */
export function readLinkSync(root: string, rel: string): LinkTarget | ReadFailure {
  const at = containedPath(root, rel, 'the root');
  if (!at.ok) return at;
  let raw: Buffer;
  try {
    raw = fs.readlinkSync(at.path, { encoding: 'buffer' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EINVAL')
      return { ok: false, code: 'not-a-file', message: 'is not a symlink' };
    return { ok: false, ...describeErrno(err) };
  }
  try {
    return { ok: true, target: fatalDecoder.decode(raw), raw, invalidUtf8: false };
  } catch {
    return { ok: true, target: lenientDecoder.decode(raw), raw, invalidUtf8: true };
  }
}

export interface Ownership {
  uid: number;
  /** Permission bits and type, as st_mode. */
  mode: number;
}

/** Owner and mode of the directory `rel` under `root` (not through a symlink as its last part). */
export function dirOwnershipSync(root: string, rel: string): ({ ok: true } & Ownership) | ReadFailure {
  const at = containedPath(root, rel, 'the root');
  if (!at.ok) return at;
  let fd: number;
  try {
    fd = fs.openSync(at.path, DIR_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return { ok: false, code: 'not-a-file', message: 'is not a directory' };
    if (code === 'ELOOP')
      return { ok: false, code: 'not-a-file', message: 'is a symlink where a directory was expected' };
    return { ok: false, ...describeErrno(err) };
  }
  try {
    const st = fs.fstatSync(fd);
    return { ok: true, uid: st.uid, mode: st.mode };
  } catch (err) {
    return { ok: false, ...describeErrno(err) };
  } finally {
    fs.closeSync(fd);
  }
}
