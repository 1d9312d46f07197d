/**
 * The fleet view's UI state, outside React and reduced synchronously per key
 * (as UiStore does for the panes), so a burst of keys never reads a stale
 * state. Which root is open, the list selection (by line identity), a
 * confirmation being asked, the help being read, the row filter, the last message.
 */
import { fleetLines, lineId, type FleetLine, type FleetRow, type FleetSnapshot } from '../../fleet/model.js';
import { initList, listView, moveList, settleList, type Ids, type ListState, type Move } from '../../kit/list.js';
import { GroupedLines, type LineList } from './grouped-lines.js';
import { cleanLine } from '../../io/sanitize.js';
import { statusWords } from '../sessions/rows.js';
import { rowSearchText } from './layout.js';
import type { ScrollAnchor } from '../../ui/overlay-lines.js';

export interface FleetConfirm {
  title: string;
  lines: string[];
  onYes(): void;
}

export interface FleetUiState {
  /** The local root whose panes are on screen; null = the fleet list. */
  open: string | null;
  list: ListState;
  confirm: FleetConfirm | null;
  flash: { text: string; kind: 'info' | 'error' } | null;
  /**
   * The `?` help (or, `what`, the `!` problems list) on screen, scrolled to this line of the width `at` names (and whether that was its end: a
   * resize keeps the part at its top, or its end; keys.ts fleetHelpScroll); null when closed.
   */
  help: { scroll: number; at?: ScrollAnchor; what?: 'problems' } | null;
  /** Rows shown: every word must be in the row's text as drawn (layout.ts rowSearchText). */
  filter: string;
  filterEditing: boolean;
}

export const initFleetUi = (): FleetUiState => ({
  open: null,
  list: initList(),
  confirm: null,
  flash: null,
  help: null,
  filter: '',
  filterEditing: false,
});

export class FleetUi {
  private state: FleetUiState = initFleetUi();
  private listeners = new Set<() => void>();

  getSnapshot = () => this.state;
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(next: Partial<FleetUiState>): void {
    this.state = { ...this.state, ...next };
    for (const l of [...this.listeners]) l();
  }

  /** A pure transition (the bindings table's `set`), applied at once so the next key reads it. */
  update(next: FleetUiState | ((s: FleetUiState) => FleetUiState)): void {
    const s = typeof next === 'function' ? next(this.state) : next;
    if (s !== this.state) this.set(s);
  }
  open(rootId: string | null): void {
    this.set({ open: rootId });
  }
  flash(text: string, kind: 'info' | 'error' = 'info'): void {
    this.set({ flash: { text, kind } });
  }
  /** Pins the selection to a line identity after a frame (rows that sort above it later do not take the cursor). */
  settle(snap: FleetSnapshot, height: number): void {
    // While the first read of the roots is under way, projects keep arriving and many sort above the first one
    // read. Until the user picks a line the cursor stays on the top line (as the sessions pane does), instead of
    // following the first project's header down the list and opening the fleet scrolled into another project.
    if (this.state.list.id === null && !snap.ready) return;
    const next = settleList(this.state.list, shownIds(snap, this.state.filter), height);
    if (next.id !== this.state.list.id || next.top !== this.state.list.top || next.index !== this.state.list.index)
      this.set({ list: next });
  }
}

/** A row's search text: the words its line draws (layout.ts), with the status's plain word beside a countdown. */
const haystack = (l: FleetLine & { kind: 'row' }, now: number) =>
  `${rowSearchText(l.group.label, l.row, now)} ${statusWords(l.row.status)}`;

/**
 * A group header shown under a filter, with the rows shown below it: Enter on it opens the worktree of one of
 * those rows, never the group's first row's when the filter left that one out (a project with 2 worktrees).
 */
type ShownGroupLine = FleetLine & { kind: 'group'; shown: FleetRow[] };

/**
 * The lines on screen for a filter: every row whose text has every word of
 * it, under its group's header (a group with no such row is left out).
 */
export function shownLines(snap: FleetSnapshot, filter: string): LineList {
  return shown(snap, filter).lines;
}

/** The ids of the lines shown (the list model's keys), in order. */
export const shownIds = (snap: FleetSnapshot, filter: string): Ids => shown(snap, filter).ids;

