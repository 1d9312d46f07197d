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
import { mayContain } from './bloom.js';
import type { WikiPage } from './page.js';
import { tokenize } from './tokenize.js';

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
    /** Score of each page by index into `pages` (0: no match). */
    private readonly scores: Int32Array,
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

  score(rank: number): number {
    return this.scores[this.order[rank] as number] as number;
  }

  /** The hit at `rank` (the same object each time it is asked for). */
  hit(rank: number): SearchHit {
    let h = this.built.get(rank);
    if (!h) {
      const i = this.order[rank] as number;
      const [at, len] = this.snippetAt(i);
      h = new Hit(this.pages[i] as WikiPage, this.scores[i] as number, at, len);
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

/** What one token does in every page: first body position (-1: absent), and whether the title / a tag contains it. */
interface TokenIndex {
  body: Int32Array;
  title: Uint8Array;
  tag: Uint8Array;
}

/**
 * Where each token occurs in each page, remembered across keystrokes for one
 * set of pages. Typing grows the last token one character at a time: the new
 * token can only occur where its prefix occurs (in a body at or after the
 * prefix's first position; in a title or tag only if the prefix is there), so
 * each keystroke looks again only where the prefix matched, instead of in
 * every page. Untouched tokens are looked up, not searched.
 */
export class TokenPositions {
  private pages: readonly WikiPage[] | null = null;
  private readonly tokens = new Map<string, TokenIndex>();
  /** Whole lower-cased queries in titles (OMC's +5), grown the same way. */
  private readonly phrases = new Map<string, Uint8Array>();
  /**
   * At most `capacity` tokens (and as many phrases) are remembered, fewer for a big wiki: each costs 6
   * bytes a page (a phrase 1), and typing needs only the prefixes of the words in the box.
   */
  constructor(
    private readonly capacity = 64,
    private readonly maxBytes = 4 * 1024 * 1024,
  ) {}

  private limit(pages: readonly WikiPage[]): number {
    return Math.max(8, Math.min(this.capacity, Math.floor(this.maxBytes / (6 * Math.max(1, pages.length)))));
  }

  /** Forgets every remembered position (benchmarks use it to time a query typed from scratch). */
  clear(): void {
    this.tokens.clear();
    this.phrases.clear();
  }

  private use(pages: readonly WikiPage[]): void {
    if (pages !== this.pages) {
      this.pages = pages;
      this.clear();
    }
  }

  /** The longest remembered proper prefix of `s` in `map`. */
  private static base<V>(map: Map<string, V>, s: string): V | undefined {
    let base: V | undefined;
    for (let k = s.length - 1; k >= 1 && !base; k--) base = map.get(s.slice(0, k));
    return base;
  }

  private static remember<V>(map: Map<string, V>, key: string, value: V, capacity: number): V {
    map.set(key, value);
    if (map.size > capacity) map.delete(map.keys().next().value as string);
    return value;
  }

  /** Body position, title and tag containment of `token` in every page, for this exact pages array. */
  token(pages: readonly WikiPage[], token: string): TokenIndex {
    this.use(pages);
    const hit = this.tokens.get(token);
    if (hit) {
      // Re-insert: Map order doubles as least-recently-used order.
      this.tokens.delete(token);
      this.tokens.set(token, hit);
      return hit;
    }
    const base = TokenPositions.base(this.tokens, token);
    const n = pages.length;
    const out: TokenIndex = { body: new Int32Array(n), title: new Uint8Array(n), tag: new Uint8Array(n) };
    for (let i = 0; i < n; i++) {
      const p = pages[i] as WikiPage;
      if (base) {
        const from = base.body[i] as number;
        out.body[i] = from < 0 ? -1 : grownAt(p, token, from);
        out.title[i] = base.title[i] === 1 && p.titleLower.includes(token) ? 1 : 0;
        out.tag[i] = base.tag[i] === 1 && anyTagHas(p, token) ? 1 : 0;
      } else {
        out.body[i] = p.filter && !mayContain(p.filter, token) ? -1 : p.contentLower.indexOf(token);
        out.title[i] = p.titleLower.includes(token) ? 1 : 0;
        out.tag[i] = anyTagHas(p, token) ? 1 : 0;
      }
    }
    return TokenPositions.remember(this.tokens, token, out, this.limit(pages));
  }

  /** Whether each page title contains the whole lower-cased query. */
  titleHas(pages: readonly WikiPage[], phrase: string): Uint8Array {
    this.use(pages);
    const hit = this.phrases.get(phrase);
    if (hit) return hit;
    const base = TokenPositions.base(this.phrases, phrase);
    const out = new Uint8Array(pages.length);
    for (let i = 0; i < pages.length; i++) {
      if (base && base[i] === 0) continue;
      out[i] = (pages[i] as WikiPage).titleLower.includes(phrase) ? 1 : 0;
    }
    return TokenPositions.remember(this.phrases, phrase, out, this.limit(pages));
  }
}

/**
 * The first position of `token` in the body, given that its prefix first occurs at `from`: while typing,
 * the grown token is usually right there (one comparison); otherwise the filter, then a search from there
 * (where the prefix occurs but the token does not, indexOf would read the rest of the body).
 */
function grownAt(p: WikiPage, token: string, from: number): number {
  const lower = p.contentLower;
  if (lower.startsWith(token, from)) return from;
  if (p.filter && !mayContain(p.filter, token)) return -1;
  return lower.indexOf(token, from + 1);
}

/** Whether some tag of the page contains `token` (never white space: see WikiPage.tagsJoined). */
function anyTagHas(page: WikiPage, token: string): boolean {
  return page.tagsJoined.includes(token);
}

export function snippetFor(page: WikiPage, at: number, len: number): string {
  if (at !== -1) {
    // Offsets come from the lower-cased body and cut the original one, exactly as OMC does.
    const n = page.contentLower.length;
    const start = Math.max(0, at - 40);
    const end = Math.min(n, at + len + 80);
    const raw = page.bodySlice(start, end).replace(/\n+/g, ' ').trim();
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
  out = first.length > 120 ? first.slice(0, 117) + '...' : first;
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
 * UTF-16 code units) for `query`. `positions` (optional) remembers body
 * positions between calls over the same pages array.
 */
export function searchWiki(
  pages: readonly WikiPage[],
  query: string,
  opts: SearchOptions = {},
  positions?: TokenPositions,
): SearchResult {
  const ranking = rankWiki(pages, query, opts, positions);
  const limit = opts.limit ?? 20;
  return { hits: ranking.hits(limit), total: ranking.total, tokens: ranking.tokens };
}

/** OMC's ranking of every match (no limit), as a Ranking: hits are built only for the ranks read. */
export function rankWiki(
  pages: readonly WikiPage[],
  query: string,
  opts: Omit<SearchOptions, 'limit'> = {},
  positions?: TokenPositions,
): Ranking {
  const queryLower = query.toLowerCase();
  const tokens = tokenize(query);
  const filterTags = (opts.tags ?? []).map((t) => t.toLowerCase());
  const n = pages.length;
  const scores = new Int32Array(n);
  let matched = 0;
  let maxScore = 0;
  let snippetAt: (page: number) => readonly [number, number];
  const count = (i: number, score: number) => {
    scores[i] = score;
    matched += 1;
    if (score > maxScore) maxScore = score;
  };
  if (positions) {
    const idx = tokens.map((t) => positions.token(pages, t));
    // A one-word query is its own phrase: reuse that token's title matches.
    const titleHas =
      idx.length === 1 && tokens[0] === queryLower
        ? (idx[0] as TokenIndex).title
        : positions.titleHas(pages, queryLower);
    for (let i = 0; i < n; i++) {
      const page = pages[i] as WikiPage;
      if (!page.searchable) continue;
      if (opts.category && page.frontmatter?.category !== opts.category) continue;
      let score = 0;
      for (const ft of filterTags) if (page.tagsLower.includes(ft)) score += 3;
      let titleTokens = 0;
      for (let k = 0; k < idx.length; k++) {
        const t = idx[k] as TokenIndex;
        if (t.tag[i] === 1) score += 2;
        if (t.title[i] === 1) titleTokens += 2;
        if ((t.body[i] as number) !== -1) score += 1;
      }
      score += titleHas[i] === 1 ? 5 : titleTokens;
      if (score > 0) count(i, score);
    }
    // The snippet's token: the first (in query order) with a body hit. Looked up again for the rows drawn.
    snippetAt = (i) => {
      for (let k = 0; k < idx.length; k++) {
        const at = (idx[k] as TokenIndex).body[i] as number;
        if (at !== -1) return [at, (tokens[k] as string).length];
      }
      return [-1, 0];
    };
  } else {
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
        const bodyAt = page.filter && !mayContain(page.filter, t) ? -1 : page.contentLower.indexOf(t);
        if (bodyAt === -1) continue;
        score += 1;
        if (firstAt[i] === -1) {
          firstAt[i] = bodyAt;
          firstLen[i] = t.length;
        }
      }
      if (score > 0) count(i, score);
    }
    snippetAt = (i) => [firstAt[i] as number, firstLen[i] as number];
  }
  return new Ranking(pages, byScore(scores, matched, maxScore), scores, snippetAt, tokens);
}

/**
 * Page indices by score descending, ties in page order (file-name order, as OMC's stable sort leaves
 * them): a counting sort, since scores are small integers. 19,000 matches at 20,000 pages cost two
 * passes and no comparison.
 */
function byScore(scores: Int32Array, matched: number, maxScore: number): Int32Array {
  const order = new Int32Array(matched);
  if (matched === 0) return order;
  // starts[s]: where the pages scoring s begin in `order` (higher scores first).
  const starts = new Int32Array(maxScore + 2);
  for (let i = 0; i < scores.length; i++) {
    const sc = scores[i] as number;
    if (sc > 0) starts[sc] = (starts[sc] as number) + 1;
  }
  let at = 0;
  for (let sc = maxScore; sc > 0; sc--) {
    const c = starts[sc] as number;
    starts[sc] = at;
    at += c;
  }
  for (let i = 0; i < scores.length; i++) {
    const sc = scores[i] as number;
    if (sc > 0) {
      order[starts[sc] as number] = i;
      starts[sc] = (starts[sc] as number) + 1;
    }
  }
  return order;
}
