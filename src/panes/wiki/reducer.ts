import { initList, listView, moveList, scrollTo, type Ids, type ListState, type Move } from '../../kit/list.js';

/**
 * Wiki pane state and its pure transitions. The list selection is kept by
 * file name, so a page that moves in the ranking stays selected while the
 * user types; the page view keeps a back stack for followed links.
 */

export type WikiView = 'list' | 'page' | 'lint';

export interface TagPicker {
  filter: string;
  selected: number;
}

export interface PageState {
  name: string;
  scroll: number;
  /** Index into the page's followable links; -1 = none picked. */
  link: number;
}

export interface WikiPaneState {
  view: WikiView;
  query: string;
  /** The search box has the keyboard. */
  editing: boolean;
  category: string | null;
  tag: string | null;
  picker: TagPicker | null;
  /** The selected result (by file name) and the result list's window. */
  list: ListState;
  page: PageState | null;
  /** Where Esc returns to from the page view once the back stack is empty. */
  pageFrom: 'list' | 'lint';
  /** Pages to go back to (the page view's Esc/Backspace). */
  history: PageState[];
  /** The selected lint finding (page + finding) and the lint list's window. */
  lint: ListState;
}

export const initWikiPane = (): WikiPaneState => ({
  view: 'list',
  query: '',
  editing: false,
  category: null,
  tag: null,
  picker: null,
  list: initList(),
  page: null,
  pageFrom: 'list',
  history: [],
  lint: initList(),
});

// --- search box -------------------------------------------------------------

export const startSearch = (s: WikiPaneState): WikiPaneState => ({ ...s, editing: true, view: 'list' });
export const typeQuery = (s: WikiPaneState, text: string): WikiPaneState => ({
  ...s,
  query: s.query + text.replace(/[\r\n\t]+/g, ' '),
  list: initList(),
});
export const backspaceQuery = (s: WikiPaneState): WikiPaneState => ({
  ...s,
  query: Array.from(s.query).slice(0, -1).join(''),
  list: initList(),
});
/** Ctrl-W: drop the last word (and the spaces after it). */
export const deleteWord = (s: WikiPaneState): WikiPaneState => ({
  ...s,
  query: s.query.replace(/\S*\s*$/, ''),
  list: initList(),
});
export const clearQuery = (s: WikiPaneState): WikiPaneState => ({
  ...s,
  query: '',
  editing: false,
  list: initList(),
});
export const endSearch = (s: WikiPaneState): WikiPaneState => ({ ...s, editing: false });

// --- list -------------------------------------------------------------------

export function selectedIndex(s: WikiPaneState, names: Ids): number {
  return listView(s.list, names, Number.MAX_SAFE_INTEGER).index;
}

export function moveSelection(s: WikiPaneState, names: Ids, to: Move, height: number): WikiPaneState {
  const list = moveList(s.list, names, to, height);
  return list === s.list ? s : { ...s, list };
}

// --- filters ----------------------------------------------------------------

/** c / C: all → each category in turn → all. */
export function cycleCategory(s: WikiPaneState, categories: readonly string[], delta: 1 | -1): WikiPaneState {
  const options: Array<string | null> = [null, ...categories];
  const cur = Math.max(0, options.indexOf(s.category));
  const next = options[(cur + delta + options.length) % options.length] ?? null;
  return { ...s, category: next, list: initList() };
}

export const openTagPicker = (s: WikiPaneState): WikiPaneState => ({ ...s, picker: { filter: '', selected: 0 } });
export const closeTagPicker = (s: WikiPaneState): WikiPaneState => ({ ...s, picker: null });
export function typePicker(s: WikiPaneState, text: string): WikiPaneState {
  if (!s.picker) return s;
  // With something typed, the best match (right under "(any tag)") is the natural choice.
  return { ...s, picker: { filter: s.picker.filter + text.replace(/\s+/g, ' '), selected: 1 } };
}
export function backspacePicker(s: WikiPaneState): WikiPaneState {
  if (!s.picker) return s;
  const filter = Array.from(s.picker.filter).slice(0, -1).join('');
  return { ...s, picker: { filter, selected: filter === '' ? 0 : 1 } };
}
export function movePicker(s: WikiPaneState, total: number, delta: number): WikiPaneState {
  if (!s.picker || total === 0) return s;
  return { ...s, picker: { ...s.picker, selected: Math.max(0, Math.min(total - 1, s.picker.selected + delta)) } };
}
export const chooseTag = (s: WikiPaneState, tag: string | null): WikiPaneState => ({
  ...s,
  tag,
  picker: null,
  list: initList(),
});
export const clearFilters = (s: WikiPaneState): WikiPaneState => ({
  ...s,
  category: null,
  tag: null,
  list: initList(),
});

// --- page view --------------------------------------------------------------

export const openPage = (s: WikiPaneState, name: string): WikiPaneState => ({
  ...s,
  view: 'page',
  editing: false,
  list: s.view === 'list' ? { ...s.list, id: name } : s.list,
  page: { name, scroll: 0, link: -1 },
  pageFrom: s.view === 'page' ? s.pageFrom : s.view === 'lint' ? 'lint' : 'list',
  history: s.page && s.view === 'page' ? [...s.history, s.page] : [],
});

/** Back from a followed link to the page it came from, else to the list (or lint list) it was opened from. */
export function back(s: WikiPaneState): WikiPaneState {
  const prev = s.history[s.history.length - 1];
  if (s.view === 'page' && prev) return { ...s, page: prev, history: s.history.slice(0, -1) };
  return { ...s, view: s.view === 'page' ? s.pageFrom : 'list', page: null, history: [] };
}

export function scrollPage(s: WikiPaneState, delta: number, total: number, height: number): WikiPaneState {
  if (!s.page) return s;
  return { ...s, page: { ...s.page, scroll: scrollTo(s.page.scroll, delta, total, height) } };
}

export function pickLink(s: WikiPaneState, total: number, delta: 1 | -1): WikiPaneState {
  if (!s.page || total === 0) return s;
  const cur = s.page.link;
  const next = cur === -1 ? (delta === 1 ? 0 : total - 1) : (cur + delta + total) % total;
  return { ...s, page: { ...s.page, link: next } };
}

// --- lint list --------------------------------------------------------------

export const openLint = (s: WikiPaneState): WikiPaneState => ({
  ...s,
  view: 'lint',
  editing: false,
  lint: initList(),
});
export function moveLint(s: WikiPaneState, ids: readonly string[], to: Move, height: number): WikiPaneState {
  const lint = moveList(s.lint, ids, to, height);
  return lint === s.lint ? s : { ...s, lint };
}
