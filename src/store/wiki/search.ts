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
 * Where each token first occurs in each page body, remembered across
 * keystrokes for one set of pages. Typing grows the last token one character
 * at a time: the new token can only occur where its prefix occurs, at or after
 * the prefix's first position, so each keystroke resumes from there instead of
 * scanning every body again. Untouched tokens are looked up, not searched.
 */
export class TokenPositions {
  private pages: readonly WikiPage[] | null = null;
  private readonly map = new Map<string, Int32Array>();
  constructor(private readonly capacity = 64) {}

  /** Forgets every remembered position (benchmarks use it to time a query typed from scratch). */
  clear(): void {
    this.map.clear();
  }

  /** First body position of `token` in every page (-1: absent), for this exact pages array. */
  positions(pages: readonly WikiPage[], token: string): Int32Array {
    if (pages !== this.pages) {
      this.pages = pages;
      this.map.clear();
    }
    const hit = this.map.get(token);
    if (hit) {
      // Re-insert: Map order doubles as least-recently-used order.
      this.map.delete(token);
      this.map.set(token, hit);
      return hit;
    }
    let base: Int32Array | undefined;
    for (let k = token.length - 1; k >= 1 && !base; k--) base = this.map.get(token.slice(0, k));
    const out = new Int32Array(pages.length);
    for (let i = 0; i < pages.length; i++) {
      const p = pages[i] as WikiPage;
      if (base) {
        const from = base[i] as number;
        out[i] = from < 0 ? -1 : p.contentLower.indexOf(token, from);
      } else {
        out[i] = p.filter && !mayContain(p.filter, token) ? -1 : p.contentLower.indexOf(token);
      }
    }
    this.map.set(token, out);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
    return out;
  }
}

export function snippetFor(page: WikiPage, at: number, len: number): string {
  if (at !== -1) {
    // Offsets come from the lower-cased body and cut the original one, exactly as OMC does.
    const start = Math.max(0, at - 40);
    const end = Math.min(page.contentLower.length, at + len + 80);
    const raw = page.content.slice(start, end).replace(/\n+/g, ' ').trim();
    return (start > 0 ? '...' : '') + raw + (end < page.contentLower.length ? '...' : '');
  }
  return firstLineSnippet(page);
}

/** The first non-empty body line, cut at 120: one per page, so browsing 20,000 pages builds each once. */
const firstLines = new WeakMap<WikiPage, string>();

/** OMC's snippet for a page without a body hit; found by scanning, not by splitting the whole body into lines. */
export function firstLineSnippet(page: WikiPage): string {
  let out = firstLines.get(page);
  if (out !== undefined) return out;
  const text = page.content;
  let first = '';
  for (let from = 0; from <= text.length;) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(from, end).trim();
    if (line.length > 0) {
      first = line;
      break;
    }
    if (nl === -1) break;
    from = nl + 1;
  }
  out = first.length > 120 ? first.slice(0, 117) + '...' : first;
  firstLines.set(page, out);
  return out;
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
  const limit = opts.limit ?? 20;
  const queryLower = query.toLowerCase();
  const tokens = tokenize(query);
  const filterTags = (opts.tags ?? []).map((t) => t.toLowerCase());
  const bodyAt = positions ? tokens.map((t) => positions.positions(pages, t)) : null;
  const matches: Hit[] = [];
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i] as WikiPage;
    if (!page.searchable) continue;
    if (opts.category && page.frontmatter?.category !== opts.category) continue;
    let score = 0;
    for (const ft of filterTags) if (page.tagsLower.includes(ft)) score += 3;
    for (const t of tokens) {
      for (const tag of page.tagsLower) {
        if (tag.includes(t)) {
          score += 2;
          break;
        }
      }
    }
    if (page.titleLower.includes(queryLower)) score += 5;
    else for (const t of tokens) if (page.titleLower.includes(t)) score += 2;
    let at = -1;
    let len = 0;
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k] as string;
      let idx: number;
      if (bodyAt) idx = (bodyAt[k] as Int32Array)[i] as number;
      else idx = page.filter && !mayContain(page.filter, t) ? -1 : page.contentLower.indexOf(t);
      if (idx === -1) continue;
      score += 1;
      if (at === -1) {
        at = idx;
        len = t.length;
      }
    }
    if (score > 0) matches.push(new Hit(page, score, at, len));
  }
  // Array.prototype.sort is stable, so equal scores keep file-name order, as in OMC.
  matches.sort((a, b) => b.score - a.score);
  return { hits: matches.slice(0, limit), total: matches.length, tokens };
}
