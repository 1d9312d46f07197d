/**
 * History pane state and its pure transitions. The selection is a run's
 * identity (runId), so runs that start or end above it never move it. The
 * mode and outcome filters cycle through the values present in the history;
 * `/` adds free words (session, reason, who ended it).
 */
import type { RunLine, RunOutcome } from '../../store/runs/history.js';
import { filterChoices, filterRuns } from '../../store/runs/history.js';
import { initList, moveList, scrollTo, settleList, type ListState, type Move } from '../../kit/list.js';
import { filterWords, showsEveryWord } from '../../kit/row-filter.js';
import { costOf, type RunCosts } from './costs.js';
import { runCells } from './rows.js';

export interface HistoryPaneState {
  list: ListState;
  mode: string | null;
  outcome: RunOutcome | null;
  filter: string;
  filterEditing: boolean;
  /** Enter on a run: its details, scrolled. */
  detail: { id: string; scroll: number } | null;
}

export const initHistoryPane = (): HistoryPaneState => ({
  list: initList(),
  mode: null,
  outcome: null,
  filter: '',
  filterEditing: false,
  detail: null,
});

/** A run's identity: the first ledger / summary line it came from names it uniquely. */
export function runId(r: RunLine): string {
  return `${r.mode}\u0000${r.sessionId ?? ''}\u0000${r.where[0] ?? r.startedMs ?? ''}`;
}

/**
 * The words the `/` filter reads in a run: every cell its row shows, whole (rows.ts runCells: a column left out of
 * a narrow pane still finds its run), and beside them the end line's own word for the outcome and where the run
 * was read from (the detail shows both).
 */
function haystack(r: RunLine, costs: RunCosts | null): string {
  const cost = costs ? costOf(costs, r) : { spend: null, reading: false };
  return [...Object.values(runCells(r, cost.spend, cost.reading)), r.outcomeWritten ?? '', r.source].join(' ');
}

/** Per runs array: the costs its answers were read with (a new rollup or Claude snapshot asks again), and those. */
const memo = new WeakMap<readonly RunLine[], { costs: RunCosts | null; byKey: Map<string, RunLine[]> }>();
const sameCosts = (a: RunCosts | null, b: RunCosts | null) =>
  a === b || (a !== null && b !== null && a.spends === b.spends && a.claude === b.claude);

/** The runs shown: both cycling filters, then every word of the text filter in what the run's row shows. */
export function visibleRuns(runs: readonly RunLine[], s: HistoryPaneState, costs: RunCosts | null): RunLine[] {
  const words = filterWords(s.filter);
  const key = `${s.mode ?? ''}\u0000${s.outcome ?? ''}\u0000${words.join(' ')}`;
  let m = memo.get(runs);
  // Without a word the costs do not change the rows.
  if (!m || (words.length > 0 && !sameCosts(m.costs, costs))) memo.set(runs, (m = { costs, byKey: new Map() }));
  const hit = m.byKey.get(key);
  if (hit) return hit;
  const rows = filterRuns(runs, { mode: s.mode, outcome: s.outcome }).filter(
    (r) => words.length === 0 || showsEveryWord(haystack(r, costs), words),
  );
  m.byKey.set(key, rows);
  return rows;
}

const idsMemo = new WeakMap<readonly RunLine[], string[]>();
export function runIds(rows: readonly RunLine[]): string[] {
  let ids = idsMemo.get(rows);
  if (!ids) idsMemo.set(rows, (ids = rows.map(runId)));
  return ids;
}

/** The next value of a cycling filter: all → each value present → all. */
function cycle<T>(cur: T | null, values: readonly T[]): T | null {
  if (values.length === 0) return null;
  const i = cur === null ? -1 : values.indexOf(cur);
  return i + 1 >= values.length ? null : (values[i + 1] as T);
}

/**
 * Each cycling filter steps through the values present under the other one (the outcomes of the runs of the mode
 * chosen, and the other way round), so a step never lands on a filter that shows none of the runs ("0 of 40").
 */
export const cycleMode = (s: HistoryPaneState, runs: readonly RunLine[]): HistoryPaneState => ({
  ...s,
  mode: cycle(s.mode, filterChoices(filterRuns(runs, { outcome: s.outcome })).modes),
});
export const cycleOutcome = (s: HistoryPaneState, runs: readonly RunLine[]): HistoryPaneState => ({
  ...s,
  outcome: cycle(s.outcome, filterChoices(filterRuns(runs, { mode: s.mode })).outcomes),
});
export const clearFilters = (s: HistoryPaneState): HistoryPaneState => ({
  ...s,
  mode: null,
  outcome: null,
  filter: '',
  filterEditing: false,
});
export const hasFilter = (s: HistoryPaneState) => s.mode !== null || s.outcome !== null || s.filter !== '';

export const startFilter = (s: HistoryPaneState): HistoryPaneState => ({ ...s, filterEditing: true });
export const typeFilter = (s: HistoryPaneState, text: string): HistoryPaneState => ({ ...s, filter: s.filter + text });
export const backspaceFilter = (s: HistoryPaneState): HistoryPaneState => ({
  ...s,
  filter: Array.from(s.filter).slice(0, -1).join(''),
});
export const endFilter = (s: HistoryPaneState): HistoryPaneState => ({ ...s, filterEditing: false });
export const clearTextFilter = (s: HistoryPaneState): HistoryPaneState => ({ ...s, filter: '', filterEditing: false });

export function moveRun(s: HistoryPaneState, rows: readonly RunLine[], to: Move, height: number): HistoryPaneState {
  const list = moveList(s.list, runIds(rows), to, height);
  return list === s.list ? s : { ...s, list };
}

export function settleRuns(s: HistoryPaneState, rows: readonly RunLine[], height: number): HistoryPaneState {
  const list = settleList(s.list, runIds(rows), height);
  return list === s.list ? s : { ...s, list };
}

export const openDetail = (s: HistoryPaneState, id: string): HistoryPaneState => ({
  ...s,
  list: { ...s.list, id },
  detail: { id, scroll: 0 },
});
export const closeDetail = (s: HistoryPaneState): HistoryPaneState => ({ ...s, detail: null });

export function scrollDetail(s: HistoryPaneState, delta: number, total: number, height: number): HistoryPaneState {
  if (!s.detail) return s;
  return { ...s, detail: { ...s.detail, scroll: scrollTo(s.detail.scroll, delta, total, height) } };
}
