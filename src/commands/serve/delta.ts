/**
 * What `serve`'s `/events` sends after a connection's first picture: only what changed. A loop that ticks a few
 * times a second changes one row; sending every row each time cost an open page about 1.4 MB a minute at 14 rows
 * (more with more sessions, or every project with --all), on a phone over `ssh -L` too.
 *
 * A delta names every root in order; a root that is new (or whose rows cannot be told apart by their key) comes
 * whole, any other only with its fields that changed, and its rows as the rows that appeared (`put`), the fields
 * of rows that changed (`patch`), and their key order when that changed (`order`: a row not in it is gone). The page applies it with
 * APPLY_DELTA_JS, the same function a test holds to this one: applying the delta of two pictures to the first
 * gives the second.
 */
import type { Picture, RootJson } from './source.js';

type Row = RootJson['rows'][number];

export interface RootDelta {
  id: string;
  /** The whole root: new, or its rows' keys are not unique (a delta by key could not say which is which). */
  root?: RootJson;
  /** Fields other than `rows` whose value changed. */
  set?: Partial<Omit<RootJson, 'id' | 'rows'>>;
  rows?: {
    /** Rows that are new, whole. */
    put: Row[];
    /** Rows that changed: their key, the fields with a new value, and the fields they no longer have. */
    patch?: RowPatch[];
    order?: string[];
  };
}

export interface RowPatch {
  key: string;
  set: Partial<Row>;
  unset?: string[];
}

export interface PictureDelta {
  count: number;
  /** Every root id, in order: a root not listed is gone. */
  roots: string[];
  changed: RootDelta[];
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const keysUnique = (rows: readonly Row[]) => new Set(rows.map((r) => r.key)).size === rows.length;

function rootDelta(prev: RootJson, next: RootJson): RootDelta | null {
  if (!keysUnique(prev.rows) || !keysUnique(next.rows))
    return sameJson(prev, next) ? null : { id: next.id, root: next };
  const d: RootDelta = { id: next.id };
  const set: Record<string, unknown> = {};
  for (const k of Object.keys(next) as (keyof RootJson)[]) {
    if (k === 'id' || k === 'rows') continue;
    if (!sameJson(prev[k], next[k])) set[k] = next[k];
  }
  // A field gone from the new root (none today: every root has every field) is sent as null rather than lost.
  for (const k of Object.keys(prev)) if (!(k in next)) set[k] = null;
  if (Object.keys(set).length > 0) d.set = set as RootDelta['set'];
  const before = new Map(prev.rows.map((r) => [r.key, r]));
  const put: Row[] = [];
  const patch: RowPatch[] = [];
  for (const r of next.rows) {
    const was = before.get(r.key);
    if (!was) put.push(r);
    else {
      const p = rowPatch(was, r);
      if (p) patch.push(p);
    }
  }
  const order = next.rows.map((r) => r.key);
  const reordered = !sameJson(
    prev.rows.map((r) => r.key),
    order,
  );
  if (put.length > 0 || patch.length > 0 || reordered)
    d.rows = { put, ...(patch.length > 0 ? { patch } : {}), ...(reordered ? { order } : {}) };
  return d.set || d.rows ? d : null;
}

/** A row that changed, as the fields that did (a loop's tick: its modes and its time, not its prompt). */
function rowPatch(prevRow: Row, nextRow: Row): RowPatch | null {
  const prev = prevRow as unknown as Record<string, unknown>;
  const next = nextRow as unknown as Record<string, unknown>;
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const [k, v] of Object.entries(next)) if (!sameJson(prev[k], v)) set[k] = v;
  for (const [k, v] of Object.entries(prev)) if (v !== undefined && next[k] === undefined) unset.push(k);
  if (Object.keys(set).length === 0 && unset.length === 0) return null;
  return { key: nextRow.key, set: set as Partial<Row>, ...(unset.length > 0 ? { unset } : {}) };
}

/** The delta from `prev` to `next`; null when nothing changed. */
export function pictureDelta(prev: Picture, next: Picture): PictureDelta | null {
  const old = new Map(prev.roots.map((r) => [r.id, r]));
  const changed: RootDelta[] = [];
  for (const r of next.roots) {
    const was = old.get(r.id);
    if (!was) changed.push({ id: r.id, root: r });
    else {
      const d = rootDelta(was, r);
      if (d) changed.push(d);
    }
  }
  const roots = next.roots.map((r) => r.id);
  const sameRoots = sameJson(
    prev.roots.map((r) => r.id),
    roots,
  );
  if (changed.length === 0 && sameRoots && prev.count === next.count) return null;
  return { count: next.count, roots, changed };
}

/**
 * The page's side, as the page runs it (plain ES5, no module): `applyDelta(picture, delta)` returns the new
 * picture and leaves the old one as it was. Kept here, beside pictureDelta, so the two change together.
 */
export const APPLY_DELTA_JS = `function applyDelta(p, d) {
    var old = {};
    p.roots.forEach(function (r) { old[r.id] = r; });
    var changed = {};
    d.changed.forEach(function (c) { changed[c.id] = c; });
    var roots = d.roots.map(function (id) {
      var c = changed[id];
      var r = old[id];
      if (c && c.root) return c.root;
      if (!r) throw new Error('delta for an unknown root ' + id);
      if (!c) return r;
      var n = {};
      Object.keys(r).forEach(function (k) { n[k] = r[k]; });
      if (c.set) Object.keys(c.set).forEach(function (k) { n[k] = c.set[k]; });
      if (c.rows) {
        var byKey = {};
        r.rows.forEach(function (row) { byKey[row.key] = row; });
        c.rows.put.forEach(function (row) { byKey[row.key] = row; });
        (c.rows.patch || []).forEach(function (p) {
          var was = byKey[p.key];
          if (!was) throw new Error('delta patches an unknown row ' + p.key);
          var row = {};
          Object.keys(was).forEach(function (k) { row[k] = was[k]; });
          Object.keys(p.set).forEach(function (k) { row[k] = p.set[k]; });
          (p.unset || []).forEach(function (k) { delete row[k]; });
          byKey[p.key] = row;
        });
        var order = c.rows.order || r.rows.map(function (row) { return row.key; });
        n.rows = order.map(function (k) {
          if (!byKey[k]) throw new Error('delta names an unknown row ' + k);
          return byKey[k];
        });
      }
      return n;
    });
    return { count: d.count, roots: roots };
  }`;
