/**
 * OMC's wiki_query ranking (OMC 5.5.0: dist/hooks/wiki/query.js) over the
 * in-memory index, without OMC's side effects (its query appends to log.md;
 * this never writes anything). For the same query over the same pages it
 * returns the same pages, in the same order, with the same scores and
 * snippets:
 *
 * - category filter first (exact match);
 * - +3 for each filter tag equal (ignoring case) to a page tag;
 * - +2 for each query token contained in any page tag;
 * - title: +5 if it contains the whole lower-cased query, else +2 per token it contains;
 * - body: +1 per token found (a repeated token counts again);
 * - pages scoring > 0, sorted by score descending, ties in file-name order;
 *   (rankWiki keeps every match in typed arrays; searchWiki returns OMC's first `limit`);
 * - snippet around the body hit of the first token (in query order) that
 *   has one, else the first non-empty body line.
 */
import type { WikiPage } from './page.js';
import { GRAPHEME_WINDOW, graphemeEndAt, graphemeStartAt, headUnits } from '../../io/grapheme-cut.js';
import { hasSlot } from './slot-set.js';
import type { TokenPages, WikiSearchIndex } from './search-index.js';
import { tokenize } from './tokenize.js';
import * as buckets from './score-buckets.js';

export interface SearchOptions {
  /** OMC's `tags`: they add to the score, they do not filter. */
  tags?: readonly string[];
  category?: string;
  /** OMC's default is 20; pass Infinity for every match. */
  limit?: number;
}

export interface SearchHit {
  page: WikiPage;
  score: number;
  /** OMC's snippet; computed on first read, since a list shows only the rows that fit. */
  readonly snippet: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Matches before the limit. */
  total: number;
  tokens: string[];
}

/** A hit built on demand: its snippet is computed on first read (a list shows only the rows that fit). */
class Hit implements SearchHit {
  private cached: string | null = null;
  constructor(
    readonly page: WikiPage,
    readonly score: number,
    private readonly at: number,
    private readonly len: number,
  ) {}
  get snippet(): string {
    if (this.cached === null) this.cached = snippetFor(this.page, this.at, this.len);
    return this.cached;
  }
}

/**
 * Every match of one query, best first, held in typed arrays: a keystroke that matches 19,000 of
 * 20,000 pages allocates a few arrays, not 19,000 objects, and only the rows drawn become hits.
 */
export class Ranking {
  private readonly built = new Map<number, SearchHit>();
  constructor(
    private readonly pages: readonly WikiPage[],
    /** Indices into `pages`, best first (score descending, ties in file-name order). */
    readonly order: Int32Array,
    /** `firstRank[s]`: the first rank scoring `s` or less (scores are small integers; see byScore). */
    private readonly firstRank: Int32Array,
    /** Body position of each page's snippet token (-1: none), and that token's length. */
    private readonly snippetAt: (page: number) => readonly [number, number],
    readonly tokens: string[],
  ) {}

  get total(): number {
    return this.order.length;
  }

  page(rank: number): WikiPage {
    return this.pages[this.order[rank] as number] as WikiPage;
  }

  /** The score at `rank`, from the ranks where each score begins: no score per page is kept. */
  score(rank: number): number {
    let s = 1;
    while (s + 1 < this.firstRank.length && (this.firstRank[s] as number) > rank) s += 1;
    return s;
  }

  /** The hit at `rank` (the same object each time it is asked for). */
  hit(rank: number): SearchHit {
    let h = this.built.get(rank);
    if (!h) {
      const i = this.order[rank] as number;
      const [at, len] = this.snippetAt(i);
      h = new Hit(this.pages[i] as WikiPage, this.score(rank), at, len);
      this.built.set(rank, h);
    }
    return h;
  }

  /** The first `limit` hits, as OMC returns them (its `slice(0, limit)`, odd limits included). */
  hits(limit: number): SearchHit[] {
    const out: SearchHit[] = [];
    for (let r = 0, n = sliceEnd(this.order.length, limit); r < n; r++) out.push(this.hit(r));
    return out;
  }
}

/** Whether some tag of the page contains `token` (never white space: see WikiPage.tagsJoined). */
function anyTagHas(page: WikiPage, token: string): boolean {
  return page.tagsJoined.includes(token);
}

export function snippetFor(page: WikiPage, at: number, len: number): string {
  if (at !== -1) {
    // Offsets come from the lower-cased body and cut the original one, exactly as OMC does.
    const n = page.contentLower.length;
    // OMC's cut counts UTF-16 units and can split an emoji (a lone surrogate, which strict JSON readers refuse):
    // this one is widened to the grapheme boundaries around it, the same text otherwise.
    const start = Math.max(0, at - 40);
    const end = Math.min(n, at + len + 80);
    const from0 = Math.max(0, start - GRAPHEME_WINDOW);
    const around = page.bodySlice(from0, end + GRAPHEME_WINDOW);
    const from = from0 + graphemeStartAt(around, start - from0);
    const to = from0 + graphemeEndAt(around, end - from0);
    const raw = around
      .slice(from - from0, to - from0)
      .replace(/\n+/g, ' ')
      .trim();
    return (start > 0 ? '...' : '') + raw + (end < n ? '...' : '');
  }
  return firstLineSnippet(page);
}

