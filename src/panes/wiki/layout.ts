/**
 * The wiki pane's layout, shared by its view and its key handlers: the result
 * list (two rows per page, one when only one is left), the lint list, and the page body.
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

/** The lines above the results that fit: a short pane drops the filter line first, then the column titles. */
export interface ResultsChrome {
  search: boolean;
  filter: boolean;
  header: boolean;
}

export interface ResultsLayout {
  rows: WikiRows;
  names: Ids;
  unsearchable: number;
  searching: boolean;
  /** The not-searched note below the list: null when there is none or no line is left for it. */
  note: string | null;
  chrome: ResultsChrome;
  /** The screen row of the first result, counted from the pane's first row. */
  firstRow: number;
  /** Lines a page takes: two (title, then tags and snippet), or one (its title) when only one line is left. */
  linesPerPage: 1 | 2;
  /** Pages that fit. */
  height: number;
  view: ListView;
}

/**
 * What the results list shows in `lines` rows. A page row is its title line and then its tag line; a tag line
 * without its title names nothing, so when only one line is left for the list a page is its title alone. Below
 * four rows the lines above the list give way, filter first, then the column titles, then the search line (the
 * query and its count stay as long as a result shows with them), so a page's title is always on screen.
 */
export function resultsRoom(
  lines: number,
  wantsNote: boolean,
): { chrome: ResultsChrome; note: boolean; linesPerPage: 1 | 2; height: number } {
  const search = lines >= 2;
  const header = lines >= 3;
  const filter = lines >= 4;
  const above = (search ? 1 : 0) + (header ? 1 : 0) + (filter ? 1 : 0);
  // The note takes its line only beside a whole page row.
  const note = wantsNote && lines - above >= 3;
  const left = Math.max(1, lines - above - (note ? 1 : 0));
  const linesPerPage = left >= 2 ? 2 : 1;
  return { chrome: { search, filter, header }, note, linesPerPage, height: Math.floor(left / linesPerPage) };
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
  const room = resultsRoom(body.rows, searching && unsearchable > 0);
  const note = room.note ? notSearchedNote(unsearchable, tooLargeIn(snap)) : null;
  const { chrome, linesPerPage, height } = room;
  const firstRow = (chrome.search ? 1 : 0) + (chrome.filter ? 1 : 0) + (chrome.header ? 1 : 0);
  const names = rows.names;
  const view = listView(state.list, names, height);
  return { rows, names, unsearchable, searching, note, chrome, firstRow, linesPerPage, height, view };
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
