/** Directory listings and stats under a root, contained like every read. */
import fs from 'node:fs';
import { describeErrno } from './errors.js';
import { containedByName, isInsideNormal, quotePath, realDir, realRoot, resolveUnder } from './paths.js';
import type { DirEntry, ReadFailureCode } from './types.js';
import { escapeBytes } from './escape-bytes.js';
import { fatalDecoder, lenientDecoder } from './utf8.js';

/**
 * A listing whose names are not all valid UTF-8 (only looked for when a decoded name holds U+FFFD: no second listing
 * for the common case, 2,000 names at start-up), listed again by its bytes: each bad name is decoded as Node does,
 * marked, and shown by its bytes, so two names that decode alike are still two entries, each named as itself.
 * Null when it is gone meanwhile (the first listing stands).
 */
function entriesByBytes(abs: string): DirEntry[] | null {
  try {
    return fs.readdirSync(abs, { withFileTypes: true, encoding: 'buffer' }).map((d) => {
      const raw = d.name;
      const e: DirEntry = { name: lenientDecoder.decode(raw), kind: kindOf(d) };
      try {
        fatalDecoder.decode(raw);
      } catch {
        e.invalidName = true;
        e.shownName = escapeBytes(raw);
        e.nameBytes = Buffer.from(raw);
      }
      return e;
    });
  } catch {
    return null;
  }
}

const kindOf = (d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): DirEntry['kind'] =>
  d.isFile() ? 'file' : d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'symlink' : 'other';

/**
 * Lists a directory under root. Missing → `code: 'missing'`; never throws.
 * A directory that is (or sits under) a symlink leading out of the root is
 * not listed: the names in it are outside the root too.
 */
export function listDirSync(
  root: string,
  rel: string,
  /** What the root is called in a refusal (readTextSync's option); default "the .omc root". */
  opts: { rootLabel?: string } = {},
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
  // Both realpaths (realRoot falls back to path.resolve): absolute and normal already.
  if (real !== null && !isInsideNormal(realRoot(root), real)) {
    return {
      ok: false,
      code: 'outside-root',
      message: `directory is a symlink to outside ${opts.rootLabel ?? 'the .omc root'} (${quotePath(real)}); not listed`,
    };
  }
  try {
    const dirents = fs.readdirSync(abs, { withFileTypes: true });
    const byBytes = dirents.some((d) => d.name.includes('\ufffd')) ? entriesByBytes(abs) : null;
    return { ok: true, entries: byBytes ?? dirents.map((d) => ({ name: d.name, kind: kindOf(d) })) };
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

/** lstat of the entry named by the bytes `name` in `relDir` (a name that is not UTF-8: DirEntry.nameBytes); never throws. */
export function statByNameSync(root: string, relDir: string, name: Buffer): fs.Stats | null {
  const at = containedByName(root, relDir, name, 'the root');
  if (!at.ok) return null;
  try {
    return fs.lstatSync(at.path);
  } catch {
    return null;
  }
}

/**
 * True only when the path is not there (ENOENT): one lstat, no exception. Any other answer (present, a link, no
 * permission to look) is false, so a caller that skips work for a missing path skips nothing it would have seen.
 */
export function isMissingSync(root: string, rel: string): boolean {
  let abs: string;
  try {
    abs = resolveUnder(root, rel);
  } catch {
    return false;
  }
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/**
 * True when `p` is a directory, following links as a user's `cd` would (a root or a Claude's cwd may well be a
 * link); false for anything else or when it cannot be looked at. One stat, opens nothing: the question every root
 * rule asks before it looks inside.
 */
/**
 * Whether nothing is at `p` (ENOENT, or a file where a directory on the way should be): a path that could not be
 * looked at (EACCES on a directory above it) is not said to be missing.
 */
export function nothingAtSync(p: string): boolean {
  try {
    return fs.statSync(p, { throwIfNoEntry: false }) === undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
}

export function isDirectorySync(p: string): boolean {
  try {
    return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
