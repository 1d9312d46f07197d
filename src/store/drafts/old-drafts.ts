/**
 * Kept drafts do not stay forever: a draft for a root that is gone, or a note for a session that never came back,
 * would otherwise sit in the state directory until removed by hand. Once at a start of the monitor (never per
 * tick), every `draft-*.json` older than `DRAFT_MAX_AGE_DAYS` (by the time it was written) is deleted; `doctor`
 * counts what is kept and what the next start removes, without deleting anything itself.
 */
import { listDirSync, statSync, unlinkUnder } from '../../io/safe-fs/index.js';

/** How long a kept draft is offered: a month covers a long holiday, and nothing older is still meant. */
export const DRAFT_MAX_AGE_DAYS = 30;
export const DRAFT_MAX_AGE_MS = DRAFT_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;

/**
 * Every kept draft's file name has this shape (store/drafts/kept-drafts.ts:
 * `draft-<root digest>-<target>.<kept at>-<random>.json`; an older omc-top's has no `.<kept at>-<random>`).
 */
const DRAFT_NAME_RE = /^draft-[0-9a-f]{16}-[a-z0-9][a-z0-9-]{0,63}(?:\.[0-9]{1,16}-[0-9a-f]{8})?\.json$/;

export interface DraftFileAge {
  name: string;
  /** When it was written (its modification time, ms). */
  writtenAt: number;
}

/** The kept draft files in the state directory `dir` (of every root), with when each was written. */
export function draftFiles(dir: string): DraftFileAge[] {
  const l = listDirSync(dir, '.', { rootLabel: "omc-top's state directory" });
  if (!l.ok) return [];
  const out: DraftFileAge[] = [];
  for (const e of l.entries) {
    if (e.kind !== 'file' || !DRAFT_NAME_RE.test(e.name)) continue;
    const st = statSync(dir, e.name);
    if (st?.isFile()) out.push({ name: e.name, writtenAt: st.mtimeMs });
  }
  return out;
}

export const isTooOld = (f: DraftFileAge, now: number) => now - f.writtenAt > DRAFT_MAX_AGE_MS;

/** Deletes the drafts older than the age; returns how many went. Never throws: a file that stays is offered as before. */
export function dropOldDrafts(dir: string, now = Date.now()): number {
  let dropped = 0;
  for (const f of draftFiles(dir)) {
    if (!isTooOld(f, now)) continue;
    try {
      if (unlinkUnder(dir, f.name)) dropped++;
    } catch {
      /* left for the next start; doctor still counts it */
    }
  }
  return dropped;
}

/** doctor's line: how many drafts are kept, and how many of them the next start removes. */
export function draftsLine(dir: string, now = Date.now()): string | null {
  const files = draftFiles(dir);
  if (files.length === 0) return null;
  const old = files.filter((f) => isTooOld(f, now)).length;
  const n = files.length;
  const kept = `kept drafts: ${n} ${n === 1 ? 'draft' : 'drafts'} of unsaved text (offered back in the editor they were typed in)`;
  return old === 0
    ? `${kept}; each is removed ${DRAFT_MAX_AGE_DAYS} days after it was kept`
    : `${kept}; ${old} older than ${DRAFT_MAX_AGE_DAYS} days ${old === 1 ? 'is' : 'are'} removed at the next start of the monitor`;
}
