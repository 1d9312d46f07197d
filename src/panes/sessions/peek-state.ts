/** The peek's pure transitions (P opens it for one session; it scrolls; Esc closes it). */
import { scrollTo } from '../../kit/list.js';
import type { SessionsPaneState } from './reducer.js';

export const openPeek = (state: SessionsPaneState, id: string): SessionsPaneState => ({
  ...state,
  peek: { id, scroll: 0 },
});
export const closePeek = (state: SessionsPaneState): SessionsPaneState => ({ ...state, peek: null });
export function scrollPeek(state: SessionsPaneState, delta: number, total: number, height: number): SessionsPaneState {
  if (!state.peek) return state;
  const scroll = scrollTo(state.peek.scroll, delta, total, height);
  return scroll === state.peek.scroll ? state : { ...state, peek: { ...state.peek, scroll } };
}
