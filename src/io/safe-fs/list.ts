/** Directory listings and stats under a root, contained like every read. */
import fs from 'node:fs';
import { describeErrno } from './errors.js';
import { isInside, quotePath, realDir, realRoot, resolveUnder } from './paths.js';
import type { DirEntry, ReadFailureCode } from './types.js';
import { fatalDecoder, lenientDecoder } from './utf8.js';

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
/** Whether nothing is at `rel` (no such entry, or a parent is not a directory); false when it cannot be told. */
export function isMissingSync(root: string, rel: string): boolean {
  try {
    fs.lstatSync(resolveUnder(root, rel));
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

export function statSync(root: string, rel: string): fs.Stats | null {
  try {
    return fs.lstatSync(resolveUnder(root, rel));
  } catch {
    return null;
  }
}
