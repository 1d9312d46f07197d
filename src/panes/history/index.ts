/**
 * The History pane: one line per run of an unattended mode (OMC 5.6's run
 * ledger, the ended-session summaries, omc-top's own iteration samples),
 * filtered by mode (f), outcome (o) and words (/); Enter shows a run's details.
 * It reads only the runs domain's history and the Claude snapshot.
 */
import type { Binding } from '../../kit/bindings.js';
import { filterBindings, mode, navBindings, scrollDelta } from '../../kit/nav.js';
import type { KeyContext, PaneModule } from '../../kit/pane.js';
import { runDetailLines } from './detail.js';
import { historyLayout, historyPlace } from './layout.js';
import {
  backspaceFilter,
  clearFilters,
  clearTextFilter,
  closeDetail,
  cycleMode,
  cycleOutcome,
  endFilter,
  hasFilter,
  initHistoryPane,
  moveRun,
  openDetail,
  runId,
  scrollDetail,
  settleRuns,
  startFilter,
  typeFilter,
  type HistoryPaneState,
} from './reducer.js';
import { detailInputs, HistoryView } from './view.js';
import { runCosts } from './costs.js';

type S = HistoryPaneState;
type Ctx = KeyContext<S>;

const FILTER = mode<S>('typing a filter', (s) => s.filterEditing);
const LIST = mode<S>('run list', (s) => !s.filterEditing && s.detail === null);
const DETAIL = mode<S>('run detail', (s) => !s.filterEditing && s.detail !== null);

const runsOf = (ctx: Ctx) => ctx.store.runs.runs();
const list = (ctx: Ctx) =>
  historyLayout(ctx.state, runsOf(ctx), ctx.body, ctx.store.runs.notRead(), runCosts(ctx.store));
const selected = (ctx: Ctx) => {
  const l = list(ctx);
  return l.rows[l.view.index];
};
const detailLines = (ctx: Ctx) => {
  const r = runsOf(ctx).find((x) => runId(x) === ctx.state.detail?.id);
  return r ? runDetailLines(r, ctx.body.columns - 1, detailInputs(ctx.store, r)) : [];
};

const bindings: Binding<S>[] = [
  ...filterBindings(FILTER, {
    keep: endFilter,
    clear: clearTextFilter,
    backspace: backspaceFilter,
    move: (ctx, by) => {
      const l = list(ctx);
      ctx.set((s) => moveRun(s, l.rows, by, l.height));
    },
  }),
  ...navBindings(
    LIST,
    'runs',
    (ctx, to) => {
      const l = list(ctx);
      ctx.set((s) => moveRun(s, l.rows, to, l.height));
    },
    { place: (ctx) => historyPlace(list(ctx)) },
  ),
  {
    keys: ['enter', 'right', 'l'],
    help: 'open the run: times, outcome and what it means, closeout, iterations, tokens, what OMC will say next session, the ledger lines',
    hint: 'detail',
    when: LIST,
    disabled: (ctx) => (selected(ctx) ? null : 'no run selected'),
    // No run on screen (none yet, or the filters match none): said when pressed, not offered in the footer.
    offered: (ctx) => selected(ctx) !== undefined,
    run: (ctx) => {
      const r = selected(ctx);
      if (r) ctx.set((s) => openDetail(s, runId(r)));
    },
  },
  {
    keys: ['f'],
    help: 'filter by mode: all → each mode with runs of the outcome chosen → all',
    hint: 'mode',
    when: LIST,
    run: (ctx) => ctx.set((s) => cycleMode(s, runsOf(ctx))),
  },
  {
    keys: ['o'],
    help: 'filter by outcome: all → running → completed → cancelled → failed → crashed → ended → unknown → all (those the mode chosen has)',
    hint: 'outcome',
    when: LIST,
    run: (ctx) => ctx.set((s) => cycleOutcome(s, runsOf(ctx))),
  },
  {
    keys: ['/'],
    help: "filter runs by the words their rows show (mode, session, times, outcome, took, closeout, cost, note) and the end line's own word for the outcome",
    hint: 'filter',
    when: LIST,
    run: (ctx) => ctx.set(startFilter),
  },
  {
    keys: ['escape'],
    help: 'clear every filter',
    when: mode<S>('run list', (s) => LIST.test(s) && hasFilter(s)),
    run: (ctx) => ctx.set(clearFilters),
  },
  ...navBindings(
    DETAIL,
    'scroll',
    (ctx, to) => {
      const total = detailLines(ctx).length;
      ctx.set((s) => scrollDetail(s, scrollDelta(to, ctx.body.rows), total, ctx.body.rows));
    },
    { hint: false },
  ),
  {
    keys: ['escape', 'backspace', 'left', 'h'],
    help: 'back to the run list',
    hint: 'back',
    when: DETAIL,
    run: (ctx) => ctx.set(closeDetail),
  },
];

export const historyPane: PaneModule<S> = {
  id: 'history',
  title: 'History',
  // Free in every pane and every mode: h is "back" in detail views, r edits notepad's priority.
  hotkey: 'R',
  init: initHistoryPane,
  bindings,
  typing: {
    active: (s) => s.filterEditing,
    type: (ctx, text) => ctx.set((s) => typeFilter(s, text.replace(/\s+/g, ' '))),
  },
  sources: (store) => [store.runs.subscribe],
  settle(state, store, body) {
    if (state.detail) return state;
    const l = historyLayout(state, store.runs.runs(), body, store.runs.notRead(), runCosts(store));
    return settleRuns(state, l.rows, l.height);
  },
  View: HistoryView,
};