/** The first non-empty body line, cut at 120: one per page, so browsing 20,000 pages builds each once. */
const firstLines = new WeakMap<WikiPage, string>();

/**
 * OMC's snippet for a page without a body hit; found by scanning, not by splitting the whole body into
 * lines. Line ends and white space are where they are in the original when lower-casing kept the length
 * (no case mapping touches either), so the scan runs over the lower-cased text and only the line found
 * is rebuilt from the original.
 */
export function firstLineSnippet(page: WikiPage): string {
  let out = firstLines.get(page);
  if (out !== undefined) return out;
  const lower = page.contentLower;
  const text = lower.length === page.bodyLength ? lower : page.content;
  let first = '';
  for (let from = 0; from <= text.length;) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    if (text.slice(from, end).trim().length > 0) {
      first = page.bodySlice(from, end).trim();
      break;
    }
    if (nl === -1) break;
    from = nl + 1;
  }
  out = first.length > 120 ? headUnits(first, 117) + '...' : first;
  firstLines.set(page, out);
  return out;
}

/** Where `Array.prototype.slice(0, end)` stops in a list of `length` items (NaN → 0, negative from the end). */
function sliceEnd(length: number, end: number): number {
  const e = Number.isNaN(end) ? 0 : Math.trunc(end);
  return e < 0 ? Math.max(0, length + e) : Math.min(length, e);
}

/**
 * Ranks `pages` (the searchable pages in OMC's order: file names sorted by
 * UTF-16 code units) for `query`. With `index` (search-index.ts), the pages
 * holding each token come from the index; without it every page's text is
 * searched, as OMC does (the reference the index is tested against).
 */
export function searchWiki(
  pages: readonly WikiPage[],
  query: string,
  opts: SearchOptions = {},
  index?: WikiSearchIndex,
): SearchResult {
  const ranking = rankWiki(pages, query, opts, index);
  const limit = opts.limit ?? 20;
  return { hits: ranking.hits(limit), total: ranking.total, tokens: ranking.tokens };
}

/** OMC's ranking of every match (no limit), as a Ranking: hits are built only for the ranks read. */
export function rankWiki(
  pages: readonly WikiPage[],
  query: string,
  opts: Omit<SearchOptions, 'limit'> = {},
  index?: WikiSearchIndex,
): Ranking {
  const tokens = tokenize(query);
  // Without a token, or with filter tags, a page can score without holding any token: searched plainly. So is
  // a query typed while the index is still being built (it ranks the same).
  if (index && tokens.length > 0 && (opts.tags ?? []).length === 0 && index.ready(pages))
    return rankIndexed(pages, query, tokens, opts, index);
  return rankPlain(pages, query, tokens, opts);
}

/** Every page's text searched for every token: OMC's own procedure. */
function rankPlain(
  pages: readonly WikiPage[],
  query: string,
  tokens: string[],
  opts: Omit<SearchOptions, 'limit'>,
): Ranking {
  const queryLower = query.toLowerCase();
  const filterTags = (opts.tags ?? []).map((t) => t.toLowerCase());
  const n = pages.length;
  const scores = new Int32Array(n);
  let matched = 0;
  let maxScore = 0;
  const firstAt = new Int32Array(n).fill(-1);
  const firstLen = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const page = pages[i] as WikiPage;
    if (!page.searchable) continue;
    if (opts.category && page.frontmatter?.category !== opts.category) continue;
    let score = 0;
    for (const ft of filterTags) if (page.tagsLower.includes(ft)) score += 3;
    for (const t of tokens) if (anyTagHas(page, t)) score += 2;
    if (page.titleLower.includes(queryLower)) score += 5;
    else for (const t of tokens) if (page.titleLower.includes(t)) score += 2;
    for (const t of tokens) {
      const bodyAt = page.contentLower.indexOf(t);
      if (bodyAt === -1) continue;
      score += 1;
      if (firstAt[i] === -1) {
        firstAt[i] = bodyAt;
        firstLen[i] = t.length;
      }
    }
    if (score > 0) {
      scores[i] = score;
      matched += 1;
      if (score > maxScore) maxScore = score;
    }
  }
  const snippetAt = (i: number) => [firstAt[i] as number, firstLen[i] as number] as const;
  const { order, firstRank } = byScore(scores, n, matched, maxScore);
  return new Ranking(pages, order, firstRank, snippetAt, tokens);
}

/**
 * The same ranking from the index: each token's pages are bit sets (body, title, tags), a page's score is
 * counted from its bits, and only a page that holds some token is looked at. A title is read only to
 * check the whole query (+5), and only where it holds every token (the query contains each of its tokens,
 * so a title without one cannot contain the query). Snippet positions are found for the rows drawn.
 */
