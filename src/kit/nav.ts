/**
 * The navigation keys every list and every scrollable view shares, written
 * once: j/k, arrows, g/G, Home/End, PgUp/PgDn (Ctrl-U/D) and the mouse wheel.
 * A pane says how to move (`to`) and in which mode; the keys are the same everywhere.
 */
import type { Binding, BindingContext, Mode } from './bindings.js';
import type { ListView, Move } from './list.js';
import type { KeyContext } from './pane.js';

/** The footer hint of the move keys: the footer shows it after the pane's own actions. */
export const MOVE_HINT = 'move';

/** Where a list's rows are in its pane: the pane row of its first row, and its window (for a click). */
export interface ListPlace {
  /** The pane row (0 = the pane's first) the list's first shown row is drawn on. */
  firstRow: number;
  view: ListView;
  /** Items the list shows at most. */
  height: number;
  total: number;
  /** Screen rows per item (a team takes 3); 1 when absent. */
  rowsPerItem?: number;
}

/** The common shape: an optional filter line, the column titles, then the rows. */
export function underTitles(l: {
  showFilter: boolean;
  view: ListView;
  height: number;
  rows: { length: number };
}): ListPlace {
  return { firstRow: (l.showFilter ? 1 : 0) + 1, view: l.view, height: l.height, total: l.rows.length };
}

/** The help of a click on a list row, the same in every pane. */
export const CLICK_HELP = 'select the row clicked';

export function navBindings<S, C extends BindingContext<S> = KeyContext<S>>(
  when: Mode<S>,
  what: string,
  to: (ctx: C, move: Move) => void,
  /** hint: false for none, or the footer's word for the keys when they scroll a page rather than move a selection. */
  opts: { hint?: boolean | string; place?: (ctx: C) => ListPlace | null } = {},
): Binding<S, C>[] {
  const place = opts.place;
  // A click is a move by as many rows as it lands from the selection: the pane's own move keeps its rules.
  const click: Binding<S, C>[] = place
    ? [
        {
          keys: ['click'],
          help: CLICK_HELP,
          when,
          run: (ctx, ev) => {
            const at = ev.kind === 'key' ? ev.key.at : undefined;
            const p = at ? place(ctx) : null;
            if (!at || !p || p.view.index < 0) return;
            const row = Math.floor((at.y - p.firstRow) / (p.rowsPerItem ?? 1));
            if (row < 0 || row >= p.height || p.view.top + row >= p.total) return;
            const by = p.view.top + row - p.view.index;
            if (by !== 0) to(ctx, by);
          },
        },
      ]
    : [];
  return [
    ...click,
    {
      keys: ['j', 'down', 'wheeldown'],
      help: `${what}: down`,
      hint: opts.hint === false ? undefined : typeof opts.hint === 'string' ? opts.hint : MOVE_HINT,
      hintKeys: '↑↓ jk',
      when,
      run: (ctx) => to(ctx, 1),
    },
    { keys: ['k', 'up', 'wheelup'], help: `${what}: up`, when, run: (ctx) => to(ctx, -1) },
    { keys: ['pagedown', 'ctrl+d'], help: `${what}: a page down`, when, run: (ctx) => to(ctx, { page: 1 }) },
    { keys: ['pageup', 'ctrl+u'], help: `${what}: a page up`, when, run: (ctx) => to(ctx, { page: -1 }) },
    { keys: ['g', 'home'], help: `${what}: first`, when, run: (ctx) => to(ctx, 'first') },
    { keys: ['G', 'end'], help: `${what}: last`, when, run: (ctx) => to(ctx, 'last') },
  ];
}

/** Lines to scroll for a move in a text view of `height` rows. */
export function scrollDelta(move: Move, height: number): number {
  if (move === 'first') return -Infinity;
  if (move === 'last') return Infinity;
  if (typeof move === 'number') return move;
  return move.page * Math.max(1, height - 1);
}

/** The filter-typing keys (a text field): keep, clear, delete, and move the list without leaving it. */
export function filterBindings<S, C extends BindingContext<S> = KeyContext<S>>(
  when: Mode<S>,
  f: {
    keep(s: S): S;
    clear(s: S): S;
    backspace(s: S): S;
    move?(ctx: C, by: number): void;
  },
): Binding<S, C>[] {
  const out: Binding<S, C>[] = [
    { keys: ['enter'], help: 'keep the filter and go back to the list', hint: 'keep', when, run: (c) => c.set(f.keep) },
    { keys: ['escape'], help: 'clear the filter', hint: 'clear', when, run: (c) => c.set(f.clear) },
    { keys: ['backspace'], help: 'delete the last character', when, run: (c) => c.set(f.backspace) },
  ];
  const move = f.move;
  if (move) {
    out.push(
      { keys: ['down'], help: 'move the selection while typing', when, run: (c) => move(c, 1) },
      { keys: ['up'], help: 'move the selection up while typing', when, run: (c) => move(c, -1) },
    );
  }
  return out;
}

export const mode = <S>(name: string, test: (s: S) => boolean): Mode<S> => ({ name, test });

/**
 * A list's own filter keys, the same in every pane: `/` starts typing a
 * filter, Esc clears one that is kept (only while there is one, so Esc means
 * "back" otherwise). Only the help text differs: what the filter matches.
 */
export function filterStartBindings<S, C extends BindingContext<S> = KeyContext<S>>(
  when: Mode<S>,
  help: string,
  f: { start(s: S): S; clear(s: S): S; filtered(s: S): boolean },
): Binding<S, C>[] {
  return [
    { keys: ['/'], help, hint: 'filter', when, run: (c) => c.set(f.start) },
    {
      keys: ['escape'],
      help: 'clear the filter',
      when: mode<S>(when.name, (s) => when.test(s) && f.filtered(s)),
      run: (c) => c.set(f.clear),
    },
  ];
}
