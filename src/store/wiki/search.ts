/**
 * OMC's wiki_query ranking (research/omc-contract.md §8.6) over the
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
  snippet: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Matches before the limit. */
  total: number;
  tokens: string[];
}

interface Match {
  page: WikiPage;
  score: number;
  /** Where the first body hit is, for the snippet (-1: none). */
  at: number;
  len: number;
}

function scorePage(page: WikiPage, queryLower: string, tokens: readonly string[], filterTags: readonly string[]): Match {
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
  const body = page.contentLower;
  for (const t of tokens) {
    if (page.filter && !mayContain(page.filter, t)) continue;
    const i = body.indexOf(t);
    if (i === -1) continue;
    score += 1;
    if (at === -1) {
      at = i;
      len = t.length;
    }
  }
  return { page, score, at, len };
}

export function snippetFor(page: WikiPage, at: number, len: number): string {
  if (at !== -1) {
    // Offsets come from the lower-cased body and cut the original one, exactly as OMC does.
    const start = Math.max(0, at - 40);
    const end = Math.min(page.contentLower.length, at + len + 80);
    const raw = page.content.slice(start, end).replace(/\n+/g, ' ').trim();
    return (start > 0 ? '...' : '') + raw + (end < page.contentLower.length ? '...' : '');
  }
  const first = page.content.split('\n').find((l) => l.trim().length > 0)?.trim() ?? '';
  return first.length > 120 ? first.slice(0, 117) + '...' : first;
}

/**
 * Ranks `pages` (the searchable pages in OMC's order: file names sorted by
 * UTF-16 code units) for `query`.
 */
export function searchWiki(pages: readonly WikiPage[], query: string, opts: SearchOptions = {}): SearchResult {
  const limit = opts.limit ?? 20;
  const queryLower = query.toLowerCase();
  const tokens = tokenize(query);
  const filterTags = (opts.tags ?? []).map((t) => t.toLowerCase());
  const matches: Match[] = [];
  for (const page of pages) {
    if (!page.searchable) continue;
    if (opts.category && page.frontmatter?.category !== opts.category) continue;
    const m = scorePage(page, queryLower, tokens, filterTags);
    if (m.score > 0) matches.push(m);
  }
  // Array.prototype.sort is stable, so equal scores keep file-name order, as in OMC.
  matches.sort((a, b) => b.score - a.score);
  const kept = matches.slice(0, limit);
  return {
    hits: kept.map((m) => ({ page: m.page, score: m.score, snippet: snippetFor(m.page, m.at, m.len) })),
    total: matches.length,
    tokens,
  };
}