/**
 * The last snapshot's lines and ids for the last filter: the settle, the view, the counts and each key ask for
 * them, and the fleet's 5 s age tick redraws the same snapshot. Callers never mutate what they get.
 */
let last: { snap: FleetSnapshot; filter: string; lines: LineList; ids: Ids; rows: number } | null = null;

function shown(snap: FleetSnapshot, filter: string) {
  if (last && last.snap === snap && last.filter === filter) return last;
  if (filter.trim() === '') {
    // No filter: every group whole, read through the groups' own lines (a change costs its group, not the fleet).
    const all = new GroupedLines(snap.groups);
    last = { snap, filter, lines: all, ids: all.ids, rows: all.rows };
    return last;
  }
  const lines = computeShownLines(snap, filter);
  last = { snap, filter, lines, ids: lines.map(lineId), rows: lines.filter((l) => l.kind === 'row').length };
  return last;
}

function computeShownLines(snap: FleetSnapshot, filter: string): FleetLine[] {
  const all = fleetLines(snap);
  const terms = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return all;
  const out: FleetLine[] = [];
  let head: FleetLine[] = [];
  let group: ShownGroupLine | null = null;
  const now = Date.now();
  for (const l of all) {
    if (l.kind !== 'row') {
      if (l.kind === 'group') {
        group = { ...l, shown: [] };
        head = [group];
      } else head.push(l);
      continue;
    }
    const h = haystack(l, now);
    if (!terms.every((t) => h.includes(t))) continue;
    group?.shown.push(l.row);
    out.push(...head, l);
    head = [];
  }
  return out;
}

/** Moves the selection over the lines shown (a move clears the last message, as in the panes). */
export const moveFleet = (s: FleetUiState, snap: FleetSnapshot, to: Move, height: number): FleetUiState => ({
  ...s,
  list: moveList(s.list, shownIds(snap, s.filter), to, height),
  flash: null,
});

/** Session rows shown and in all, for the filter line. */
export function rowCounts(snap: FleetSnapshot, filter: string): { shown: number; total: number } {
  const total = snap.groups.reduce((n, g) => n + g.rows.length, 0);
  return { shown: shown(snap, filter).rows, total };
}

/** The filter line takes a row of the list while a filter is typed or kept. */
export const filtering = (s: FleetUiState) => s.filterEditing || s.filter !== '';

export const startFilter = (s: FleetUiState): FleetUiState => ({ ...s, filterEditing: true, flash: null });
export const endFilter = (s: FleetUiState): FleetUiState => ({ ...s, filterEditing: false });
export const clearFilter = (s: FleetUiState): FleetUiState => ({ ...s, filter: '', filterEditing: false });
export const typeFilter = (s: FleetUiState, text: string): FleetUiState => ({
  ...s,
  filter: [...(s.filter + cleanLine(text))].slice(0, 200).join(''),
});
export const backspaceFilter = (s: FleetUiState): FleetUiState => ({
  ...s,
  filter: [...s.filter].slice(0, -1).join(''),
});
export const openHelp = (s: FleetUiState): FleetUiState => ({ ...s, help: { scroll: 0 } });
export const openProblems = (s: FleetUiState): FleetUiState => ({ ...s, help: { scroll: 0, what: 'problems' } });
export const closeHelp = (s: FleetUiState): FleetUiState => ({ ...s, help: null });

/** The line under the cursor. */
export function selectedLine(
  snap: FleetSnapshot,
  ui: Pick<FleetUiState, 'list' | 'filter'>,
  height: number,
): FleetLine | null {
  const lines = shownLines(snap, ui.filter);
  const v = listView(ui.list, shownIds(snap, ui.filter), height);
  return v.index >= 0 ? (lines.at(v.index) ?? null) : null;
}

/** The row a key acts on: the selected row, or a group's first row shown (under a filter, the first that matched). */
export function selectedRow(line: FleetLine | null): FleetRow | null {
  if (!line) return null;
  if (line.kind === 'row') return line.row;
  const shown = 'shown' in line ? (line as ShownGroupLine).shown : null;
  return (shown ?? line.group.rows)[0] ?? null;
}
