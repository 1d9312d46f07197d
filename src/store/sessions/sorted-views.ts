/**
 * The previous sorted list with `gone` views taken out and `fresh` ones put in, both found by binary search: a
 * new array (snapshots are immutable), equal to sorting everything again when `cmp` is a total order. Each view's
 * key rides along in a second array in the same order. The cost is two copies of the arrays (a memcpy) plus
 * log N comparisons per change, not a pass over every view.
 */
export function replaceSorted<T>(
  prev: readonly T[],
  prevKeys: readonly string[],
  gone: Iterable<T>,
  fresh: readonly T[],
  cmp: (a: T, b: T) => number,
  keyOf: (v: T) => string,
): { views: T[]; keys: string[] } {
  const views = prev.slice();
  const keys = prevKeys.slice();
  for (const v of gone) {
    let at = lowerBound(views, v, cmp);
    // A view is where its order puts it; should a caller hand a view that sorts elsewhere, find it the slow way.
    if (views[at] !== v) at = views.indexOf(v);
    if (at === -1) continue;
    views.splice(at, 1);
    keys.splice(at, 1);
  }
  for (const v of fresh) {
    const at = upperBound(views, v, cmp);
    views.splice(at, 0, v);
    keys.splice(at, 0, keyOf(v));
  }
  return { views, keys };
}

/** The first index whose element is not before `v`. */
function lowerBound<T>(xs: readonly T[], v: T, cmp: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(xs[mid] as T, v) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose element is after `v`. */
function upperBound<T>(xs: readonly T[], v: T, cmp: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(xs[mid] as T, v) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
