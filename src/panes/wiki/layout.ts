/**
 * The wiki pane's layout, shared by its view and its key handlers: the result
 * list (two rows per page), the lint list, and the page body.
 */
import type { WikiDomain, WikiSnapshot } from '../../store/wiki/domain.js';
import type { LintReport } from '../../store/wiki/lint.js';
import { listView, type Ids, type ListView } from '../../kit/list.js';
import type { Size } from '../../kit/pane.js';
import { lintItems, type LintItem } from './lint-lines.js';
import { pageLines, type PageLine } from './page-lines.js';
import type { WikiPaneState } from './reducer.js';
import { wikiRows, type WikiRow, type WikiRows } from './rows.js';

export interface ResultsLayout {
  rows: WikiRows;
  names: Ids;
  unsearchable: number;
  searching: boolean;
  note: string | null;
  /** Pages that fit (each takes two rows). */
  height: number;
  view: ListView;
}

/** The rows on screen: the only ones built. */
export function visibleRows(l: ResultsLayout): WikiRow[] {
  const out: WikiRow[] = [];
  const end = Math.min(l.rows.count, l.view.top + l.height);
  for (let i = Math.max(0, l.view.top); i < end; i++) out.push(l.rows.row(i));
  return out;
}

export function resultsLayout(state: WikiPaneState, domain: WikiDomain, snap: WikiSnapshot, body: Size): ResultsLayout {
  // Memoised per snapshot and query, names included (the view, the settle step and the keys each lay out the list).
  const rows = wikiRows(domain, snap, state);
  const { unsearchable, searching } = rows;
  const note =
    searching && unsearchable > 0
      ? `${unsearchable} page${unsearchable === 1 ? '' : 's'} OMC cannot read ${unsearchable === 1 ? 'is' : 'are'} not searched (L lists them)`
      : null;
  const height = Math.max(1, Math.floor((body.rows - 3 - (note ? 1 : 0)) / 2));
  const names = rows.names;
  return { rows, names, unsearchable, searching, note, height, view: listView(state.list, names, height) };
}

export interface LintLayout {
  items: LintItem[];
  ids: string[];
  height: number;
  view: ListView;
}

/** A finding's identity: its page and what it says (the list re-sorts as pages change). */
export const lintId = (it: LintItem) => `${it.page}\u0000${it.kind}\u0000${it.text}`;

export function lintLayout(state: WikiPaneState, snap: WikiSnapshot, lint: LintReport, body: Size): LintLayout {
  const items = lintItems(snap, lint);
  const ids = items.map(lintId);
  const height = Math.max(1, body.rows - 3);
  return { items, ids, height, view: listView(state.lint, ids, height) };
}

export interface PageLayout {
  title: PageLine | undefined;
  lines: PageLine[];
  height: number;
}

export function pageLayout(
  state: WikiPaneState,
  snap: WikiSnapshot,
  lint: LintReport,
  body: Size,
  now: number,
): PageLayout | null {
  const page = state.page ? snap.byName.get(state.page.name) : undefined;
  if (!page) return null;
  const [title, ...lines] = pageLines(page, snap, lint, now, body.columns - 1);
  return { title, lines, height: Math.max(1, body.rows - 1) };
}
