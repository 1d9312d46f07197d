/**
 * The previous sorted list with `gone` views taken out and `fresh` ones put in, both found by binary search: a
 * new array (snapshots are immutable), equal to sorting everything again when `cmp` is a total order. Each view's
 * key rides along in a second array in the same order. The cost is a copy of the arrays (a memcpy) plus log N
 * comparisons per change, not a pass over every view.
 *
 * The usual change (a loop's next iteration) replaces a view by its next one in the same place: then only the
 * views are copied and the keys array is the previous one, unchanged. At 10,000 sessions each array is 80 KB, and
 * the copies are most of what a change allocates: short-lived, but the young generation is kept small
 * (terminal/young-gen.ts), so each copy is a share of a scavenge and the live ones are promoted.
 */
export function replaceSorted<T>(
  prev: readonly T[],
  prevKeys: readonly string[],
  gone: Iterable<T>,
  fresh: readonly T[],
  cmp: (a: T, b: T) => number,
  keyOf: (v: T) => string,
): { views: T[]; keys: readonly string[] } {
  const change = { prev, prevKeys, gone, fresh, cmp, keyOf };
  return inPlace(change) ?? moved(change);
}

/** One replacement's inputs, as replaceSorted takes them. */
interface Change<T> {
  prev: readonly T[];
  prevKeys: readonly string[];
  gone: Iterable<T>;
  fresh: readonly T[];
  cmp: (a: T, b: T) => number;
  keyOf: (v: T) => string;
}

/** Each fresh view where its gone one was, if every one of them sorts there still (else null: some moved). */
function inPlace<T>({ prev, prevKeys, gone, fresh, cmp, keyOf }: Change<T>): {
  views: T[];
  keys: readonly string[];
} | null {
  const goneByKey = new Map<string, T>();
  for (const g of gone) goneByKey.set(keyOf(g), g);
  if (goneByKey.size !== fresh.length) return null;
  let views: T[] | null = null;
  for (const v of fresh) {
    const g = goneByKey.get(keyOf(v));
    if (g === undefined) return null;
    const at = indexOfView(views ?? prev, g, cmp);
    if (at === -1) return null;
    const list = (views ??= prev.slice());
    // A total order: the neighbours are strictly before and after it, or it belongs elsewhere.
    if (at > 0 && cmp(list[at - 1] as T, v) >= 0) return null;
    if (at < list.length - 1 && cmp(v, list[at + 1] as T) >= 0) return null;
    list[at] = v;
  }
  return { views: views ?? prev.slice(), keys: prevKeys };
}

/** Removes and inserts by binary search, moving the keys alongside. */
function moved<T>({ prev, prevKeys, gone, fresh, cmp, keyOf }: Change<T>): { views: T[]; keys: string[] } {
  const views = prev.slice();
  const keys = prevKeys.slice();
  for (const v of gone) {
    const at = indexOfView(views, v, cmp);
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

/** Where `v` itself is: where its order puts it; should a caller hand a view that sorts elsewhere, the slow way. */
function indexOfView<T>(xs: readonly T[], v: T, cmp: (a: T, b: T) => number): number {
  const at = lowerBound(xs, v, cmp);
  return xs[at] === v ? at : xs.indexOf(v);
}

/** The first index whose element is not before `v` (in `cmp`'s order, which `xs` is sorted in). */
export function lowerBound<T>(xs: readonly T[], v: T, cmp: (a: T, b: T) => number): number {
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

/** Past this many changed views, sorting or filtering the whole list again costs about what placing each one does. */
export const PATCH_MAX = 64;

/**
 * A list kept in `cmp`'s order (a total order), with a value beside each item, patched by a change: each `gone` item
 * found by binary search and taken out with its value (if it is there), then each `changed` item whose `valueOf` is
 * not null put in its place with that value. New arrays, the given ones left as they were; null when nothing in the
 * list changed. The sessions pane's filtered rows (values: their keys) and the Cost pane's OMC loop rows (values:
 * the rows) follow the sessions delta this way.
 */
export function patchSorted<T, D>(
  items: readonly T[],
  values: readonly D[],
  gone: Iterable<T>,
  changed: readonly T[],
  valueOf: (item: T) => D | null,
  cmp: (a: T, b: T) => number,
): { items: T[]; values: D[] } | null {
  let next: { items: T[]; values: D[] } | null = null;
  for (const g of gone) {
    const list = next?.items ?? items;
    const at = lowerBound(list, g, cmp);
    if (list[at] !== g) continue; // not in the list
    next ??= { items: items.slice(), values: values.slice() };
    next.items.splice(at, 1);
    next.values.splice(at, 1);
  }
  for (const v of changed) {
    const value = valueOf(v);
    if (value === null) continue;
    next ??= { items: items.slice(), values: values.slice() };
    const at = lowerBound(next.items, v, cmp);
    next.items.splice(at, 0, v);
    next.values.splice(at, 0, value);
  }
  return next;
}
