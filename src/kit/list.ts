/**
 * The one list model every list and dialog uses. The selection is an item's
 * identity, not a row number, so rows that appear, vanish or re-sort around
 * it never move it; when its own item goes, the selection falls to the
 * nearest neighbour (the row that took its place). The scroll window is
 * state and moves only as far as needed to keep the selection visible, so
 * `G` then `k` moves the cursor up the screen, not the list under it.
 */

export interface ListState {
  /** Identity of the selected item; null = nothing chosen yet (the first row). */
  id: string | null;
  /** Where the selected item last was, for the nearest-neighbour fallback. */
  index: number;
  /** First visible row. */
  top: number;
}

export const initList = (): ListState => ({ id: null, index: 0, top: 0 });

/**
 * The identities of a list's rows, in order: an array, or a list that names a row only when asked (the wiki's
 * ranking of 20,000 pages: a keystroke reads the first row's name, not 20,000 of them).
 */
export interface Ids {
  readonly length: number;
  at(index: number): string | undefined;
  indexOf(id: string): number;
}

/** Keeps `top` so that row `index` is inside a window of `height` rows (and the window is not past the end). */
export function clampTop(top: number, index: number, height: number, total: number): number {
  if (height <= 0) return 0;
  let t = Math.min(top, Math.max(0, total - height));
  if (index < t) t = index;
  if (index >= t + height) t = index - height + 1;
  return Math.max(0, t);
}

export interface ListView {
  /** Row of the selection, -1 when the list is empty. */
  index: number;
  top: number;
}

/** Where the selection and the window are now, for these ids in this many rows. */
export function listView(l: ListState, ids: Ids, height: number): ListView {
  if (ids.length === 0) return { index: -1, top: 0 };
  // Where it was last is where it usually still is (a change elsewhere moves no row above it): no search then.
  let i = l.id === null ? -1 : ids.at(l.index) === l.id ? l.index : ids.indexOf(l.id);
  if (i === -1) i = Math.max(0, Math.min(ids.length - 1, l.id === null ? 0 : l.index));
  return { index: i, top: clampTop(l.top, i, height, ids.length) };
}

export const selectedId = (l: ListState, ids: Ids): string | null => {
  const v = listView(l, ids, Number.MAX_SAFE_INTEGER);
  return v.index < 0 ? null : (ids.at(v.index) ?? null);
};

export type Move = number | 'first' | 'last' | { page: 1 | -1 };

/** Moves the selection (by rows, a page, or to an end) and scrolls only as far as needed. */
export function moveList(l: ListState, ids: Ids, to: Move, height: number): ListState {
  if (ids.length === 0) return l;
  const cur = listView(l, ids, height);
  const page = Math.max(1, height - 1);
  const target =
    to === 'first'
      ? 0
      : to === 'last'
        ? ids.length - 1
        : typeof to === 'number'
          ? cur.index + to
          : cur.index + to.page * page;
  const index = Math.max(0, Math.min(ids.length - 1, target));
  return { id: ids.at(index) ?? null, index, top: clampTop(cur.top, index, height, ids.length) };
}

/** Selects an item by identity (e.g. the entry just saved), keeping the window where it is if it can. */
export function selectItem(l: ListState, ids: Ids, id: string, height: number): ListState {
  const index = ids.indexOf(id);
  if (index === -1) return { ...l, id };
  return { id, index, top: clampTop(l.top, index, height, ids.length) };
}

/**
 * Pins the state to what is on screen: a null selection becomes the first
 * row's identity (so a row that later sorts above it does not take the
 * cursor), the fallback index and the window follow the item. Returns `l`
 * itself when nothing changed, so settling twice is free.
 */
export function settleList(l: ListState, ids: Ids, height: number): ListState {
  if (ids.length === 0) return l;
  const v = listView(l, ids, height);
  const id = ids.at(v.index) ?? null;
  if (id === l.id && v.index === l.index && v.top === l.top) return l;
  return { id, index: v.index, top: v.top };
}

/** "n more above / below" markers for a window. */
export function moreAbove(v: ListView): number {
  return Math.max(0, v.top);
}
export function moreBelow(v: ListView, height: number, total: number): number {
  return Math.max(0, total - v.top - height);
}

/**
 * A scrollable block of text (a dialog, a detail view, the help). When it is
 * scrolled, its first row says how many lines are above; when more follow, its
 * last row says how many are below. `scroll` is the first text line shown.
 */
export interface TextWindow {
  start: number;
  end: number;
  above: number;
  below: number;
}

export function maxScroll(total: number, height: number): number {
  if (total <= height) return 0;
  return height < 3 ? total - height : total - height + 1;
}

export function textWindow(total: number, scroll: number, height: number): TextWindow {
  const start = Math.max(0, Math.min(scroll, maxScroll(total, height)));
  if (height < 3) return { start, end: Math.min(total, start + height), above: 0, below: 0 };
  let rows = height - (start > 0 ? 1 : 0);
  if (start + rows < total) rows -= 1;
  const end = Math.min(total, start + rows);
  return { start, end, above: start, below: total - end };
}

/** A scroll offset moved by `delta` lines (±Infinity for the ends), kept in range. */
export function scrollTo(offset: number, delta: number, total: number, height: number): number {
  return Math.max(0, Math.min(maxScroll(total, height), offset + delta));
}

/** "↑3 ↓12 more" for a list's header line, '' when everything is on screen. */
export function moreText(v: ListView, height: number, total: number): string {
  const above = moreAbove(v);
  const below = moreBelow(v, height, total);
  if (above + below === 0) return '';
  return `${above ? `↑${above}` : ''}${above && below ? ' ' : ''}${below ? `↓${below}` : ''} more`;
}

/** A header line with a note (scroll markers, sort) at its right end, cut to `width`. */
export function withNote(header: string, note: string, width: number, cut: (s: string, w: number) => string): string {
  return note === '' ? cut(header, width) : cut(cut(header, Math.max(0, width - note.length - 2)) + '  ' + note, width);
}
