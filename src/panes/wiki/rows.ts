/**
 * What the wiki list shows for the current query and filters, and the text
 * of each row. Results are memoised per index version and query, so a
 * keystroke runs one search and a redraw runs none.
 */
import type { LintReport } from '../../store/wiki/lint.js';
import type { WikiPage } from '../../store/wiki/page.js';
import { firstLineSnippet, type Ranking } from '../../store/wiki/search.js';
import type { WikiDomain, WikiSnapshot } from '../../store/wiki/domain.js';
import { cleanLine } from '../../io/sanitize.js';
import { fit, width as cells } from '../../ui/format.js';
import type { Ids } from '../../kit/list.js';
import type { WikiPaneState } from './reducer.js';

export interface WikiRow {
  page: WikiPage;
  /** OMC's score; null while browsing (empty query). */
  score: number | null;
  /** Built when read: only the rows on screen ever are (19,000 matches at 20,000 pages would be 19,000 strings per keystroke). */
  readonly snippet: string;
}

/** A row of the empty query: its snippet built on first read and then kept per page. */
class BrowseRow implements WikiRow {
  readonly score = null;
  constructor(readonly page: WikiPage) {}
  get snippet(): string {
    return this.page.searchable ? firstLineSnippet(this.page) : (this.page.issues[0]?.message ?? '');
  }
}

export interface WikiRows {
  /** How many rows the list has. */
  readonly count: number;
  /** Row `i` (0-based), built on first use and the same object after (the view memoises rows by it). */
  row(i: number): WikiRow;
  /** Every row's page file name, in list order: the list's identities (a ranking names a row when asked). */
  readonly names: Ids;
  /** Pages OMC cannot read, hidden from search results (they cannot match). */
  unsearchable: number;
  searching: boolean;
}

/** File names of a pages array, once per array (the snapshot's pages: once per index version). */
const pageNames = new WeakMap<readonly WikiPage[], string[]>();
const namesOfPages = (pages: readonly WikiPage[]): string[] => {
  let names = pageNames.get(pages);
  if (!names) pageNames.set(pages, (names = pages.map((p) => p.filename)));
  return names;
};

/** The empty query: pages in listing order, each row built when the list shows it. */
class BrowseRows implements WikiRows {
  readonly searching = false;
  private readonly built = new Map<number, WikiRow>();
  constructor(
    private readonly pages: readonly WikiPage[],
    readonly unsearchable: number,
  ) {}
  get count(): number {
    return this.pages.length;
  }
  get names(): readonly string[] {
    return namesOfPages(this.pages);
  }
  row(i: number): WikiRow {
    let r = this.built.get(i);
    if (!r) this.built.set(i, (r = new BrowseRow(this.pages[i] as WikiPage)));
    return r;
  }
}

/** A query: OMC's ranking (every match), optionally narrowed to the ranks whose page has the tag. */
class RankedRows implements WikiRows, Ids {
  readonly searching = true;
  constructor(
    private readonly ranking: Ranking,
    /** Ranks shown, in order; null = all of them. */
    private readonly ranks: Int32Array | null,
    readonly unsearchable: number,
  ) {}
  get count(): number {
    return this.ranks ? this.ranks.length : this.ranking.total;
  }
  private rankAt(i: number): number {
    return this.ranks ? (this.ranks[i] as number) : i;
  }
  /**
   * The rows' names without a list of them: a keystroke reads the first row's name (the selection it pins),
   * not one name per match (a list of 5,000 names per key was a third of a keystroke's work and its garbage).
   */
  get names(): Ids {
    return this;
  }
  get length(): number {
    return this.count;
  }
  at(i: number): string | undefined {
    const k = i < 0 ? this.count + i : i;
    return k >= 0 && k < this.count ? this.ranking.page(this.rankAt(k)).filename : undefined;
  }
  /** Where a page is in the list: only when the selection is no longer where it was (a page changed). */
  indexOf(name: string): number {
    for (let i = 0, n = this.count; i < n; i++) if (this.ranking.page(this.rankAt(i)).filename === name) return i;
    return -1;
  }
  row(i: number): WikiRow {
    return this.ranking.hit(this.rankAt(i));
  }
}

interface CacheEntry {
  key: string;
  value: WikiRows;
}
const cache = new WeakMap<WikiSnapshot, CacheEntry>();

const hasTag = (p: WikiPage, tag: string) => p.tagsLower.includes(tag.toLowerCase());

/**
 * Empty query: every page in OMC's listing order (unreadable ones too, with
 * their badge). Otherwise OMC's ranking (every match, not just OMC's top 20),
 * then the pane's filters: category as OMC filters it, tag as a real filter.
 * Nothing here is built per page per keystroke: the ranking is typed arrays,
 * and rows are built for the ranks the list shows.
 */
