/**
 * Sessions pane state and its pure transitions. Selection is kept by session
 * id, not by row index, so a row that moves (its status changed) stays
 * selected, and rows that did not change never jump.
 */
import type { SessionView, SessionsSnapshot } from '../../store/sessions/model.js';
import { initList, listView, moveList, scrollTo, type ListState, type Move } from '../../ui/list.js';

export interface SessionsPaneState {
  /** The selected session (by id) and the scroll window. */
  list: ListState;
  filter: string;
  filterEditing: boolean;
  detail: { id: string; scroll: number; modeIndex: number } | null;
}

export const initSessionsPane = (): SessionsPaneState => ({
  list: initList(),
  filter: '',
  filterEditing: false,
  detail: null,
});

function haystack(s: SessionView): string {
  const parts = [s.id, s.status, s.kind];
  for (const m of s.modes) parts.push(m.mode, m.status, m.phase ?? '', m.prompt ?? '', ...m.extras);
  if (s.cancel) parts.push('cancel', 'cancelling');
  if (s.problems.length > 0) parts.push('problem');
  return parts.join(' ').toLowerCase();
}

const memo = new WeakMap<SessionsSnapshot, Map<string, SessionView[]>>();

/** Rows shown for a filter: every whitespace-separated term must appear somewhere in the row. */
export function visibleSessions(snap: SessionsSnapshot, filter: string): SessionView[] {
  const f = filter.trim().toLowerCase();
  if (f === '') return snap.sessions as SessionView[];
  let byFilter = memo.get(snap);
  if (!byFilter) memo.set(snap, (byFilter = new Map()));
  const hit = byFilter.get(f);
  if (hit) return hit;
  const terms = f.split(/\s+/);
  const rows = snap.sessions.filter((s) => {
    const h = haystack(s);
    return terms.every((t) => h.includes(t));
  });
  byFilter.set(f, rows);
  return rows;
}

const idsMemo = new WeakMap<readonly SessionView[], string[]>();
export function idsOf(rows: readonly SessionView[]): string[] {
  let ids = idsMemo.get(rows);
  if (!ids) idsMemo.set(rows, (ids = rows.map((r) => r.id)));
  return ids;
}

/** Index of the selected row (its identity, else its nearest neighbour); -1 for an empty list. */
export function selectedIndex(state: SessionsPaneState, rows: readonly SessionView[]): number {
  return listView(state.list, idsOf(rows), Number.MAX_SAFE_INTEGER).index;
}

export function moveSelection(
  state: SessionsPaneState,
  rows: readonly SessionView[],
  to: Move,
  height: number,
): SessionsPaneState {
  const list = moveList(state.list, idsOf(rows), to, height);
  return list === state.list ? state : { ...state, list };
}

/** Pins the selection to a session, e.g. the one being cancelled, so it stays selected when its row moves. */
export function selectId(state: SessionsPaneState, id: string): SessionsPaneState {
  return state.list.id === id ? state : { ...state, list: { ...state.list, id } };
}

export function startFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filterEditing: true };
}
export function typeFilter(state: SessionsPaneState, text: string): SessionsPaneState {
  return { ...state, filter: state.filter + text };
}
export function backspaceFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filter: Array.from(state.filter).slice(0, -1).join('') };
}
export function endFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filterEditing: false };
}
export function clearFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filter: '', filterEditing: false };
}

export function openDetail(state: SessionsPaneState, id: string): SessionsPaneState {
  return { ...state, list: { ...state.list, id }, detail: { id, scroll: 0, modeIndex: 0 } };
}
export function closeDetail(state: SessionsPaneState): SessionsPaneState {
  return { ...state, detail: null };
}
export function scrollDetail(
  state: SessionsPaneState,
  delta: number,
  total: number,
  height: number,
): SessionsPaneState {
  if (!state.detail) return state;
  const scroll = scrollTo(state.detail.scroll, delta, total, height);
  return scroll === state.detail.scroll ? state : { ...state, detail: { ...state.detail, scroll } };
}
export function selectDetailMode(state: SessionsPaneState, delta: number, modeCount: number): SessionsPaneState {
  if (!state.detail || modeCount === 0) return state;
  const modeIndex = (state.detail.modeIndex + delta + modeCount) % modeCount;
  return { ...state, detail: { ...state.detail, modeIndex } };
}
