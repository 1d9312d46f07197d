/**
 * The wiki pane: search OMC's wiki as you type (OMC's own ranking), filter by
 * category and tag, open a page (frontmatter summary, scrollable body,
 * followable links), and see OMC's lint findings as badges and as a list.
 */
import { isChar, isCtrl, isKey, type InputEvent } from '../../input/keys.js';
import { cleanLine } from '../../store/sanitize.js';
import { ageTickMs } from '../../ui/format.js';
import type { KeyContext, PaneModule } from '../types.js';
import { lintItems } from './lint-lines.js';
import { pageLines, pageLinks } from './page-lines.js';
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
  moveBy,
  moveLint,
  movePicker,
  moveTo,
  openLint,
  openPage,
  openTagPicker,
  pickLink,
  scrollPage,
  selectedIndex,
  startSearch,
  typePicker,
  typeQuery,
  type WikiPaneState,
} from './reducer.js';
import { wikiRows } from './rows.js';
import { WikiPaneView } from './view.js';

type Ctx = KeyContext<WikiPaneState>;

/** Rows of the pane body, as the app lays it out (header, flash and footer take 3, problems up to 2). */
const bodyRows = (ctx: Ctx) =>
  Math.max(
    1,
    ctx.size.rows - 1 - 3 - (ctx.store.problems.getSnapshot().length === 0 ? 0 : ctx.size.rows - 1 >= 20 ? 2 : 1),
  );
const listPage = (ctx: Ctx) => Math.max(1, Math.floor((bodyRows(ctx) - 3) / 2));
const isText = (ev: InputEvent) => ev.kind === 'key' && ev.key.name === 'char' && !ev.key.ctrl && !ev.key.meta;

