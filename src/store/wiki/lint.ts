/**
 * OMC's wiki_lint checks (OMC 5.5.0: dist/hooks/wiki/lint.js) over the index, with
 * OMC's defaults (wiki_lint always uses them: 30 stale days, 10 240-byte
 * pages). Like search, it never appends to log.md.
 */
import type { WikiPage } from './page.js';

export const STALE_DAYS = 30;
export const MAX_PAGE_BYTES = 10_240;
const DAY_MS = 24 * 60 * 60 * 1000;

export type LintType = 'orphan' | 'stale' | 'broken-ref' | 'low-confidence' | 'oversized' | 'structural-contradiction';

export interface LintIssue {
  page: string;
  type: LintType;
  severity: 'error' | 'warning' | 'info';
  /** Plain-language detail; titles and names inside are raw (clean before display). */
  message: string;
}

export interface LintReport {
  issues: LintIssue[];
  byPage: Map<string, LintIssue[]>;
  counts: Record<LintType, number>;
}

const quote = (s: string) => `"${s}"`;

export function lintWiki(all: readonly WikiPage[], now: number): LintReport {
  const pages = all.filter((p) => p.searchable && p.frontmatter);
  const names = new Set(pages.map((p) => p.filename));
  // Incoming links per target. A page that links to itself counts, as in OMC.
  const incoming = new Map<string, number>();
  for (const p of pages) for (const l of p.frontmatter!.links) incoming.set(l, (incoming.get(l) ?? 0) + 1);

  const issues: LintIssue[] = [];
  for (const p of pages) {
    const fm = p.frontmatter!;
    if (!incoming.get(p.filename)) {
      issues.push({
        page: p.filename,
        type: 'orphan',
        severity: 'info',
        message: `No other pages link to ${quote(fm.title)}`,
      });
    }
    // An unparseable date gives NaN, and NaN is never "older than": OMC does not flag it either.
    if (now - p.updatedMs > STALE_DAYS * DAY_MS) {
      const days = Math.floor((now - p.updatedMs) / DAY_MS);
      issues.push({
        page: p.filename,
        type: 'stale',
        severity: 'warning',
        message: `${quote(fm.title)} not updated in ${days} days`,
      });
    }
    for (const l of fm.links) {
      if (!names.has(l)) {
        issues.push({
          page: p.filename,
          type: 'broken-ref',
          severity: 'error',
          message: `Broken link to ${quote(l)} from ${quote(fm.title)}`,
        });
      }
    }
    if (fm.confidence === 'low') {
      issues.push({
        page: p.filename,
        type: 'low-confidence',
        severity: 'info',
        message: `${quote(fm.title)} has low confidence`,
      });
    }
    if (p.bodyBytes > MAX_PAGE_BYTES) {
      issues.push({
        page: p.filename,
        type: 'oversized',
        severity: 'warning',
        message: `${quote(fm.title)} is ${(p.bodyBytes / 1024).toFixed(1)}KB (over ${MAX_PAGE_BYTES / 1024} KB)`,
      });
    }
  }
  contradictions(pages, issues);

  const byPage = new Map<string, LintIssue[]>();
  const counts: Record<LintType, number> = {
    orphan: 0,
    stale: 0,
    'broken-ref': 0,
    'low-confidence': 0,
    oversized: 0,
    'structural-contradiction': 0,
  };
  for (const i of issues) {
    counts[i.type] += 1;
    let list = byPage.get(i.page);
    if (!list) byPage.set(i.page, (list = []));
    list.push(i);
  }
  return { issues, byPage, counts };
}

/**
 * Pages sharing the first two "-"-separated pieces of their file name are
 * "related": high and low confidence together is a warning; one tag used
 * under two categories is an info (one per group).
 */
function contradictions(pages: readonly WikiPage[], issues: LintIssue[]): void {
  const groups = new Map<string, WikiPage[]>();
  for (const p of pages) {
    const key = p.filename.split('-').slice(0, 2).join('-');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(p);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const conf = new Set(group.map((p) => p.frontmatter!.confidence));
    if (conf.has('high') && conf.has('low')) {
      issues.push({
        page: group[0]!.filename,
        type: 'structural-contradiction',
        severity: 'warning',
        message: `Conflicting confidence levels for related pages: ${group.map((p) => quote(p.frontmatter!.title)).join(', ')}`,
      });
    }
    const cats = new Map<string, Set<string>>();
    for (const p of group) {
      for (const t of p.frontmatter!.tags) {
        let s = cats.get(t);
        if (!s) cats.set(t, (s = new Set()));
        s.add(p.frontmatter!.category);
      }
    }
    for (const [tag, s] of cats) {
      if (s.size > 1) {
        issues.push({
          page: group[0]!.filename,
          type: 'structural-contradiction',
          severity: 'info',
          message: `Tag ${quote(tag)} appears in pages with different categories: ${[...s].join(', ')}`,
        });
        break;
      }
    }
  }
}
