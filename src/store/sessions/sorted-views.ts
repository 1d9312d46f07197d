/**
 * The previous sorted list with `gone` views taken out and `fresh` ones placed by binary search:
 * a new array (snapshots are immutable), equal to sorting everything again when `cmp` is a total order.
 */
export function insertSorted<T>(
  prev: readonly T[],
  gone: ReadonlySet<T>,
  fresh: readonly T[],
  cmp: (a: T, b: T) => number,
): T[] {
  const out = gone.size > 0 ? prev.filter((v) => !gone.has(v)) : prev.slice();
  for (const v of fresh) {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(out[mid] as T, v) <= 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, v);
  }
  return out;
}
