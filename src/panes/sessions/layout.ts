/**
 * The sessions pane's layout, used by its view and its key handlers alike: the
 * visible rows, the list's height and scroll window, and the detail view's lines.
 */
import { rowFlight } from '../../store/cancel/in-flight.js';
import { rowSettlement } from '../../store/cancel/settled.js';
import type { CancelRecord } from '../../store/cancel/cancel-records.js';
import type { TrackedCancel } from '../../store/cancel/tracker.js';
import type { SessionView, SessionsSnapshot } from '../../store/sessions/model.js';
import { listView, textWindow, type ListView } from '../../kit/list.js';
import type { Size } from '../../kit/pane.js';
import { detailLines, type DetailLine } from './detail.js';
import type { ClaudeSessionView } from '../../store/claude/model.js';
import { configuredPrices } from '../../store/claude/price-config.js';
import { agentDetail } from './agent-lines.js';
import { idsOf, visibleSessions, type SessionsPaneState } from './reducer.js';

export interface ListLayout {
  rows: SessionView[];
  ids: readonly string[];
  showFilter: boolean;
  /** Rows for sessions (the pane less the column header and the filter line). */
  height: number;
  view: ListView;
}

export function listLayout(
  state: SessionsPaneState,
  snap: SessionsSnapshot,
  body: Size,
  /** The frame's clock: the filter reads the ages the rows show then. */
  now: number,
  /** The Claude join: the filter reads the rows' CLAUDE cells too. */
  claude?: ReadonlyMap<string, ClaudeSessionView>,
): ListLayout {
  const rows = visibleSessions(snap, state, now, claude);
  const ids = idsOf(rows);
  const showFilter = state.filterEditing || state.filter !== '';
  const height = Math.max(1, body.rows - 1 - (showFilter ? 1 : 0));
  return { rows, ids, showFilter, height, view: listView(state.list, ids, height) };
}

export interface DetailLayout {
  lines: DetailLine[];
  height: number;
}

/** Lines other domains add (run-facts.ts): `top` before the first mode's section, `bottom` at the end. */
export interface DetailExtra {
  top: readonly DetailLine[];
  bottom: readonly DetailLine[];
  /** A permission prompt of this session is listed here to answer (the hook handed it over): y / n answer it. */
  answerable?: boolean;
  /** The pid of the Claude that asks this session's pending permission prompt (J goes to it), or absent. */
  askerPid?: number | null;
}

export function detailLayout(
  s: SessionView,
  body: Size,
  now: number,
  tracked?: TrackedCancel,
  claude?: ClaudeSessionView,
  runs: DetailExtra = { top: [], bottom: [] },
  /** omc-top's record of its newest cancel of this session (any process's): the status line's word in flight. */
  record?: CancelRecord,
): DetailLayout {
  const extra = agentDetail(s, claude, now, configuredPrices(), runs.answerable === true, runs.askerPid ?? null);
  const flight = rowFlight(tracked, record, s, claude, now);
  const settled = flight ? null : rowSettlement(tracked, record, s, now);
  const lines = detailLines(s, now, body.columns - 1, tracked, extra, flight, settled);
  // The run facts (stories, 5.6 files) go before the first mode's section; the rest at the end.
  const at = lines.findIndex((l) => l.mode !== undefined);
  const cut = at === -1 ? lines.length : at;
  return { lines: [...lines.slice(0, cut), ...runs.top, ...lines.slice(cut), ...runs.bottom], height: body.rows };
}

/** The scroll that keeps the selected mode's title on screen (Tab / `]` must not move it out of view). */
export function scrollToMode(l: DetailLayout, scroll: number, modeIndex: number): number {
  const at = l.lines.findIndex((x) => x.tone === 'title' && x.mode === modeIndex);
  if (at < 0) return scroll;
  const w = textWindow(l.lines.length, scroll, l.height);
  if (at >= w.start && at < w.end) return scroll;
  // Put the title near the top, with the mode's fields below it.
  return Math.max(0, Math.min(at, textWindow(l.lines.length, Infinity, l.height).start));
}
