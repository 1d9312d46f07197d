/**
 * The wiki pane: search OMC's wiki as you type (OMC's own ranking), filter by
 * category and tag, open a page (frontmatter summary, scrollable body,
 * followable links), and see OMC's lint findings as badges and as a list.
 */
import type { Binding } from '../../kit/bindings.js';
import { settleList } from '../../kit/list.js';
import { mode, navBindings, scrollDelta } from '../../kit/nav.js';
import { lintLayout, pageLayout, resultsLayout } from './layout.js';
import { cleanLine } from '../../io/sanitize.js';
import { ageTickMs } from '../../ui/format.js';
import type { KeyContext, PaneModule } from '../../kit/pane.js';
import { pageLinks } from './page-lines.js';
import { pickerTags } from './picker.js';
import {
  back,
  backspacePicker,
  backspaceQuery,
  chooseTag,
  clearFilters,
  clearQuery,
  closeTagPicker,
  cycleCategory,
  deleteWord,
  endSearch,
  initWikiPane,
  moveSelection,
  moveLint,
  movePicker,
  openLint,
  openPage,
  openTagPicker,
  pickLink,
  scrollPage,
  startSearch,
  typePicker,
  typeQuery,
  type WikiPaneState,
} from './reducer.js';
import { WikiPaneView } from './view.js';

type Ctx = KeyContext<WikiPaneState>;
type S = WikiPaneState;

const PICKER = mode<S>('tag picker', (s) => s.picker !== null);
const SEARCH = mode<S>('typing a search', (s) => s.picker === null && s.editing);
const idle = (s: S) => s.picker === null && !s.editing;
const LIST = mode<S>('page list', (s) => idle(s) && s.view === 'list');
const PAGE = mode<S>('reading a page', (s) => idle(s) && s.view === 'page');
const LINT = mode<S>('lint list', (s) => idle(s) && s.view === 'lint');

const results = (ctx: Ctx) => {
  const d = ctx.store.wiki;
  return d ? resultsLayout(ctx.state, d, d.getSnapshot(), ctx.body) : null;
};
const moveResults = (ctx: Ctx, to: Parameters<typeof moveSelection>[2]) => {
  const l = results(ctx);
  if (l) ctx.set((s) => moveSelection(s, l.names, to, l.height));
};
const lintOf = (ctx: Ctx) => {
  const d = ctx.store.wiki;
  return d ? lintLayout(ctx.state, d.getSnapshot(), d.lint(ctx.app.now()), ctx.body) : null;
};
const pageOf = (ctx: Ctx) => {
  const d = ctx.store.wiki;
  return d ? pageLayout(ctx.state, d.getSnapshot(), d.lint(ctx.app.now()), ctx.body, ctx.app.now()) : null;
};
const linksOf = (ctx: Ctx) => {
  const d = ctx.store.wiki;
  const page = d && ctx.state.page ? d.getSnapshot().byName.get(ctx.state.page.name) : undefined;
  return d && page ? pageLinks(page, d.getSnapshot()) : [];
};
const pickerOptions = (ctx: Ctx) => {
  const d = ctx.store.wiki;
  return d && ctx.state.picker ? pickerTags(d.getSnapshot(), ctx.state.picker.filter) : [];
};

/** The result list's settle step: the selection pinned to the row shown (see settleList). */
function settleWiki(state: S, store: KeyContext<S>['store'], body: KeyContext<S>['body']): S {
  const d = store.wiki;
  if (!d || state.picker || state.view !== 'list') return state;
  const l = resultsLayout(state, d, d.getSnapshot(), body);
  const list = settleList(state.list, l.names, l.height);
  return list === state.list ? state : { ...state, list };
}

/**
 * The settle step (pinning the selection to the row shown first) done in the key's own transition: a key
 * that changes the query resets the selection, and pinning it in the effect after the frame would cost
 * each keystroke a second render of the whole screen for a frame that looks the same. The rows are
 * memoised per snapshot and query, so the frame reuses this search.
 */
const settled =
  (ctx: Ctx, step: (s: S) => S) =>
  (s: S): S =>
    settleWiki(step(s), ctx.store, ctx.body);

function openSelected(ctx: Ctx): void {
  const l = results(ctx);
  const name = l ? l.names.at(l.view.index) : undefined;
  if (name) ctx.set((s) => openPage(endSearch(s), name));
  else ctx.set(endSearch);
}

