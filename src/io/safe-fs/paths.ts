/**
 * Containment: where a relative path lands under a root, and whether a real path is inside it. Nothing outside
 * the resolved root is read or written: symlinked directories on the way are resolved and checked.
 */
import path from 'node:path';
import { shownPath } from '../shown-path.js';
import { realpathText } from './byte-paths.js';
import { refusal } from './refused.js';
import type { ReadFailureCode } from './types.js';

/** POSIX-style relative path (what we show and put in --json), whatever the platform. */
export function toRel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/** A path with an empty, `.` or `..` segment, or a trailing slash: path.resolve would change it. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;
const POSIX = path.sep === '/';
/**
 * path.resolve(p), without its cost when p is already absolute and normal (every path the store builds:
 * path.resolve was the largest share of the safe-read path's own time in a start-up profile).
 */
function normalAbs(p: string): string {
  return POSIX && p.charCodeAt(0) === 47 && !NOT_NORMAL.test(p) ? p : path.resolve(p);
}

/** True when `child` is `parent` or lies inside it (both absolute, already resolved). */
export function isInside(parent: string, child: string): boolean {
  // Both sides normalised by path.resolve, so a prefix test is exact and cheap
  // (path.relative was a visible share of scanning 4,000 files).
  return isInsideNormal(normalAbs(parent), normalAbs(child));
}

/** isInside for two paths already absolute and normal (realpaths): no normalising pass per read. */
export function isInsideNormal(p: string, c: string): boolean {
  if (c === p) return true;
  if (!POSIX) return c.startsWith(p.endsWith(path.sep) ? p : p + path.sep);
  // `c.startsWith(p + '/')` without building `p + '/'` for every read (the root ends in '/' only when it is '/').
  if (p.charCodeAt(p.length - 1) === 47) return c.startsWith(p);
  return c.length > p.length && c.charCodeAt(p.length) === 47 && c.startsWith(p);
}

/**
 * realpath() of directories, remembered for a second: a scan of 2,000
 * sessions reads 4,000 files in 2,000 directories, and resolving every file's
 * full path again is most of the cost of a read. Files themselves are opened
 * with O_NOFOLLOW, so a symlinked file is always caught and resolved fresh.
 */
const DIR_CACHE_MS = 1_000;
const dirCache = new Map<string, { real: string | null; at: number }>();
/**
 * Entries older than DIR_CACHE_MS are never used again: drop them (at most once a second, and only once there
 * are many), so the 2,000–10,000 directories of a start-up read are not held for the life of the process.
 */
let lastSweep = 0;
function sweepDirCache(now: number): void {
  if (dirCache.size < 1_024 || now - lastSweep < DIR_CACHE_MS) return;
  lastSweep = now;
  for (const [dir, e] of dirCache) if (now - e.at >= DIR_CACHE_MS) dirCache.delete(dir);
}

export function realDir(dir: string, fresh = false): string | null {
  const now = Date.now();
  const hit = dirCache.get(dir);
  // Only a directory that exists is remembered: one created a moment after a read found it missing (a
  // fresh project's first .omc/sessions/) must be seen by the very next read, not a second later.
  if (!fresh && hit && hit.real !== null && now - hit.at < DIR_CACHE_MS) return hit.real;
  let real: string | null;
  try {
    real = realpathText(dir);
  } catch {
    real = null;
  }
  sweepDirCache(now);
  if (dirCache.size > 10_000) dirCache.clear();
  dirCache.set(dir, { real, at: now });
  return real;
}

export function realRoot(root: string): string {
  return realDir(root) ?? path.resolve(root);
}

/**
 * NOT_NORMAL of `/${rel}` for a relative `rel` (not starting with '/'), tested on `rel` itself: a first segment of
 * `.` or `..`, an empty, `.` or `..` segment later, or a trailing slash. No string built per read.
 */
const REL_NOT_NORMAL = /^\.\.?(?:\/|$)|\/\/|\/\.\.?(?:\/|$)|\/$/;

/** The last root normalised (the store asks with one root, thousands of times at start-up): normalAbs once. */
let lastRoot = { given: '', normal: '' };
function normalRoot(root: string): string {
  if (lastRoot.given !== root) lastRoot = { given: root, normal: normalAbs(root) };
  return lastRoot.normal;
}

