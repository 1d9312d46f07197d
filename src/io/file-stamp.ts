/**
 * "Read it again only when its stat changed", written once. A stamp is the parts of a file's stat that a caller
 * compares (device, inode, size, modification and change time): each caller names its own parts, so each keeps its
 * own rule, and says itself what a missing file means. Two forms of the same parts: an object (kept beside a value,
 * or written into a file as the status cache does with the acknowledgements' stamp) and a text key (a map's key, a
 * fingerprint of many files).
 */
import fs from 'node:fs';

/** What a stat says of a file that a stamp may keep. */
export interface StatParts {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}
export type StampPart = keyof StatParts;

/** The parts kept; one kept as undefined (a change time a read did not learn, say) is not compared. */
export type FileStamp = { [P in StampPart]?: number | undefined };

/** Every part: what a file a user edits by hand is compared by (a replace, a rewrite, a chmod all move one). */
export const ALL_PARTS: readonly StampPart[] = ['dev', 'ino', 'size', 'mtimeMs', 'ctimeMs'];

/** The key of a path that is not there: equal to itself, so a file still missing is not looked at again. */
export const MISSING_STAMP = 'missing';

/** The `parts` of `st`, as a stamp to keep. */
export function stampOf<P extends StampPart>(st: StatParts, parts: readonly P[]): Pick<StatParts, P> {
  const out = {} as Pick<StatParts, P>;
  for (const p of parts) out[p] = st[p];
  return out;
}

/**
 * `now` (a stat, or a stamp) still names the bytes behind `kept`: every part `kept` holds is the same. No file now
 * and none then is the same; a file now or then but not both is not.
 */
export function sameStamp(now: FileStamp | null | undefined, kept: FileStamp | null | undefined): boolean {
  if (!now || !kept) return !now && !kept;
  for (const p of ALL_PARTS) {
    const v = kept[p];
    if (v !== undefined && now[p] !== v) return false;
  }
  return true;
}

/** The `parts` of `st` as text, MISSING_STAMP when there is no stat. */
export function stampKey(st: StatParts | null | undefined, parts: readonly StampPart[]): string {
  return st ? parts.map((p) => st[p]).join(':') : MISSING_STAMP;
}

/**
 * The key of every part of `file`'s stat, its link followed (a dotfile linked from a repository changes at its
 * target); MISSING_STAMP when nothing is there, null when it cannot be looked at (then it must be read every time).
 */
export function followedStampKey(file: string): string | null {
  try {
    return stampKey(fs.statSync(file, { throwIfNoEntry: false }), ALL_PARTS);
  } catch {
    return null;
  }
}
