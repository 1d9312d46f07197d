/**
 * The History pane's layout, shared by its view and its key handlers: the
 * rows shown, the list's height and window, the filter line.
 */
import type { RunLine } from '../../store/runs/history.js';
import { listView, type ListView } from '../../kit/list.js';
import type { Size } from '../../kit/pane.js';
import { hasFilter, runIds, visibleRuns, type HistoryPaneState } from './reducer.js';

export interface HistoryLayout {
  rows: RunLine[];
  ids: string[];
  showFilter: boolean;
  height: number;
  view: ListView;
}

export function historyLayout(state: HistoryPaneState, runs: readonly RunLine[], body: Size): HistoryLayout {
  const rows = visibleRuns(runs, state);
  const ids = runIds(rows);
  const showFilter = state.filterEditing || hasFilter(state);
  const height = Math.max(1, body.rows - 1 - (showFilter ? 1 : 0));
  return { rows, ids, showFilter, height, view: listView(state.list, ids, height) };
}

/** "mode ralph · outcome crashed · /words": the filters in force. */
export function filterSummary(s: HistoryPaneState): string {
  return [s.mode ? `mode ${s.mode}` : '', s.outcome ? `outcome ${s.outcome}` : ''].filter(Boolean).join(' · ');
}
