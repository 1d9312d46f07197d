/**
 * The lines of the page view: a frontmatter summary (category, confidence,
 * dates, tags, sources), the followable links, the page's problem badges and
 * lint findings, then the body, wrapped to the pane width. All text is
 * sanitised here; wrapping is memoised per page and width, and a huge body is
 * cut so one keystroke never wraps megabytes.
 */
import type { WikiSnapshot } from '../../store/wiki/domain.js';
import type { LintReport } from '../../store/wiki/lint.js';
import { pageNameText, type WikiPage } from '../../store/wiki/page.js';
import { DATE_NOT_SET } from '../../store/wiki/frontmatter.js';
import { headUnits } from '../../io/grapheme-cut.js';
import { cleanBlockShown, cleanLine } from '../../io/sanitize.js';
import { formatAgo, formatTimestamp, wrapText } from '../../ui/format.js';

export const BODY_DISPLAY_MAX = 512 * 1024;

export interface PageLine {
  text: string;
  tone?: 'title' | 'label' | 'dim' | 'warn' | 'error' | 'heading' | 'link' | 'missing';
  /** Set on a link line: its index in pageLinks(). */
  link?: number;
}

export interface LinkTarget {
  name: string;
  exists: boolean;
  /** Display title of the target (its file name when it does not exist). */
  title: string;
}

/** Links from the frontmatter first (what OMC's lint checks), then `[[…]]` in the body not already listed. */
export function pageLinks(page: WikiPage, snap: WikiSnapshot): LinkTarget[] {
  const names: string[] = [];
  for (const n of [...(page.frontmatter?.links ?? []), ...page.bodyLinks]) if (!names.includes(n)) names.push(n);
  return names.map((name) => {
    const target = snap.byName.get(name);
    return { name, exists: target !== undefined, title: target ? target.display.title : cleanLine(name) };
  });
}

const bodyCache = new WeakMap<WikiPage, { width: number; lines: PageLine[] }>();

function bodyLines(page: WikiPage, width: number): PageLine[] {
  const hit = bodyCache.get(page);
  if (hit && hit.width === width) return hit.lines;
  const source = page.searchable ? page.content : (page.rawText ?? '');
  const cut = source.length > BODY_DISPLAY_MAX;
  const text = cleanBlockShown(cut ? headUnits(source, BODY_DISPLAY_MAX) : source).replace(/^\n+/, '');
  const lines: PageLine[] = [];
  let fence = false;
  for (const raw of text.split('\n')) {
    if (/^\s*```/.test(raw)) fence = !fence;
    const tone: PageLine['tone'] =
      fence || /^\s*```/.test(raw)
        ? 'dim'
        : /^#{1,6}\s/.test(raw)
          ? 'heading'
          : /^---+\s*$/.test(raw)
            ? 'dim'
            : undefined;
    for (const w of wrapText(raw, width)) lines.push({ text: w, tone });
  }
  if (cut)
    lines.push({
      text: `… (display stops at ${BODY_DISPLAY_MAX / 1024} KB; the page is ${Math.round(source.length / 1024)} KB)`,
      tone: 'warn',
    });
  bodyCache.set(page, { width, lines });
  return lines;
}

export function pageLines(
  page: WikiPage,
  snap: WikiSnapshot,
  lint: LintReport,
  now: number,
  width: number,
): PageLine[] {
  const w = Math.max(20, width);
  const out: PageLine[] = [];
  const push = (text: string, tone?: PageLine['tone'], link?: number) => {
    for (const line of wrapText(text, w)) out.push({ text: line, tone, link });
  };
  const fm = page.frontmatter;
  push(page.display.title, 'title');
  if (fm) {
    const updated = Date.parse(fm.updated);
    const created = Date.parse(fm.created);
    // A date the page does not set is said so, with what OMC makes of it: never a time omc-top made up.
    const shownUpdated =
      fm.updated === DATE_NOT_SET
        ? `not set (OMC takes the time it reads the page: never stale)`
        : Number.isNaN(updated)
          ? cleanLine(fm.updated)
          : `${formatAgo(updated, now)} (${formatTimestamp(updated)})`;
    const shownCreated =
      fm.created === DATE_NOT_SET
        ? 'not set (OMC takes the time it reads the page)'
        : Number.isNaN(created)
          ? cleanLine(fm.created)
          : formatTimestamp(created);
    push(
      `${page.display.category} · confidence ${page.display.confidence} · updated ${shownUpdated} · created ${shownCreated}`,
      'dim',
    );
    push(`tags: ${page.display.tags.length ? page.display.tags.join(', ') : '—'}`, 'label');
    if (fm.sources.length) push(`sources: ${fm.sources.map(cleanLine).join(', ')}`, 'dim');
  }
  push(`file: wiki/${pageNameText(page.filename)}`, 'dim');
  for (const i of page.issues)
    push(
      `${i.severity === 'info' ? 'ℹ' : '⚠'} ${i.message}`,
      i.severity === 'error' ? 'error' : i.severity === 'warning' ? 'warn' : 'dim',
    );
  for (const l of lint.byPage.get(page.filename) ?? [])
    push(
      `lint ${l.type}: ${cleanLine(l.message)}`,
      l.severity === 'error' ? 'error' : l.severity === 'warning' ? 'warn' : 'dim',
    );
  const links = pageLinks(page, snap);
  if (links.length > 0) {
    push(`links ([ ] pick, Enter or 1–9 follows):`, 'label');
    links.forEach((l, i) => {
      const n = i < 9 ? `${i + 1}` : '·';
      push(
        `  [${n}] ${l.title}${l.exists ? ` (${cleanLine(l.name)})` : `  ✗ no page ${cleanLine(l.name)}`}`,
        l.exists ? 'link' : 'missing',
        i,
      );
    });
  }
  out.push({ text: '─'.repeat(Math.min(w, 60)), tone: 'dim' });
  out.push(...bodyLines(page, w));
  return out;
}
