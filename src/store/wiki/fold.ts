/**
 * A page body held once: its lower-cased text (what every keystroke searches)
 * plus the few code units where the original differs (the capitals), so any
 * slice of the original (a snippet, the page view) is rebuilt exactly, without
 * keeping a second copy of the text or reading the file again.
 *
 * The map is a string of triples (position high, position low, original code
 * unit), in position order: a string costs 2 bytes a unit and no typed-array
 * header, and a typical page has a capital every 25–40 characters, so the map
 * is a fraction of the text it replaces. When lower-casing changes the length
 * (U+0130 becomes two units) positions no longer line up, and when the map
 * would be bigger than the text (a page in capitals), the original is kept
 * as it is instead.
 */

export interface FoldedText {
  lower: string;
  /** The differences from `lower`, as triples; '' = none; null = see `original`. */
  folds: string | null;
  /** The original text, kept only when `folds` cannot stand for it. */
  original: string | null;
}

/** Code units passed to one String.fromCharCode call (argument lists have a limit). */
const CHUNK = 8190;

export function foldText(original: string): FoldedText {
  const lower = original.toLowerCase();
  if (lower === original) return { lower, folds: '', original: null };
  const n = original.length;
  if (lower.length !== n) return { lower, folds: null, original };
  // Bytes: a one-byte original costs n; a triple costs 6. More differences than that: keep the original.
  const budget = Math.floor(n / 6);
  const units: number[] = [];
  let parts: string[] | null = null;
  for (let i = 0; i < n; i++) {
    const c = original.charCodeAt(i);
    if (c === lower.charCodeAt(i)) continue;
    if (units.length / 3 + (parts ? (parts.length * CHUNK) / 3 : 0) >= budget) {
      return { lower, folds: null, original };
    }
    units.push(i >>> 16, i & 0xffff, c);
    if (units.length >= CHUNK) {
      (parts ??= []).push(String.fromCharCode(...units));
      units.length = 0;
    }
  }
  const tail = String.fromCharCode(...units);
  return { lower, folds: parts ? parts.join('') + tail : tail, original: null };
}

const posAt = (folds: string, k: number) => folds.charCodeAt(3 * k) * 0x10000 + folds.charCodeAt(3 * k + 1);

/** The first triple at or after `pos`. */
function firstFoldAt(folds: string, pos: number): number {
  let lo = 0;
  let hi = folds.length / 3;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (posAt(folds, mid) < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `original.slice(start, end)`, rebuilt from the folded form (same clamping as String.prototype.slice). */
export function originalSlice(t: FoldedText, start = 0, end = t.lower.length): string {
  if (t.original !== null) return t.original.slice(start, end);
  const n = t.lower.length;
  const from = Math.max(0, Math.min(n, start < 0 ? n + start : start));
  const to = Math.max(0, Math.min(n, end < 0 ? n + end : end));
  const folds = t.folds as string;
  if (to <= from) return '';
  const count = folds.length / 3;
  let k = firstFoldAt(folds, from);
  if (k >= count || posAt(folds, k) >= to) return t.lower.slice(from, to);
  const out: string[] = [];
  let at = from;
  for (; k < count; k++) {
    const p = posAt(folds, k);
    if (p >= to) break;
    if (p > at) out.push(t.lower.slice(at, p));
    out.push(folds.charAt(3 * k + 2));
    at = p + 1;
  }
  if (at < to) out.push(t.lower.slice(at, to));
  return out.join('');
}
