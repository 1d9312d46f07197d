/**
 * The wiki pane's layout, shared by its view and its key handlers: the result
 * list (two rows per page), the lint list, and the page body.
 */
import type { WikiDomain, WikiSnapshot } from '../../store/wiki/domain.js';
import { omcReadsIt } from '../../store/wiki/page.js';
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

/** Pages past omc-top's read limit, once per snapshot (a keystroke lays out again, the pages stay the same). */
const tooLargeCounts = new WeakMap<WikiSnapshot, number>();
function tooLargeIn(snap: WikiSnapshot): number {
  let n = tooLargeCounts.get(snap);
  if (n === undefined) {
    n = 0;
    for (const p of snap.pages) if (!p.searchable && omcReadsIt(p)) n += 1;
    tooLargeCounts.set(snap, n);
  }
  return n;
}

/**
 * The line above search results when some pages are not searched: those OMC cannot read either (it skips them too),
 * and those only omc-top does not search (too large for it: OMC reads them, so its own ranking can hold them).
 */
export function notSearchedNote(unsearchable: number, tooLarge: number): string {
  const skipped = unsearchable - tooLarge;
  const parts: string[] = [];
  if (skipped > 0) parts.push(`${skipped} page${skipped === 1 ? '' : 's'} OMC cannot read`);
  if (tooLarge > 0)
    parts.push(
      `${tooLarge} page${tooLarge === 1 ? '' : 's'} too large for omc-top (OMC reads ${tooLarge === 1 ? 'it' : 'them'})`,
    );
  return `${parts.join(' and ')} ${unsearchable === 1 ? 'is' : 'are'} not searched (L lists them)`;
}

export function resultsLayout(state: WikiPaneState, domain: WikiDomain, snap: WikiSnapshot, body: Size): ResultsLayout {
  // Memoised per snapshot and query, names included (the view, the settle step and the keys each lay out the list).
  const rows = wikiRows(domain, snap, state);
  const { unsearchable, searching } = rows;
  const note = searching && unsearchable > 0 ? notSearchedNote(unsearchable, tooLargeIn(snap)) : null;
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
