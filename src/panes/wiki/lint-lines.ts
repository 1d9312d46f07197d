/**
 * The lint list: every page OMC cannot read, then OMC's wiki_lint findings
 * (errors, warnings, then infos), each naming its page so Enter can open it.
 */
import type { WikiSnapshot } from '../../store/wiki/domain.js';
import type { LintReport, LintType } from '../../store/wiki/lint.js';
import { cleanLine } from '../../io/sanitize.js';

export interface LintItem {
  page: string;
  severity: 'error' | 'warning' | 'info';
  kind: string;
  text: string;
}

const RANK = { error: 0, warning: 1, info: 2 } as const;

export function lintItems(snap: WikiSnapshot, lint: LintReport): LintItem[] {
  const items: LintItem[] = [];
  for (const p of snap.pages) {
    for (const i of p.issues) {
      if (i.severity === 'info') continue;
      items.push({
        page: p.filename,
        severity: i.severity,
        kind: 'problem',
        text: `${p.shownName}: ${i.message}`,
      });
    }
  }
  const findings = lint.issues
    .map((i) => ({ page: i.page, severity: i.severity, kind: i.type, text: cleanLine(i.message) }))
    .sort((a, b) => RANK[a.severity] - RANK[b.severity]);
  return [...items, ...findings];
}

export function lintSummary(lint: LintReport, unreadable: number): string {
  const c = lint.counts;
  const part = (n: number, what: LintType | string) => `${n} ${what}`;
  return [
    unreadable ? `${unreadable} unreadable` : null,
    part(c['broken-ref'], 'broken-ref'),
    part(c.stale, 'stale'),
    part(c.oversized, 'oversized'),
    part(c['low-confidence'], 'low-confidence'),
    part(c.orphan, 'orphan'),
    part(c['structural-contradiction'], 'contradiction'),
  ]
    .filter(Boolean)
    .join(' · ');
}
