/**
 * A notepad entry's identity: what the entry is, not where it sits. OMC
 * 5.5.0 appends entries (addWorkingMemoryEntry / addManualEntry), and its
 * prune rebuilds Working Memory from the kept entries, each body trimmed and
 * joined by a blank line; another editor may delete or move entries. None of
 * that changes an entry's stamp or its trimmed text, so `<stamp>~<digest of
 * the trimmed text>` names the same entry before and after. Only exact
 * duplicates (same stamp, same text) need telling apart: they get `#<n>`, the
 * n-th such copy in file order — they are interchangeable, so an edit may land
 * on either without losing anything.
 */
import { createHash } from 'node:crypto';

/** The part of an entry its identity is made of: OMC's prune trims, so whitespace around the text is not. */
export const identityText = (body: string): string => body.trim();

/** `<stamp or "untimed">~<12 hex digits of sha1(trimmed text)>`: equal for the same entry wherever it is. */
export function contentKey(stamp: string | null, body: string): string {
  const digest = createHash('sha1').update(identityText(body)).digest('hex').slice(0, 12);
  return `${stamp ?? 'untimed'}~${digest}`;
}

/** Ids for a section's entries in file order: the content key, plus `#n` for the second and later exact copies. */
export function withEntryIds<T extends { stamp: string | null; body: string }>(
  entries: readonly T[],
): Array<T & { id: string }> {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    const key = contentKey(e.stamp, e.body);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return { ...e, id: n === 0 ? key : `${key}#${n}` };
  });
}

/** The content key an id was made from (drops the duplicate counter). */
export const keyOfId = (id: string): string => id.replace(/#\d+$/, '');
