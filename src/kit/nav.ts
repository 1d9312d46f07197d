/**
 * The navigation keys every list and every scrollable view shares, written
 * once: j/k, arrows, g/G, Home/End, PgUp/PgDn (Ctrl-U/D) and the mouse wheel.
 * A pane says how to move (`to`) and in which mode; the keys are the same everywhere.
 */
import type { Binding, BindingContext, Mode } from './bindings.js';
import type { Move } from './list.js';
import type { KeyContext } from './pane.js';

/** The footer hint of the move keys: the footer shows it after the pane's own actions. */
export const MOVE_HINT = 'move';

export function navBindings<S, C extends BindingContext<S> = KeyContext<S>>(
  when: Mode<S>,
  what: string,
  to: (ctx: C, move: Move) => void,
  opts: { hint?: boolean } = {},
): Binding<S, C>[] {
  return [
    {
      keys: ['j', 'down', 'wheeldown'],
      help: `${what}: down`,
      hint: opts.hint === false ? undefined : MOVE_HINT,
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
