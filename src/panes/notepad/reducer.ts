/**
 * Notepad pane state and its pure transitions: which tab, which entry is
 * selected (by entry id, so entries OMC adds while you read never move the
 * selection), the full-entry view, the filter, and the editor session.
 */
import type { EntryRef } from '../../store/notepad/edits.js';
import type { EntrySection, SectionId } from '../../store/notepad/format.js';
import { newestFirst, type NotepadEntry, type NotepadSnapshot } from '../../store/notepad/model.js';
import { bufferOf, type TextBuffer } from './editor.js';
import type { DraftOffer } from '../../kit/kept-drafts.js';
import { initList, listView, moveList, scrollTo, settleList, type ListState, type Move } from '../../kit/list.js';
import { ClockedRowsMemo, filterWords, showsEveryWord } from '../../kit/row-filter.js';
import { entrySearchText } from './rows.js';

export const TABS: readonly SectionId[] = ['priority', 'working', 'manual'];

export interface EditorSession {
  kind: 'add' | 'edit' | 'priority';
  section: SectionId;
  /** The entry being edited, as it was when editing started (edit only). */
  target: EntryRef | null;
  /** OMC's reading of Priority Context when editing started (priority only). */
  basePriority: string;
  /** The same text as it is in the file, comments included (priority only): a changed comment is a change on disk. */
  basePriorityRaw: string;
  /** Snapshot revision editing started from (to say "merged" after a save). */
  baseRevision: string | null;
  buf: TextBuffer;
  /** The text the editor opened with; the draft is dirty when it differs. */
  initial: string;
  /** Set when a save was refused because the target changed on disk. */
  conflict: { message: string; disk: string | null } | null;
  saving: boolean;
}

export interface NotepadPaneState {
  tab: SectionId;
  /** Each section's selection (an entry's identity) and scroll window. */
  lists: Record<SectionId, ListState>;
  /**
   * An entry the user just saved: selected as soon as the re-read shows it
   * (matched by its text; the newest such entry), so an
   * entry OMC appends meanwhile never takes the cursor.
   */
  pendingSelect: { section: SectionId; body: string } | null;
  /** Full view of one entry (Enter), with its scroll offset. */
  view: { id: string; scroll: number } | null;
  /** Scroll of the Priority text. */
  priorityScroll: number;
  filter: string;
  filterEditing: boolean;
  editor: EditorSession | null;
  /**
   * A draft kept when omc-top was last ended without asking (kit/kept-drafts.ts), offered above the editor that
   * just opened on its section: Ctrl-R restores it, Ctrl-X discards it; nothing is typed until one or the other (or Esc).
   */
  offer: DraftOffer<EditorSession> | null;
}

export const initNotepadPane = (): NotepadPaneState => ({
  tab: 'working',
  lists: { priority: initList(), working: initList(), manual: initList() },
  pendingSelect: null,
  view: null,
  priorityScroll: 0,
  filter: '',
  filterEditing: false,
  editor: null,
  offer: null,
});

const memo = new ClockedRowsMemo<NotepadSnapshot, NotepadEntry>();

/**
 * The rows of a tab, newest first, narrowed by the filter: every word must be in what the row shows at `now` (its
 * stamp, age, `due`, text: rows.ts entrySearchText).
 */
export function visibleEntries(snap: NotepadSnapshot, tab: SectionId, filter: string, now: number): NotepadEntry[] {
  if (tab === 'priority') return [];
  const words = filterWords(filter);
  // No word: the rows do not move with the clock.
  return memo.rows(snap, `${tab}\u0000${words.join(' ')}`, words.length === 0 ? 0 : now, () =>
    newestFirst(snap.sections[tab].entries).filter(
      (e) => words.length === 0 || showsEveryWord(entrySearchText(e, now, tab === 'working'), words),
    ),
  );
}

const idsMemo = new WeakMap<readonly NotepadEntry[], string[]>();
export function idsOf(rows: readonly NotepadEntry[]): string[] {
  let ids = idsMemo.get(rows);
  if (!ids) idsMemo.set(rows, (ids = rows.map((r) => r.id)));
  return ids;
}

export function selectedIndex(state: NotepadPaneState, rows: readonly NotepadEntry[]): number {
  return listView(state.lists[state.tab], idsOf(rows), Number.MAX_SAFE_INTEGER).index;
}