function followLink(ctx: Ctx, index: number): void {
  const domain = ctx.store.wiki;
  const name = ctx.state.page?.name;
  const page = name ? domain.getSnapshot().byName.get(name) : undefined;
  if (!page) return;
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

function onPageKey(ev: InputEvent, ctx: Ctx): boolean {
  const snap = ctx.store.wiki.getSnapshot();
  const page = ctx.state.page ? snap.byName.get(ctx.state.page.name) : undefined;
  const links = page ? pageLinks(page, snap) : [];
  const total = page
    ? pageLines(page, snap, ctx.store.wiki.lint(ctx.app.now()), ctx.app.now(), ctx.size.columns - 1).length - 1
    : 0;
  const h = Math.max(1, bodyRows(ctx) - 1);
  const max = Math.max(0, total - h);
  const { set } = ctx;
  if (isKey(ev, 'escape') || isKey(ev, 'backspace') || isKey(ev, 'left') || isChar(ev, 'h')) set(back);
  else if (isKey(ev, 'down') || isChar(ev, 'j')) set((s) => scrollPage(s, 1, max));
  else if (isKey(ev, 'up') || isChar(ev, 'k')) set((s) => scrollPage(s, -1, max));
  else if (isKey(ev, 'pagedown') || isChar(ev, ' ') || isCtrl(ev, 'd')) set((s) => scrollPage(s, h, max));
  else if (isKey(ev, 'pageup') || isCtrl(ev, 'u')) set((s) => scrollPage(s, -h, max));
  else if (isKey(ev, 'home') || isChar(ev, 'g')) set((s) => scrollPage(s, -Infinity, max));
  else if (isKey(ev, 'end') || isChar(ev, 'G')) set((s) => scrollPage(s, Infinity, max));
  else if (isKey(ev, 'tab')) set((s) => pickLink(s, links.length, 1));
  else if (isKey(ev, 'backtab')) set((s) => pickLink(s, links.length, -1));
  else if (isKey(ev, 'enter') || isKey(ev, 'right') || isChar(ev, 'l')) {
    if ((ctx.state.page?.link ?? -1) >= 0) followLink(ctx, ctx.state.page!.link);
    else if (links.length > 0) ctx.app.flash('Tab picks a link, Enter follows it (or press its number)', 'info');
  } else if (ev.kind === 'key' && /^[1-9]$/.test(ev.key.ch) && !ev.key.ctrl && !ev.key.meta)
    followLink(ctx, Number(ev.key.ch) - 1);
  else if (isChar(ev, '/')) set((s) => startSearch({ ...s, page: null, history: [] }));
  else return false;
  return true;
}

function onLintKey(ev: InputEvent, ctx: Ctx): boolean {
  const domain = ctx.store.wiki;
  const items = lintItems(domain.getSnapshot(), domain.lint(ctx.app.now()));
  const { set } = ctx;
  const pageSize = Math.max(1, bodyRows(ctx) - 3);
  if (isKey(ev, 'escape') || isKey(ev, 'backspace') || isChar(ev, 'L') || isKey(ev, 'left') || isChar(ev, 'h'))
    set(back);
  else if (isKey(ev, 'down') || isChar(ev, 'j')) set((s) => moveLint(s, items.length, 1));
  else if (isKey(ev, 'up') || isChar(ev, 'k')) set((s) => moveLint(s, items.length, -1));
  else if (isKey(ev, 'pagedown') || isCtrl(ev, 'd')) set((s) => moveLint(s, items.length, pageSize));
  else if (isKey(ev, 'pageup') || isCtrl(ev, 'u')) set((s) => moveLint(s, items.length, -pageSize));
  else if (isKey(ev, 'home') || isChar(ev, 'g')) set((s) => moveLint(s, items.length, -Infinity));
  else if (isKey(ev, 'end') || isChar(ev, 'G')) set((s) => moveLint(s, items.length, Infinity));
  else if (isKey(ev, 'enter') || isKey(ev, 'right') || isChar(ev, 'l')) {
    const it = items[Math.min(ctx.state.lintSelected, items.length - 1)];
    if (it) set((s) => openPage(s, it.page));
  } else if (isChar(ev, '/')) set(startSearch);
  else return false;
  return true;
}

function onPickerKey(ev: InputEvent, ctx: Ctx): boolean {
  const domain = ctx.store.wiki;
  if (!ctx.state.picker) return false;
  const options = pickerTags(domain.getSnapshot(), ctx.state.picker.filter);
  const { set } = ctx;
  if (ev.kind === 'paste') set((s) => typePicker(s, ev.text));
  else if (isKey(ev, 'escape')) set(closeTagPicker);
  else if (isKey(ev, 'enter')) {
    const o = options[Math.min(ctx.state.picker.selected, options.length - 1)];
    set((s) => chooseTag(s, o ? o.tag : s.tag));
  } else if (isKey(ev, 'backspace')) set(backspacePicker);
  else if (isKey(ev, 'down') || isCtrl(ev, 'n')) set((s) => movePicker(s, options.length, 1));
  else if (isKey(ev, 'up') || isCtrl(ev, 'p')) set((s) => movePicker(s, options.length, -1));
  else if (isText(ev) && ev.kind === 'key') set((s) => typePicker(s, ev.key.ch));
  // Every other key is swallowed: the picker is modal and takes typed text.
  return true;
}

function onKey(ev: InputEvent, ctx: Ctx): boolean {
  const { state, set, store } = ctx;
  if (state.picker) return onPickerKey(ev, ctx);
  if (state.view === 'page') return ev.kind === 'key' && onPageKey(ev, ctx);
  if (state.view === 'lint') return ev.kind === 'key' && onLintKey(ev, ctx);
  const domain = store.wiki;
  const snap = domain.getSnapshot();
  const names = () => wikiRows(domain, snap, state).rows.map((r) => r.page.filename);
  const open = () => {
    const list = names();
    const name = list[selectedIndex(state, list)];
    if (name) set((s) => openPage(endSearch(s), name));
    else set(endSearch);
  };

  if (state.editing) {
    if (ev.kind === 'paste') set((s) => typeQuery(s, ev.text));
    else if (isKey(ev, 'enter')) open();
    else if (isKey(ev, 'escape')) set(clearQuery);
    else if (isKey(ev, 'tab')) set(endSearch);
    else if (isKey(ev, 'backspace')) set(backspaceQuery);
    else if (isCtrl(ev, 'u')) set((s) => ({ ...s, query: '', top: 0, selected: null }));
    else if (isCtrl(ev, 'w')) set(deleteWord);
    else if (isKey(ev, 'down') || isCtrl(ev, 'n')) set((s) => moveBy(s, names(), 1));
    else if (isKey(ev, 'up') || isCtrl(ev, 'p')) set((s) => moveBy(s, names(), -1));
    else if (isKey(ev, 'pagedown')) set((s) => moveBy(s, names(), listPage(ctx)));
    else if (isKey(ev, 'pageup')) set((s) => moveBy(s, names(), -listPage(ctx)));
    else if (isText(ev) && ev.kind === 'key') set((s) => typeQuery(s, ev.key.ch));
    else return false;
    return true;
  }
  if (ev.kind !== 'key') return false;
  if (isChar(ev, '/')) set(startSearch);
  else if (isKey(ev, 'down') || isChar(ev, 'j')) set((s) => moveBy(s, names(), 1));
  else if (isKey(ev, 'up') || isChar(ev, 'k')) set((s) => moveBy(s, names(), -1));
  else if (isKey(ev, 'pagedown') || isCtrl(ev, 'd')) set((s) => moveBy(s, names(), listPage(ctx)));
  else if (isKey(ev, 'pageup') || isCtrl(ev, 'u')) set((s) => moveBy(s, names(), -listPage(ctx)));
  else if (isKey(ev, 'home') || isChar(ev, 'g')) set((s) => moveTo(s, names(), 0));
  else if (isKey(ev, 'end') || isChar(ev, 'G')) set((s) => moveTo(s, names(), Infinity));
  else if (isKey(ev, 'enter') || isKey(ev, 'right') || isChar(ev, 'l')) open();
  else if (isChar(ev, 'c')) set((s) => cycleCategory(s, snap.categories, 1));
  else if (isChar(ev, 'C')) set((s) => cycleCategory(s, snap.categories, -1));
  // Not `t`: that is the global key of the Teams pane.
  else if (isChar(ev, '#')) set(openTagPicker);
  else if (isChar(ev, 'x')) set(clearFilters);
  else if (isChar(ev, 'L')) set(openLint);
  else if (isKey(ev, 'escape') && state.query !== '') set(clearQuery);
  else if (isKey(ev, 'escape') && (state.category !== null || state.tag !== null)) set(clearFilters);
  else return false;
  return true;
}

export const wikiPane: PaneModule<WikiPaneState> = {
  id: 'wiki',
  title: 'Wiki',
  hotkey: 'w',
  init: initWikiPane,
  onKey,
  capturesText: (s) => s.editing || s.picker !== null,
  hints: (s) =>
    s.picker
      ? [
          ['type', 'narrow'],
          ['⏎', 'filter'],
          ['Esc', 'cancel'],
        ]
      : s.editing
        ? [
            ['type', 'search'],
            ['↑↓', 'pick'],
            ['⏎', 'open'],
            ['Esc', 'clear'],
          ]
        : s.view === 'page'
          ? [
              ['↑↓', 'scroll'],
              ['Tab', 'link'],
              ['⏎', 'follow'],
              ['Esc', 'back'],
            ]
          : s.view === 'lint'
            ? [
                ['↑↓', 'move'],
                ['⏎', 'open'],
                ['Esc', 'back'],
              ]
            : [
                ['/', 'search'],
                ['⏎', 'open'],
                ['c', 'category'],
                ['#', 'tag'],
                ['L', 'lint'],
              ],
  help: [
    ['/', "search as you type: OMC's wiki_query ranking (tags, title, body); nothing is written to log.md"],
    ['↑ / ↓ (while typing)', 'move the selection without leaving the search box'],
    ['Enter', 'open the selected page (also while typing)'],
    ['Esc', 'clear the search / back from a page or the lint list'],
    ['j / k, g / G, PgUp / PgDn', 'move in the list; scroll a page'],
    ['c / C', 'next / previous category filter'],
    ['#', 'pick a tag to filter by (type to narrow)'],
    ['x', 'clear the category and tag filters'],
    ['L', "lint list: unreadable pages and OMC's wiki_lint findings"],
    ['Tab / Shift-Tab (page)', 'pick a link; Enter follows it; 1–9 follow link N'],
    ['Backspace (page)', 'back to the page you followed the link from'],
  ],
  View: WikiPaneView,
  nextTick(state, store, now) {
    if (state.view !== 'page' || !state.page) return Infinity;
    const page = store.wiki.getSnapshot().byName.get(state.page.name);
    return page && Number.isFinite(page.updatedMs) ? ageTickMs(page.updatedMs, now) : Infinity;
  },
};
