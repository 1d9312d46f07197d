/**
 * Pure text layout for the memory pane, so tests can pin what a user reads at
 * 60 and 80 columns: directive rows, the selected directive's details, the
 * compact project summary and the injection preview lines.
 */
import type { DirectiveRow, MemoryModel } from '../../store/memory/model.js';
import { DIRECTIVE_MAX_CHARS, CONTEXT_MAX_CHARS } from '../../store/memory/schema.js';
import { directiveLabel, type InjectionState } from '../../store/memory/summary.js';
import { cleanBlockShown } from '../../io/sanitize.js';
import { isoOrNull } from '../../store/sessions/omc-rules.js';
import { fit, formatAge, formatAgo, formatTimestamp, wrapText } from '../../ui/format.js';
import { filterWords, showsEveryWord } from '../../kit/row-filter.js';

/**
 * Rows shown for a filter: every word must be in what the row shows at `now` (rank, priority, text, source, age,
 * its fate at the next session start: directiveCells) or in its context (the detail under the list shows it).
 */
export function visibleDirectives(model: MemoryModel, filter: string, now: number): DirectiveRow[] {
  const words = filterWords(filter);
  if (words.length === 0) return model.directives;
  return model.directives.filter((r) =>
    showsEveryWord(`${Object.values(directiveCells(r, now)).join(' ')} ${r.display.context}`, words),
  );
}

export const FATE: Record<InjectionState, string> = {
  injected: '✓ start',
  'cut-short': '½ cut',
  'over-budget': '✗ 650',
  'not-top': '',
};

export interface Cols {
  rank: number;
  prio: number;
  text: number;
  source: number;
  age: number;
  fate: number;
}

/** Column widths for a pane `width` cells wide (2 go to the selection marker). */
export function colsFor(width: number): Cols {
  const rank = 3;
  const prio = 9;
  const source = width >= 72 ? 9 : 0;
  const age = 5;
  const fate = 8;
  return { rank, prio, source, age, fate, text: Math.max(8, width - 2 - rank - prio - source - age - fate) };
}

export function headerText(width: number): string {
  const c = colsFor(width);
  return fit(
    `  ${fit('#', c.rank)}${fit('PRIORITY', c.prio)}${fit('DIRECTIVE', c.text)}${c.source ? fit('SOURCE', c.source) : ''}${fit('  AGE', c.age)} ${fit('START', c.fate - 1)}`,
    width,
  );
}

export interface RowText {
  rank: string;
  prio: string;
  text: string;
  source: string;
  age: string;
  fate: string;
  fateTone: 'ok' | 'warn' | 'dim' | 'error';
}

/** What a directive's row shows, each cell whole: rowText cuts them to their columns, the filter reads them. */
export function directiveCells(r: DirectiveRow, now: number) {
  return {
    rank: String(r.rank),
    prio: directiveLabel(r.directive),
    text: r.display.text,
    source: r.display.source,
    age: formatAge(r.directive.timestamp, now),
    fate: !r.survivesCap ? '✗ cap' : FATE[r.injection],
  };
}

export function rowText(r: DirectiveRow, now: number, width: number): RowText {
  const c = colsFor(width);
  const cells = directiveCells(r, now);
  return {
    rank: fit(cells.rank, c.rank),
    prio: fit(cells.prio, c.prio),
    text: fit(cells.text, c.text - 1) + ' ',
    source: c.source ? fit(cells.source, c.source) : '',
    age: fit(cells.age.padStart(c.age - 1), c.age),
    fate: ' ' + fit(cells.fate, c.fate - 1),
    fateTone: !r.survivesCap ? 'error' : r.injection === 'injected' ? 'ok' : r.injection === 'not-top' ? 'dim' : 'warn',
  };
}

export function fateExplained(r: DirectiveRow): string {
  if (!r.survivesCap)
    return "pushed out at OMC's next add: the file holds more than 20 and this one ranks below the top 20";
  switch (r.injection) {
    case 'injected':
      return 'injected at the next session start';
    case 'cut-short':
      return "injected, but cut short by the summary's 650-character limit";
    case 'over-budget':
      return "in the top 3, but past the summary's 650-character limit: not injected";
    default:
      return `not injected: SessionStart shows only the top 3 (rank ${r.rank})`;
  }
}

/** The selected directive in full: its text wrapped, then context, source, age and fate. */
export function detailLines(r: DirectiveRow, now: number, width: number, maxLines: number): string[] {
  const w = Math.max(10, width);
  const out = wrapText(r.display.text, w);
  const meta = `${r.directive.priority} (${directiveLabel(r.directive)}) · ${r.display.source} · added ${isoOrNull(r.directive.timestamp) === null ? 'at an impossible time' : formatTimestamp(r.directive.timestamp)} (${formatAgo(r.directive.timestamp, now)}) · ${fateExplained(r)}`;
  if (r.display.context) out.push(...wrapText(`context: ${r.display.context}`, w));
  out.push(...wrapText(meta, w));
  if (out.length > maxLines) return [...out.slice(0, Math.max(0, maxLines - 1)), '…'];
  return out;
}

export function summaryLines(model: MemoryModel, width: number): Array<[string, string]> {
  const s = model.summary;
  const rows: Array<[string, string]> = [
    ['stack', s.stack || '—'],
    ['commands', s.commands || '—'],
    [
      'notes',
      s.notes.length
        ? `${s.notes.join(' · ')}${s.noteCount > s.notes.length ? ` (+${s.noteCount - s.notes.length})` : ''}`
        : '—',
    ],
    [
      'hot paths',
      s.hotPaths.length
        ? `${s.hotPaths.join(' · ')}${s.hotPathCount > s.hotPaths.length ? ` (+${s.hotPathCount - s.hotPaths.length})` : ''}`
        : '—',
    ],
  ];
  return rows.map(([k, v]) => [fit(k, 10), fit(v, Math.max(4, width - 10))]);
}

export function counter(text: string, max: number): string {
  return `${text.length}/${max}`;
}
export const LIMITS = { directive: DIRECTIVE_MAX_CHARS, context: CONTEXT_MAX_CHARS };

export interface PreviewLine {
  text: string;
  tone?: 'dim' | 'cut' | 'title' | 'warn';
}

/** The injection exactly as SessionStart will add it, then (dimmed) what the 650-character limit cuts off. */
export function previewLines(model: MemoryModel, width: number): PreviewLine[] {
  const w = Math.max(20, width);
  const out: PreviewLine[] = [];
  const injectedCount = model.directives.filter(
    (r) => r.injection === 'injected' || r.injection === 'cut-short',
  ).length;
  out.push({
    text: model.injection
      ? `SessionStart adds ${model.injection.length} characters: summary ${Math.min(model.summaryLength, 650)}/650${model.summaryCut ? ' (cut)' : ''} · ${injectedCount} of ${model.directives.length} directives`
      : 'SessionStart adds nothing from project memory.',
    tone: 'title',
  });
  if (model.injectionNote) for (const l of wrapText(model.injectionNote, w)) out.push({ text: l, tone: 'warn' });
  out.push({ text: '' });
  for (const l of cleanBlockShown(model.injection).split('\n')) for (const x of wrapText(l, w)) out.push({ text: x });
  if (model.cutText) {
    out.push({ text: '── cut off by the 650-character limit (not injected) ──', tone: 'dim' });
    for (const l of cleanBlockShown(model.cutText).split('\n'))
      for (const x of wrapText(l, w)) out.push({ text: x, tone: 'cut' });
  }
  return out;
}