export function selectedEntry(state: NotepadPaneState, snap: NotepadSnapshot, now: number): NotepadEntry | null {
  if (state.view) return snap.sections[state.tab].entries.find((e) => e.id === state.view?.id) ?? null;
  const rows = visibleEntries(snap, state.tab, state.filter, now);
  return rows[selectedIndex(state, rows)] ?? null;
}

const withList = (state: NotepadPaneState, list: ListState): NotepadPaneState =>
  list === state.lists[state.tab] ? state : { ...state, lists: { ...state.lists, [state.tab]: list } };

export function moveSelection(
  state: NotepadPaneState,
  rows: readonly NotepadEntry[],
  to: Move,
  height: number,
): NotepadPaneState {
  return withList(state, moveList(state.lists[state.tab], idsOf(rows), to, height));
}

/** Remembers the entry being saved so the selection lands on it once it is read back. */
export function expectEntry(state: NotepadPaneState, section: SectionId, body: string): NotepadPaneState {
  return { ...state, pendingSelect: { section, body: body.trim() } };
}

/** Selection settling after a frame: the saved entry once it appears, then the identity and window on screen. */
export function settleSelection(
  state: NotepadPaneState,
  snap: NotepadSnapshot,
  height: number,
  now: number,
): NotepadPaneState {
  let st = state;
  const p = st.pendingSelect;
  if (p) {
    const hit = newestFirst(snap.sections[p.section].entries).find((e) => e.raw.trim() === p.body);
    if (hit) {
      const l = st.lists[p.section];
      st = { ...st, pendingSelect: null, lists: { ...st.lists, [p.section]: { ...l, id: hit.id } } };
    }
  }
  if (st.tab === 'priority' || st.view) return st;
  const rows = visibleEntries(snap, st.tab, st.filter, now);
  return withList(st, settleList(st.lists[st.tab], idsOf(rows), height));
}

export function switchTab(state: NotepadPaneState, tab: SectionId): NotepadPaneState {
  if (state.tab === tab && !state.view) return state;
  return { ...state, tab, view: null, filter: '', filterEditing: false };
}

export function cycleTab(state: NotepadPaneState, delta: number): NotepadPaneState {
  const i = TABS.indexOf(state.tab);
  return switchTab(state, TABS[(i + delta + TABS.length) % TABS.length] as SectionId);
}

export function openView(state: NotepadPaneState, id: string): NotepadPaneState {
  return { ...withList(state, { ...state.lists[state.tab], id }), view: { id, scroll: 0 } };
}
export const closeView = (state: NotepadPaneState): NotepadPaneState => ({ ...state, view: null });
export function scrollView(state: NotepadPaneState, delta: number, total: number, height: number): NotepadPaneState {
  if (!state.view) return { ...state, priorityScroll: scrollTo(state.priorityScroll, delta, total, height) };
  return { ...state, view: { ...state.view, scroll: scrollTo(state.view.scroll, delta, total, height) } };
}

export const startFilter = (s: NotepadPaneState): NotepadPaneState => ({ ...s, filterEditing: true });
export const typeFilter = (s: NotepadPaneState, t: string): NotepadPaneState => ({ ...s, filter: s.filter + t });
export const backspaceFilter = (s: NotepadPaneState): NotepadPaneState => ({
  ...s,
  filter: Array.from(s.filter).slice(0, -1).join(''),
});
export const endFilter = (s: NotepadPaneState): NotepadPaneState => ({ ...s, filterEditing: false });
export const clearFilter = (s: NotepadPaneState): NotepadPaneState => ({ ...s, filter: '', filterEditing: false });

/** Names `e` for an edit; `all` (the section's entries now) lets a refused save tell "changed" from "gone". */
export const refOf = (section: EntrySection, e: NotepadEntry, all: readonly NotepadEntry[] = []): EntryRef => ({
  section,
  id: e.id,
  stamp: e.stamp,
  body: e.body,
  raw: e.raw,
  siblings: all.filter((x) => x.stamp === e.stamp && x.id !== e.id).map((x) => x.id),
});

