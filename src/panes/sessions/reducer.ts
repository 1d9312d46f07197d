/**
 * Sessions pane state and its pure transitions. Selection is kept by session
 * id, not by row index, so a row that moves (its status changed) stays
 * selected, and rows that did not change never jump.
 */
import type { SessionView, SessionsSnapshot } from '../../store/sessions/model.js';

export interface SessionsPaneState {
  selectedId: string | null;
  /** First visible row. The view clamps it so the selection is always on screen. */
  top: number;
  filter: string;
  filterEditing: boolean;
  detail: { id: string; scroll: number; modeIndex: number } | null;
}

export const initSessionsPane = (): SessionsPaneState => ({
  selectedId: null,
  top: 0,
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

/** Index of the selected row; falls back to the first row when the selection vanished. */
export function selectedIndex(state: SessionsPaneState, rows: readonly SessionView[]): number {
  if (rows.length === 0) return -1;
  const i = state.selectedId === null ? -1 : rows.findIndex((r) => r.id === state.selectedId);
  return i === -1 ? 0 : i;
}

export function moveBy(state: SessionsPaneState, rows: readonly SessionView[], delta: number): SessionsPaneState {
  if (rows.length === 0) return state;
  const i = Math.max(0, Math.min(rows.length - 1, selectedIndex(state, rows) + delta));
  return { ...state, selectedId: (rows[i] as SessionView).id };
}

export function moveTo(state: SessionsPaneState, rows: readonly SessionView[], index: number): SessionsPaneState {
  if (rows.length === 0) return state;
  const i = Math.max(0, Math.min(rows.length - 1, index));
  return { ...state, selectedId: (rows[i] as SessionView).id };
}

export { clampTop } from '../../ui/list-window.js';

/** Pins the selection to a session, e.g. the one being cancelled, so it stays selected when its row moves. */
export function selectId(state: SessionsPaneState, id: string): SessionsPaneState {
  return state.selectedId === id ? state : { ...state, selectedId: id };
}

export function startFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filterEditing: true };
}
export function typeFilter(state: SessionsPaneState, text: string): SessionsPaneState {
  return { ...state, filter: state.filter + text, top: 0 };
}
export function backspaceFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filter: Array.from(state.filter).slice(0, -1).join(''), top: 0 };
}
export function endFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filterEditing: false };
}
export function clearFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filter: '', filterEditing: false, top: 0 };
}

export function openDetail(state: SessionsPaneState, id: string): SessionsPaneState {
  return { ...state, selectedId: id, detail: { id, scroll: 0, modeIndex: 0 } };
}
export function closeDetail(state: SessionsPaneState): SessionsPaneState {
  return { ...state, detail: null };
}
export function scrollDetail(state: SessionsPaneState, delta: number, maxScroll: number): SessionsPaneState {
  if (!state.detail) return state;
  const scroll = Math.max(0, Math.min(maxScroll, state.detail.scroll + delta));
  return { ...state, detail: { ...state.detail, scroll } };
}
export function selectDetailMode(state: SessionsPaneState, delta: number, modeCount: number): SessionsPaneState {
  if (!state.detail || modeCount === 0) return state;
  const modeIndex = (state.detail.modeIndex + delta + modeCount) % modeCount;
  return { ...state, detail: { ...state.detail, modeIndex } };
}
