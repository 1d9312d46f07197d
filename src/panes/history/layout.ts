/**
 * The History pane's layout, shared by its view and its key handlers: the
 * rows shown, the list's height and window, the filter line.
 */
import type { RunLine } from '../../store/runs/history.js';
import { listView, type ListView } from '../../kit/list.js';
import type { Size } from '../../kit/pane.js';
import { underTitles, type ListPlace } from '../../kit/nav.js';
import { hasFilter, runIds, visibleRuns, type HistoryPaneState } from './reducer.js';
import type { RunCosts } from './costs.js';
import { historyHeader } from './rows.js';

export interface HistoryLayout {
  rows: RunLine[];
  ids: string[];
  showFilter: boolean;
  /** A source of runs there but not read while others were (RunsDomain.notRead): one line above the titles says so. */
  incomplete: string | null;
  height: number;
  /**
   * The `↓N more` note has a line of its own below the rows (the list one row shorter): beside the column titles it
   * would cut the last of them, which a narrow pane fills to its edge (at 60 and 80 columns).
   */
  noteLine: boolean;
  view: ListView;
}

export function historyLayout(
  state: HistoryPaneState,
  runs: readonly RunLine[],
  body: Size,
  notRead: string | null,
  /** What the cost and tokens cells are read from (the filter finds a run by them too). */
  costs: RunCosts | null,
): HistoryLayout {
  const rows = visibleRuns(runs, state, costs);
  const ids = runIds(rows);
  const showFilter = state.filterEditing || hasFilter(state);
  // With no run at all the list's own line says the runs are not known; with some, they are not all of them.
  const incomplete = runs.length > 0 ? notRead : null;
  const room = Math.max(1, body.rows - 1 - (showFilter ? 1 : 0) - (incomplete !== null ? 1 : 0));
  // The longest note this list can have (`↑N ↓N more`), so the line does not come and go as the list scrolls.
  const longest = `↑${rows.length} ↓${rows.length} more`.length;
  const noteLine =
    rows.length > room && room >= 3 && historyHeader(body.columns).trimEnd().length + 2 + longest > body.columns;
  const height = noteLine ? room - 1 : room;
  return { rows, ids, showFilter, incomplete, height, noteLine, view: listView(state.list, ids, height) };
}

/** Where a click's list begins: below the filter line, the incomplete line and the column titles. */
export const historyPlace = (l: HistoryLayout): ListPlace => {
  const place = underTitles(l);
  return { ...place, firstRow: place.firstRow + (l.incomplete !== null ? 1 : 0) };
};

/** "mode ralph · outcome crashed · /words": the filters in force. */
export function filterSummary(s: HistoryPaneState): string {
  return [s.mode ? `mode ${s.mode}` : '', s.outcome ? `outcome ${s.outcome}` : ''].filter(Boolean).join(' · ');
}
