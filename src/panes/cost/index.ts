/**
 * The Cost pane (hotkey $): what this project's loops really cost — every
 * loop (OMC's and Claude Code's own) with its burn rate and spend, the spend
 * per mode and per day, the plan quota and OMC's wait daemon, the budget
 * guard. One scrollable page; it reads only the store.
 */
import type { Binding } from '../../kit/bindings.js';
import { mode, navBindings, scrollDelta } from '../../kit/nav.js';
import { scrollTo } from '../../kit/list.js';
import type { KeyContext, PaneModule } from '../../kit/pane.js';
import { configuredPrices } from '../../store/claude/price-config.js';
import { costPaneLines } from './lines.js';
import type { CostPaneState } from './state.js';
import { CostView } from './view.js';

type S = CostPaneState;
const PAGE = mode<S>('cost page', () => true);

const total = (ctx: KeyContext<S>) =>
  costPaneLines(ctx.store, configuredPrices(), ctx.store.clock(), ctx.body.columns).length;

const bindings: Binding<S>[] = [
  ...navBindings(
    PAGE,
    'scroll',
    (ctx, to) => {
      const n = total(ctx);
      ctx.set((s) => ({ scroll: scrollTo(s.scroll, scrollDelta(to, ctx.body.rows), n, ctx.body.rows) }));
    },
    // One page, no selection: the footer says the keys scroll it.
    { hint: 'scroll' },
  ),
  {
    // One page of figures, not a list: `/` says so, so the letters typed next are not taken for a filter unseen.
    keys: ['/'],
    help: 'no filter here: the Cost pane is one page of figures (j/k scroll; History filters runs)',
    when: PAGE,
    run: (ctx) =>
      ctx.app.flash(
        'the Cost pane has no filter (one page of figures): keys typed now act as keys; History (R) filters runs',
        'info',
      ),
  },
];

export const costPane: PaneModule<S> = {
  id: 'cost',
  title: 'Cost',
  hotkey: '$',
  init: () => ({ scroll: 0 }),
  bindings,
  sources: (store) => [
    store.claude.subscribe,
    store.runs.subscribe,
    store.quota.subscribe,
    store.bgJobs.subscribe,
    store.cancels.subscribe,
    store.cancelRecords.subscribe,
  ],
  View: CostView,
};
