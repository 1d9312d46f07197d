/**
 * The indexed ranking's sort, done while scoring: each matching page goes into its score's bucket as it is
 * scored (pages are scored in file-name order, so each bucket is in that order), and the order is the buckets
 * copied highest score first. The same order as a counting sort over per-page scores (score descending, ties
 * in file-name order, as OMC's stable sort leaves them), without a score per page, without clearing one, and
 * without the sort's two more passes over every page: a one-letter query at 20,000 pages matches nearly all
 * of them, and those passes were a third of its search.
 *
 * The buckets are scratch kept between keystrokes (one query is ranked at a time, synchronously; a ranking
 * keeps only the order copied out of them), so a keystroke allocates its order and nothing per page.
 */

/** Pages scoring `s` so far, in the order added, in `bucket[s][0 .. size[s])`. */
const bucket: Int32Array[] = [];
let size = new Int32Array(0);
/** Highest score added since the last `begin`. */
let top = 0;

/** Empties the buckets for a query whose scores are at most `maxScore`. */
export function begin(maxScore: number): void {
  if (size.length <= maxScore) size = new Int32Array(maxScore + 1);
  else size.fill(0, 0, top + 1);
  top = 0;
}

/** Adds page `i` (pages come in file-name order) with score `s` (≥ 1, at most begin's maxScore). */
export function add(s: number, i: number): void {
  let b = bucket[s];
  const n = size[s] as number;
  if (b === undefined || n === b.length) b = grow(s, n);
  b[n] = i;
  size[s] = n + 1;
  if (s > top) top = s;
}

function grow(s: number, n: number): Int32Array {
  const old = bucket[s];
  const b = new Int32Array(Math.max(64, n * 2));
  if (old) b.set(old.subarray(0, n));
  // Fill any lower scores never seen, so `bucket` stays a dense array of one element kind.
  for (let k = bucket.length; k < s; k++) bucket[k] = new Int32Array(0);
  bucket[s] = b;
  return b;
}

/**
 * The pages added, best first, and where each score's ranks begin: `firstRank[s]` is the first rank scoring
 * `s` or less (the number of pages scoring more), `firstRank[0]` is 0; one entry when nothing matched.
 */
export function finish(): { order: Int32Array; firstRank: Int32Array } {
  let matched = 0;
  for (let s = 1; s <= top; s++) matched += size[s] as number;
  const order = new Int32Array(matched);
  const firstRank = new Int32Array(matched === 0 ? 1 : top + 1);
  let at = 0;
  for (let s = top; s > 0; s--) {
    firstRank[s] = at;
    const n = size[s] as number;
    if (n > 0) order.set((bucket[s] as Int32Array).subarray(0, n), at);
    at += n;
  }
  return { order, firstRank };
}