function followLink(ctx: Ctx, index: number): void {
  const domain = ctx.store.wiki;
  const name = ctx.state.page?.name;
  const page = domain && name ? domain.getSnapshot().byName.get(name) : undefined;
  if (!domain || !page) return;
  const target = pageLinks(page, domain.getSnapshot())[index];
  if (!target) return;
  if (!target.exists) {
    ctx.app.flash(
      `No page ${cleanLine(target.name)} in the wiki: this link is broken (OMC's lint reports it too)`,
      'error',
    );
    return;
  }
  ctx.set((s) => openPage(s, target.name));
}

function followPicked(ctx: Ctx): void {
  const links = linksOf(ctx);
  if ((ctx.state.page?.link ?? -1) >= 0) followLink(ctx, ctx.state.page!.link);
  else if (links.length > 0) ctx.app.flash('[ and ] pick a link, Enter follows it (or press its number)', 'info');
}

const bindings: Binding<S>[] = [
  { keys: ['escape'], help: 'cancel', hint: 'cancel', when: PICKER, run: (c) => c.set(closeTagPicker) },
  {
    keys: ['enter'],
    help: 'filter by the highlighted tag',
    hint: 'filter',
    when: PICKER,
    run: (c) => {
      const options = pickerOptions(c);
      const o = options[Math.min(c.state.picker?.selected ?? 0, options.length - 1)];
      c.set((s) => chooseTag(s, o ? o.tag : s.tag));
    },
  },
  { keys: ['backspace'], help: 'delete the last character', when: PICKER, run: (c) => c.set(backspacePicker) },
  {
    keys: ['down', 'ctrl+n', 'wheeldown'],
    help: 'next tag',
    when: PICKER,
    run: (c) => c.set((s) => movePicker(s, pickerOptions(c).length, 1)),
  },
  {
    keys: ['up', 'ctrl+p', 'wheelup'],
    help: 'previous tag',
    when: PICKER,
    run: (c) => c.set((s) => movePicker(s, pickerOptions(c).length, -1)),
  },
  { keys: ['enter'], help: 'open the selected page', hint: 'open', when: SEARCH, run: openSelected },
  {
    keys: ['escape'],
    help: 'clear the search',
    hint: 'clear',
    when: SEARCH,
    run: (c) => c.set(settled(c, clearQuery)),
  },
  { keys: ['tab'], help: 'leave the search box (keep the query)', when: SEARCH, run: (c) => c.set(endSearch) },
  {
    keys: ['backspace'],
    help: 'delete the last character',
    when: SEARCH,
    run: (c) => c.set(settled(c, backspaceQuery)),
  },
  {
    keys: ['ctrl+u'],
    help: 'clear the query',
    when: SEARCH,
    // Clear the text, stay in the box: the next key starts a new query.
    run: (c) => c.set(settled(c, (s) => ({ ...clearQuery(s), editing: true }))),
  },
  { keys: ['ctrl+w'], help: 'delete the last word', when: SEARCH, run: (c) => c.set(settled(c, deleteWord)) },
  {
    keys: ['down', 'ctrl+n', 'wheeldown'],
    help: 'move the selection without leaving the search box',
    hint: 'pick',
    hintKeys: '↑↓',
    when: SEARCH,
    run: (c) => moveResults(c, 1),
  },
  { keys: ['up', 'ctrl+p', 'wheelup'], help: 'move the selection up', when: SEARCH, run: (c) => moveResults(c, -1) },
  { keys: ['pagedown'], help: 'a page down', when: SEARCH, run: (c) => moveResults(c, { page: 1 }) },
  { keys: ['pageup'], help: 'a page up', when: SEARCH, run: (c) => moveResults(c, { page: -1 }) },
  {
    keys: ['/'],
    help: "search as you type: OMC's wiki_query ranking (tags, title, body); nothing is written to log.md",
    hint: 'search',
    when: LIST,
    run: (c) => c.set(startSearch),
  },
  ...navBindings(LIST, 'pages', moveResults, {
    hint: false,
    // The lines above the list that fit, then a page's lines (layout.ts `resultsRoom`, as view.tsx draws them).
    place: (ctx) => {
      const l = results(ctx);
      return l
        ? { firstRow: l.firstRow, view: l.view, height: l.height, total: l.rows.count, rowsPerItem: l.linesPerPage }
        : null;
    },
  }),
  { keys: ['enter', 'right', 'l'], help: 'open the selected page', hint: 'open', when: LIST, run: openSelected },
  {
    keys: ['c'],
    help: 'next category filter',
    hint: 'category',
    when: LIST,
    run: (c) => c.set((s) => cycleCategory(s, c.store.wiki.getSnapshot().categories ?? [], 1)),
  },
  {
    keys: ['C'],
    help: 'previous category filter',
    when: LIST,
    run: (c) => c.set((s) => cycleCategory(s, c.store.wiki.getSnapshot().categories ?? [], -1)),
  },
  // Not `t`: that is the global key of the Teams pane.
  {
    keys: ['#'],
    help: 'pick a tag to filter by (type to narrow)',
    hint: 'tag',
    when: LIST,
    run: (c) => c.set(openTagPicker),
  },
  { keys: ['x'], help: 'clear the category and tag filters', when: LIST, run: (c) => c.set(clearFilters) },
  {
    keys: ['L'],
    help: "lint list: unreadable pages and OMC's wiki_lint findings",
    hint: 'lint',
    when: LIST,
    run: (c) => c.set(openLint),
  },
  {
    keys: ['escape'],
    help: 'clear the search, then the filters',
    when: mode<S>('page list', (s) => LIST.test(s) && (s.query !== '' || s.category !== null || s.tag !== null)),
    run: (c) => c.set(settled(c, (s) => (s.query !== '' ? clearQuery(s) : clearFilters(s)))),
  },
  ...navBindings(
    PAGE,
    'scroll',
    (ctx, to) => {
      const l = pageOf(ctx);
      if (l) ctx.set((s) => scrollPage(s, scrollDelta(to, l.height), l.lines.length, l.height));
    },
    { hint: false },
  ),
  {
    keys: [' '],
    help: 'scroll a page down',
    when: PAGE,
    run: (ctx) => {
      const l = pageOf(ctx);
      if (l) ctx.set((s) => scrollPage(s, scrollDelta({ page: 1 }, l.height), l.lines.length, l.height));
    },
  },
  {
    keys: [']'],
    help: 'pick the next link',
    hint: 'link',
    hintKeys: '[ ]',
    when: PAGE,
    run: (c) => c.set((s) => pickLink(s, linksOf(c).length, 1)),
  },
  {
    keys: ['['],
    help: 'pick the previous link',
    when: PAGE,
    run: (c) => c.set((s) => pickLink(s, linksOf(c).length, -1)),
  },
  { keys: ['enter', 'right', 'l'], help: 'follow the picked link', hint: 'follow', when: PAGE, run: followPicked },
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n): Binding<S> => ({
    keys: [String(n)],
    help: `follow link ${n}`,
    when: PAGE,
    run: (c) => followLink(c, n - 1),
  })),
  {
    keys: ['/'],
    help: 'search again',
    when: PAGE,
    run: (c) => c.set((s) => startSearch({ ...s, page: null, history: [] })),
  },
  {
    keys: ['escape', 'backspace', 'left', 'h'],
    help: 'back to the page you followed the link from, else to the list',
    hint: 'back',
    when: PAGE,
    run: (c) => c.set(back),
  },
  ...navBindings(LINT, 'findings', (ctx, to) => {
    const l = lintOf(ctx);
    if (l) ctx.set((s) => moveLint(s, l.ids, to, l.height));
  }),
  {
    keys: ['enter', 'right', 'l'],
    help: "open the finding's page",
    hint: 'open',
    when: LINT,
    run: (c) => {
      const l = lintOf(c);
      const it = l?.items[l.view.index];
      if (it) c.set((s) => openPage(s, it.page));
    },
  },
  { keys: ['/'], help: 'search', when: LINT, run: (c) => c.set(startSearch) },
  {
    keys: ['escape', 'backspace', 'L', 'left', 'h'],
    help: 'back to the list',
    hint: 'back',
    when: LINT,
    run: (c) => c.set(back),
  },
];

export const wikiPane: PaneModule<WikiPaneState> = {
  id: 'wiki',
  title: 'Wiki',
  hotkey: 'w',
  init: initWikiPane,
  bindings,
  typing: {
    active: (s) => s.editing || s.picker !== null,
    type: (ctx, text) =>
      ctx.set((s) => (s.picker ? typePicker(s, text) : settled(ctx, (st) => typeQuery(st, text))(s))),
  },
  sources: (store) => {
    const d = store.wiki;
    return d ? [d.subscribe] : [];
  },
  settle(state, store, body, now) {
    const d = store.wiki;
    if (!d || state.picker || state.view === 'page') return state;
    if (state.view === 'lint') {
      const l = lintLayout(state, d.getSnapshot(), d.lint(now), body);
      const lint = settleList(state.lint, l.ids, l.height);
      return lint === state.lint ? state : { ...state, lint };
    }
    return settleWiki(state, store, body);
  },
  View: WikiPaneView,
  nextTick(state, store, now) {
    if (state.view !== 'page' || !state.page) return Infinity;
    const page = store.wiki.getSnapshot().byName.get(state.page.name);
    return page && Number.isFinite(page.updatedMs) ? ageTickMs(page.updatedMs, now) : Infinity;
  },
};
