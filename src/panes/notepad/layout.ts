/**
 * The notepad pane's layout, shared by its view and its key handlers: how
 * many rows the entry list, the preview, the Priority text and a full entry get.
 */
import type { NotepadEntry, NotepadSnapshot } from '../../store/notepad/model.js';
import { wrapText } from '../../ui/format.js';
import { listView, type ListView } from '../../kit/list.js';
import type { Size } from '../../kit/pane.js';
import { idsOf, visibleEntries, type NotepadPaneState } from './reducer.js';

/** Rows under the tab bar and the info line. */
export const contentRows = (body: Size) => Math.max(1, body.rows - 2);

export interface EntryListLayout {
  rows: NotepadEntry[];
  ids: string[];
  showFilter: boolean;
  /** Rows for entries; the selected entry's text goes below them when there is room. */
  listRows: number;
  previewRows: number;
  view: ListView;
}

export function entryListLayout(
  state: NotepadPaneState,
  snap: NotepadSnapshot,
  body: Size,
  now: number,
): EntryListLayout {
  const rows = visibleEntries(snap, state.tab, state.filter, now);
  const ids = idsOf(rows);
  const showFilter = state.filterEditing || state.filter !== '';
  const avail = Math.max(1, contentRows(body) - (showFilter ? 1 : 0));
  const previewRows = avail >= 10 ? Math.max(3, Math.floor(avail * 0.4)) : 0;
  const listRows = Math.max(1, avail - previewRows);
  return { rows, ids, showFilter, listRows, previewRows, view: listView(state.lists[state.tab], ids, listRows) };
}

export interface TextLayout {
  lines: string[];
  height: number;
}

/** The Priority text, or one entry read in full (its header takes a row). */
export function textLayout(display: string, body: Size, full: boolean): TextLayout {
  return {
    lines: wrapText(display, Math.max(10, body.columns - 2)),
    height: Math.max(1, contentRows(body) - (full ? 1 : 0)),
  };
}