function rankIndexed(
  pages: readonly WikiPage[],
  query: string,
  tokens: string[],
  opts: Omit<SearchOptions, 'limit'>,
  index: WikiSearchIndex,
): Ranking {
  const queryLower = query.toLowerCase();
  const found: TokenPages[] = tokens.map((t) => index.token(pages, t));
  const slots = index.slotsOf(pages);
  // A one-word query is its own phrase: the title holds the phrase exactly when it holds the token.
  const phraseIsToken = tokens.length === 1 && tokens[0] === queryLower;
  // Read once: the loop below runs per page per keystroke, and the options object's shape varies by caller.
  const category = opts.category;
  // Each token adds at most 2 (tags) + 1 (body); the title adds 5 (the phrase) or 2 per token.
  buckets.begin(3 * found.length + Math.max(5, 2 * found.length));
  if (found.length === 1 && !category) {
    scoreOneToken(pages, slots, found[0] as TokenPages, queryLower, phraseIsToken);
  } else {
    const any = new Uint32Array((found[0] as TokenPages).body.length);
    for (const f of found) {
      for (let w = 0; w < any.length; w++) any[w]! |= f.body[w]! | f.title[w]! | f.tag[w]!;
    }
    for (let i = 0, n = pages.length; i < n; i++) {
      const slot = slots[i] as number;
      if (!hasSlot(any, slot)) continue;
      const page = pages[i] as WikiPage;
      if (category && page.frontmatter?.category !== category) continue;
      let score = 0;
      let titleTokens = 0;
      let titleAll = true;
      for (let k = 0; k < found.length; k++) {
        const f = found[k] as TokenPages;
        if (hasSlot(f.tag, slot)) score += 2;
        if (hasSlot(f.title, slot)) titleTokens += 2;
        else titleAll = false;
        if (hasSlot(f.body, slot)) score += 1;
      }
      const phrase = phraseIsToken ? titleAll : titleAll && page.titleLower.includes(queryLower);
      score += phrase ? 5 : titleTokens;
      if (score > 0) buckets.add(score, i);
    }
  }
  // The snippet's token: the first (in query order) the body holds; its position found for the rows drawn.
  const snippetAt = (i: number): readonly [number, number] => {
    const slot = slots[i] as number;
    for (let k = 0; k < found.length; k++) {
      if (!hasSlot((found[k] as TokenPages).body, slot)) continue;
      const t = tokens[k] as string;
      return [(pages[i] as WikiPage).contentLower.indexOf(t), t.length];
    }
    return [-1, 0];
  };
  const { order, firstRank } = buckets.finish();
  return new Ranking(pages, order, firstRank, snippetAt, tokens);
}

/**
 * rankIndexed's scores for a query of one token and no category (every one- and two-letter query: they match
 * nearly every page, so this loop is most of such a keystroke's search): the same scores as its general loop, read
 * from the bit sets' words in place (no union of them is built), and a page's title read only for the phrase check
 * of a query that is more than its token. A page that holds the token somewhere scores at least 1; each goes into
 * its score's bucket (score-buckets.ts) as it is scored.
 */
function scoreOneToken(
  pages: readonly WikiPage[],
  slots: Int32Array,
  { body, title, tag }: TokenPages,
  queryLower: string,
  phraseIsToken: boolean,
): void {
  for (let i = 0, n = pages.length; i < n; i++) {
    const slot = slots[i] as number;
    const w = slot >>> 5;
    const bit = 1 << (slot & 31);
    const inTag = (tag[w] as number) & bit;
    const inBody = (body[w] as number) & bit;
    const inTitle = (title[w] as number) & bit;
    if ((inTag | inBody | inTitle) === 0) continue;
    let score = 0;
    if (inTag !== 0) score += 2;
    if (inBody !== 0) score += 1;
    if (inTitle !== 0) score += phraseIsToken || (pages[i] as WikiPage).titleLower.includes(queryLower) ? 5 : 2;
    buckets.add(score, i);
  }
}

/**
 * The plain scan's order (the indexed ranking sorts as it scores: score-buckets.ts). Page indices by score
 * descending, ties in page order (file-name order, as OMC's stable sort leaves them): a counting sort, since
 * scores are small integers. 19,000 matches at 20,000 pages cost two passes and no comparison. Also where each score's ranks begin (`firstRank[s]`: the first rank scoring
 * `s` or less), from which a rank's score is read back (Ranking.score). Only the first `n` scores count.
 */
function byScore(
  scores: Int32Array,
  n: number,
  matched: number,
  maxScore: number,
): { order: Int32Array; firstRank: Int32Array } {
  const order = new Int32Array(matched);
  if (matched === 0) return { order, firstRank: new Int32Array(1) };
  // starts[s]: where the pages scoring s begin in `order` (higher scores first).
  const starts = new Int32Array(maxScore + 1);
  for (let i = 0; i < n; i++) {
    const sc = scores[i] as number;
    if (sc > 0) starts[sc] = (starts[sc] as number) + 1;
  }
  let at = 0;
  for (let sc = maxScore; sc > 0; sc--) {
    const c = starts[sc] as number;
    starts[sc] = at;
    at += c;
  }
  const firstRank = starts.slice();
  for (let i = 0; i < n; i++) {
    const sc = scores[i] as number;
    if (sc > 0) {
      order[starts[sc] as number] = i;
      starts[sc] = (starts[sc] as number) + 1;
    }
  }
  return { order, firstRank };
}