/** Resolves `rel` under `root` lexically and rejects `..` escapes before touching the disk. */
export function resolveUnder(root: string, rel: string): string {
  const r = normalRoot(root);
  // The common case, a plain relative path (no empty, `.` or `..` segment): it is inside by construction.
  if (POSIX && rel !== '' && rel.charCodeAt(0) !== 47 && !REL_NOT_NORMAL.test(rel))
    return r === '/' ? `/${rel}` : `${r}/${rel}`;
  const abs = path.resolve(r, rel);
  if (!isInside(r, abs)) throw new OutsideRootError(rel);
  return abs;
}

/**
 * A path quoted in a message can come from the filesystem (a symlink's target, a directory name): an escape
 * sequence in it must not reach the terminal through the problem line, and its bytes must not vanish either (the
 * message would name another path). Every byte is shown, controls as escapes (io/shown-path.ts).
 */
export const quotePath = (p: string) => shownPath(p);

export class OutsideRootError extends Error {
  constructor(rel: string) {
    super(`refusing to touch "${quotePath(rel)}": it resolves outside the .omc root`);
    this.name = 'OutsideRootError';
  }
}

/**
 * Where `rel` is, with every directory on the way resolved: refused when it
 * names a place outside `root`, or when a directory on the way is a symlink
 * leading outside it. The last component is left as it is (the caller's open
 * decides about a symlink there). `rootWord` names the root in the message.
 */
export function containedPath(
  root: string,
  rel: string,
  rootWord: string,
): { ok: true; path: string } | { ok: false; code: ReadFailureCode; message: string } {
  let abs: string;
  try {
    abs = resolveUnder(root, rel);
  } catch (e) {
    return { ok: false, code: 'outside-root', message: (e as Error).message };
  }
  const dir = path.dirname(abs);
  const parent = realDir(dir);
  if (parent === null) return unresolved(dir);
  // Both realpaths (realRoot falls back to path.resolve): absolute and normal already.
  if (!isInsideNormal(realRoot(root), parent)) {
    return {
      ok: false,
      code: 'outside-root',
      message: `directory is a symlink to outside ${rootWord} (${quotePath(parent)}); not read`,
    };
  }
  // No symlink on the way (the usual tree): the path is already its own real path; no new string to build.
  if (parent === dir) return { ok: true, path: abs };
  return { ok: true, path: joinReal(parent, path.basename(abs)) };
}

/**
 * The path of the entry named by the bytes `name` in the directory `relDir` under `root`, for a name that is not
 * UTF-8 (a text path cannot name it: Node decodes it with U+FFFD). The directory is resolved and contained as
 * containedPath's are; the name must be one component (no slash, no NUL, not `.` or `..`), so the caller's
 * O_NOFOLLOW open decides about the last part as it does for a text path.
 */
export function containedByName(
  root: string,
  relDir: string,
  name: Buffer,
  rootWord: string,
): { ok: true; path: Buffer } | { ok: false; code: ReadFailureCode; message: string } {
  const dots = name.length <= 2 && name.every((b) => b === 0x2e);
  if (name.length === 0 || dots || name.includes(0x2f) || name.includes(0))
    return { ok: false, code: 'outside-root', message: 'is not a name within its directory; not read' };
  let abs: string;
  try {
    abs = resolveUnder(root, relDir);
  } catch (e) {
    return { ok: false, code: 'outside-root', message: (e as Error).message };
  }
  const dir = realDir(abs);
  if (dir === null) return unresolved(abs);
  if (!isInsideNormal(realRoot(root), dir)) {
    return {
      ok: false,
      code: 'outside-root',
      message: `directory is a symlink to outside ${rootWord} (${quotePath(dir)}); not read`,
    };
  }
  return { ok: true, path: Buffer.concat([Buffer.from(dir === '/' ? '/' : `${dir}/`), name]) };
}

/**
 * Why a directory on the way could not be resolved: refused (a directory above it this user may not search, whose
 * files are there but out of reach: never "missing"), else gone. Asked again only on this rare path.
 */
function unresolved(dir: string): { ok: false; code: ReadFailureCode; message: string } {
  try {
    realpathText(dir);
  } catch (e) {
    const refused = refusal((e as NodeJS.ErrnoException).code);
    if (refused) return { ok: false, ...refused };
  }
  return { ok: false, code: 'missing', message: 'file vanished before it could be read' };
}

/**
 * `path.join(dir, name)` for a realpath (absolute, already normal) and one path segment: the two strings
 * joined by a slash, without path.join's normalising pass (a visible share of every safe read's own time).
 */
function joinReal(dir: string, name: string): string {
  if (!POSIX || name === '' || name === '.' || name === '..' || name.includes('/')) return path.join(dir, name);
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}