export function wikiRows(
  domain: WikiDomain,
  snap: WikiSnapshot,
  s: Pick<WikiPaneState, 'query' | 'category' | 'tag'>,
): WikiRows {
  const key = `${s.category ?? ''}\u0000${s.tag ?? ''}\u0000${s.query}`;
  const hit = cache.get(snap);
  if (hit && hit.key === key) return hit.value;
  let value: WikiRows;
  const unsearchable = snap.pages.length - snap.searchable.length;
  if (s.query.trim() === '') {
    const pages =
      s.category === null && s.tag === null
        ? snap.pages
        : snap.pages.filter(
            (p) =>
              (s.category === null || p.frontmatter?.category === s.category) && (s.tag === null || hasTag(p, s.tag)),
          );
    value = new BrowseRows(pages, unsearchable);
  } else {
    const ranking = domain.rank(s.query, { category: s.category ?? undefined });
    let ranks: Int32Array | null = null;
    if (s.tag !== null) {
      const kept: number[] = [];
      for (let r = 0; r < ranking.total; r++) if (hasTag(ranking.page(r), s.tag)) kept.push(r);
      ranks = Int32Array.from(kept);
    }
    value = new RankedRows(ranking, ranks, unsearchable);
  }
  cache.set(snap, { key, value });
  return value;
}

export interface Badge {
  text: string;
  tone: 'error' | 'warn' | 'info';
}

const LINT_BADGE: Record<string, string> = {
  orphan: 'orphan',
  stale: 'stale',
  'broken-ref': 'broken-ref',
  'low-confidence': 'low-conf',
  oversized: 'oversized',
  'structural-contradiction': 'conflict',
};
const ISSUE_BADGE: Record<string, string> = {
  unparseable: 'unreadable',
  bom: 'unreadable',
  'bad-name': 'bad-name',
  'invalid-utf8': 'non-utf8',
  crlf: 'crlf',
  huge: 'huge',
  unreadable: 'unreadable',
};

/** Problem badges first (they explain why a page is odd), then OMC's lint findings. */
export function badgesFor(page: WikiPage, lint: LintReport): Badge[] {
  const out: Badge[] = [];
  for (const i of page.issues) {
    out.push({
      text: `${i.severity === 'info' ? '' : '⚠'}${ISSUE_BADGE[i.kind] ?? i.kind}`,
      tone: i.severity === 'error' ? 'error' : i.severity === 'warning' ? 'warn' : 'info',
    });
  }
  const seen = new Set<string>();
  for (const l of lint.byPage.get(page.filename) ?? []) {
    if (seen.has(l.type)) continue;
    seen.add(l.type);
    out.push({
      text: LINT_BADGE[l.type] ?? l.type,
      tone: l.severity === 'error' ? 'error' : l.severity === 'warning' ? 'warn' : 'info',
    });
  }
  return out;
}

export interface RowLayout {
  score: string;
  category: string;
  title: string;
  badges: Array<Badge & { shown: string }>;
  detail: string;
}

const SCORE_W = 6;
const categoryWidth = (inner: number) => (inner >= 70 ? 14 : 11);

/**
 * Cuts a row into cells; `width` includes the 2-cell selection marker.
 * Line 1: score, category, title, badges (after the title, so the columns
 * stay aligned); line 2: tags and the snippet.
 */
export function rowLayout(row: WikiRow, badges: Badge[], width: number): RowLayout {
  const inner = Math.max(10, width - 2);
  const catW = categoryWidth(inner);
  // Badges get at most a third of the line; whole badges only, the rest is counted.
  let budget = Math.floor(inner / 3);
  const shown: RowLayout['badges'] = [];
  for (const [i, b] of badges.entries()) {
    const need = cells(b.text) + 1;
    const last = i === badges.length - 1;
    if (need <= budget && (last || need + 3 <= budget)) {
      shown.push({ ...b, shown: ` ${b.text}` });
      budget -= need;
    } else {
      shown.push({ ...b, shown: ` +${badges.length - i}` });
      break;
    }
  }
  const badgeW = shown.reduce((n, b) => n + cells(b.shown), 0);
  const titleW = Math.max(4, inner - SCORE_W - catW - badgeW);
  const tags = row.page.display.tags.length > 0 ? `${row.page.display.tags.join(', ')} · ` : '';
  return {
    score: row.score === null ? ' '.repeat(SCORE_W) : fit(`${String(row.score).padStart(SCORE_W - 2)}  `, SCORE_W),
    category: fit(row.page.display.category, catW - 1) + ' ',
    title: fit(row.page.display.title, titleW),
    badges: shown,
    detail: fit(`${' '.repeat(SCORE_W)}${tags}${cleanLine(row.snippet)}`, inner),
  };
}

export function headerLine(width: number): string {
  const inner = Math.max(10, width - 2);
  return fit(`  ${fit('SCORE', SCORE_W)}${fit('CATEGORY', categoryWidth(inner))}TITLE`, width);
}
