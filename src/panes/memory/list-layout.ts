/**
 * The directive list's layout, shared by the view and the key handlers: the
 * rows, and how many of them fit once the detail, summary and malformed lines
 * below the list have taken theirs.
 */
import type { MemoryModel } from '../../store/memory/model.js';
import { listView, type ListView } from '../../kit/list.js';
import type { Size } from '../../kit/pane.js';
import { detailLines, summaryLines, visibleDirectives } from './layout.js';
import type { MemoryPaneState } from './reducer.js';

export interface MemoryListLayout {
  keys: string[];
  height: number;
  view: ListView;
}

export function memoryListLayout(
  state: MemoryPaneState,
  model: MemoryModel,
  body: Size,
  now: number,
): MemoryListLayout {
  const rows = visibleDirectives(model, state.filter, now);
  const keys = rows.map((r) => r.key);
  const first = listView(state.list, keys, Number.MAX_SAFE_INTEGER);
  const selected = rows[first.index];
  const { columns: width, rows: height } = body;
  const showSummary = height >= 16;
  const detailMax = height >= 12 ? 4 : height >= 8 ? 2 : 0;
  const detail = selected && detailMax > 0 ? detailLines(selected, now, width, detailMax).length : 0;
  const showFilter = state.filterEditing || state.filter !== '';
  const fixed =
    2 +
    (showFilter ? 1 : 0) +
    (detail ? detail + 1 : 0) +
    (showSummary ? summaryLines(model, width).length + 1 : 0) +
    model.malformed.length;
  const listHeight = Math.max(1, height - fixed);
  return { keys, height: listHeight, view: listView(state.list, keys, listHeight) };
}