/** Opens the editor: a new entry, an existing entry, or the Priority text. */
export function openEditor(
  state: NotepadPaneState,
  snap: NotepadSnapshot,
  what:
    | { kind: 'add'; section: EntrySection }
    | { kind: 'edit'; section: EntrySection; entry: NotepadEntry }
    | { kind: 'priority' },
  draft?: string,
): NotepadPaneState {
  // The raw text, never the sanitised `display`: a save writes the buffer back, and every character the user
  // did not touch (a tab, an escape sequence, an HTML comment OMC does not read) must land as it was. The view
  // shows it safely (ui/edit-units.ts).
  const initial = what.kind === 'edit' ? what.entry.raw : what.kind === 'priority' ? snap.sections.priority.raw : '';
  const text = draft ?? initial;
  return {
    ...state,
    filterEditing: false,
    offer: null,
    editor: {
      kind: what.kind,
      section: what.kind === 'priority' ? 'priority' : what.section,
      target: what.kind === 'edit' ? refOf(what.section, what.entry, snap.sections[what.section].entries) : null,
      basePriority: snap.sections.priority.text,
      basePriorityRaw: snap.sections.priority.raw,
      baseRevision: snap.revision,
      buf: bufferOf(text),
      initial,
      conflict: null,
      saving: false,
    },
  };
}

export function editBuffer(state: NotepadPaneState, fn: (b: TextBuffer) => TextBuffer): NotepadPaneState {
  // Nothing is typed over an offered draft: the field stays clean, so a hang-up now keeps that draft's file.
  if (!state.editor || state.editor.saving || state.offer) return state;
  const buf = fn(state.editor.buf);
  return buf === state.editor.buf ? state : { ...state, editor: { ...state.editor, buf } };
}

export const isDirty = (e: EditorSession): boolean => e.buf.text !== e.initial;

/**
 * What the draft changed from the text it opened with, in characters: the span between the common start and the
 * common end, as removed from the one and added in the other. A whole entry back from $EDITOR with a word added
 * counts that word, not the entry.
 */
export function draftChange(before: string, after: string): { added: number; removed: number } {
  const a = Array.from(before);
  const b = Array.from(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { added: b.length - head - tail, removed: a.length - head - tail };
}

export const closeEditor = (state: NotepadPaneState): NotepadPaneState => ({ ...state, editor: null, offer: null });

/** Shows `offer` above the editor just opened (null: none kept for its section). */
export const withOffer = (state: NotepadPaneState, offer: DraftOffer<EditorSession> | null): NotepadPaneState =>
  offer === state.offer ? state : { ...state, offer };

/** r: the kept draft's editor replaces the fresh one (unsaved). */
export function restoreOffer(state: NotepadPaneState): NotepadPaneState {
  const o = state.offer;
  return o?.kind === 'draft' ? { ...state, editor: o.restore, offer: null } : state;
}

export const dropOffer = (state: NotepadPaneState): NotepadPaneState => ({ ...state, offer: null });

export function setSaving(state: NotepadPaneState, saving: boolean): NotepadPaneState {
  return state.editor ? { ...state, editor: { ...state.editor, saving } } : state;
}

/**
 * A save was refused because the target changed on disk. The draft stays;
 * the editor now starts from what is on disk, so a second Ctrl-S is a
 * deliberate choice made after seeing it: it replaces the changed entry, or
 * (when the entry is gone) saves the draft as a new entry.
 */
export function rebaseAfterConflict(
  state: NotepadPaneState,
  snap: NotepadSnapshot,
  conflict: { message: string; disk: string | null },
): NotepadPaneState {
  const ed = state.editor;
  if (!ed) return state;
  let next: EditorSession = {
    ...ed,
    saving: false,
    conflict,
    baseRevision: snap.revision,
    basePriority: snap.sections.priority.text,
    basePriorityRaw: snap.sections.priority.raw,
  };
  if (ed.kind === 'edit' && ed.target) {
    // The changed entry is the one whose text the refusal showed (its identity changed with its text).
    const all = snap.sections[ed.target.section].entries;
    const now = all.find((e) => e.stamp === ed.target?.stamp && e.raw === conflict.disk);
    next = now ? { ...next, target: refOf(ed.target.section, now, all) } : { ...next, kind: 'add', target: null };
  }
  return { ...state, editor: next };
}
