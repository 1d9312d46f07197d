/**
 * OMC's notepad.md format, as facts (OMC 5.5.0: dist/hooks/notepad/index.js).
 * Own implementation; the tests prove it byte-for-byte against OMC's shipped
 * dist/hooks/notepad. Pure string functions, no I/O.
 *
 * Reader rule: a section body starts after the first `<Header>\n` and
 * runs to the first `\n## X` with X ≠ '#' (or end of file). All HTML comments
 * are removed from it and it is trimmed; empty means "no section".
 * Writer rule (5.5.0, where 4.x's replace bug is fixed): the whole span `<Header>\n … (up to that
 * boundary)` is replaced by `<Header>\n<first comment>\n<content>\n`, which is
 * why 5.5.0 never adds the `## <timestamp>` orphans 4.x left behind.
 */

export type SectionId = 'priority' | 'working' | 'manual';
export type EntrySection = Exclude<SectionId, 'priority'>;

export const NOTEPAD_REL = 'notepad.md';

export const HEADERS: Record<SectionId, string> = {
  priority: '## Priority Context',
  working: '## Working Memory',
  manual: '## MANUAL',
};

export const SECTION_TITLES: Record<SectionId, string> = {
  priority: 'Priority Context',
  working: 'Working Memory',
  manual: 'MANUAL',
};

/** What OMC's initNotepad writes, byte for byte (LF, ends with a blank line). */
export const NOTEPAD_TEMPLATE =
  '# Notepad\n' +
  '<!-- Auto-managed by OMC. Manual edits preserved in MANUAL section. -->\n\n' +
  `${HEADERS.priority}\n` +
  '<!-- ALWAYS loaded. Keep under 500 chars. Critical discoveries only. -->\n\n' +
  `${HEADERS.working}\n` +
  '<!-- Session notes. Auto-pruned after 7 days. -->\n\n' +
  `${HEADERS.manual}\n` +
  '<!-- User content. Never auto-pruned. -->\n\n';

/** OMC's limits (notepad-tools zod schemas and DEFAULT_CONFIG). */
export const LIMITS = {
  priorityRecommended: 500,
  priorityMax: 2000,
  entryMax: 4000,
  pruneDays: 7,
} as const;

export interface SectionSpan {
  /** Index of the header line. */
  headerStart: number;
  /** First character after `<Header>\n`. */
  bodyStart: number;
  /** Where the next real section starts (the `\n` of `\n## X`), or the end of the text. */
  end: number;
}

/** First index ≥ from where `\n## X` (X present and not '#') starts, else text.length. */
export function sectionBoundary(text: string, from: number): number {
  let i = from;
  for (;;) {
    const j = text.indexOf('\n## ', i);
    if (j === -1 || j + 4 >= text.length) return text.length;
    if (text[j + 4] !== '#') return j;
    i = j + 1;
  }
}

export function locateSection(text: string, id: SectionId): SectionSpan | null {
  const header = HEADERS[id];
  const headerStart = text.indexOf(`${header}\n`);
  if (headerStart === -1) return null;
  const bodyStart = headerStart + header.length + 1;
  return { headerStart, bodyStart, end: sectionBoundary(text, bodyStart) };
}

const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/** What OMC's reader returns for a section (null = "no section" / empty). */
export function readSection(text: string, id: SectionId): string | null {
  const span = locateSection(text, id);
  if (!span) return null;
  const body = text.slice(span.bodyStart, span.end).replace(HTML_COMMENT, '').trim();
  return body === '' ? null : body;
}

/**
 * OMC's reading of a section together with where each of its characters sits
 * in the file. OMC deletes HTML comments before it reads, so an entry's text on
 * screen (what OMC reads) and its bytes on disk differ when a comment sits
 * inside it; the map lets an edit replace exactly the bytes the user changed
 * and keep every comment around them (see rawRange).
 */
export interface MappedSection {
  span: SectionSpan;
  /** What readSection returns ('' when OMC sees no section). */
  text: string;
  /**
   * The text's pieces between comments, in order: text[from, from + length) is file[at, at + length). Pieces,
   * not one index per character: a section can be megabytes.
   */
  pieces: Array<{ from: number; at: number; length: number }>;
  /** File indexes [start, end) of every comment in the section body. */
  comments: Array<[number, number]>;
}

export function mapSection(file: string, id: SectionId): MappedSection | null {
  const span = locateSection(file, id);
  if (!span) return null;
  const raw = file.slice(span.bodyStart, span.end);
  const parts: Array<{ at: number; s: string }> = [];
  const comments: Array<[number, number]> = [];
  const re = new RegExp(HTML_COMMENT.source, 'g');
  let from = 0;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    parts.push({ at: span.bodyStart + from, s: raw.slice(from, m.index) });
    comments.push([span.bodyStart + m.index, span.bodyStart + m.index + m[0].length]);
    from = m.index + m[0].length;
  }
  parts.push({ at: span.bodyStart + from, s: raw.slice(from) });
  // Trim as OMC does (String.prototype.trim), then place each piece in the trimmed text.
  const joined = parts.map((p) => p.s).join('');
  const lead = joined.length - joined.trimStart().length;
  const text = joined.trim();
  const pieces: MappedSection['pieces'] = [];
  let offset = -lead;
  for (const p of parts) {
    const lo = Math.max(0, offset);
    const hi = Math.min(text.length, offset + p.s.length);
    if (hi > lo) pieces.push({ from: lo, at: p.at + (lo - offset), length: hi - lo });
    offset += p.s.length;
  }
  return { span, text, pieces, comments };
}

/** The file index of text[i] (0 ≤ i < text.length). */
export function fileIndex(m: MappedSection, i: number): number {
  let lo = 0;
  let hi = m.pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((m.pieces[mid] as { from: number }).from <= i) lo = mid;
    else hi = mid - 1;
  }
  const p = m.pieces[lo] as { from: number; at: number };
  return p.at + (i - p.from);
}

/**
 * The file range [start, end) holding text[from, to): from its first to its
 * last character, so comments inside it are included and comments before or
 * after it are not. null for an empty range.
 */
export function rawRange(m: MappedSection, from: number, to: number): { start: number; end: number } | null {
  if (to <= from) return null;
  return { start: fileIndex(m, from), end: fileIndex(m, to - 1) + 1 };
}

/** The comments in a text (what a draft may keep: those it started with). */
export const commentsIn = (text: string): string[] => text.match(HTML_COMMENT) ?? [];

/** True when a comment sits in the section after OMC's reading starts (inside or after the text). */
export function hasCommentPastStart(m: MappedSection): boolean {
  if (m.text === '') return false;
  const first = fileIndex(m, 0);
  return m.comments.some(([s]) => s > first);
}

/** The comment OMC keeps when it rewrites a section: the first `<Header>\n<!--…-->` in the file. */
function preservedComment(text: string, id: SectionId): string {
  const marker = `${HEADERS[id]}\n<!--`;
  const at = text.indexOf(marker);
  if (at === -1) return '';
  const close = text.indexOf('-->', at + marker.length);
  if (close === -1) return '';
  return text.slice(at + HEADERS[id].length + 1, close + 3) + '\n';
}

/**
 * OMC 5.5.0's section replacement. A missing header leaves the text as is
 * (OMC then silently writes nothing new; callers check for that first).
 */
export function replaceSection(text: string, id: SectionId, content: string): string {
  const span = locateSection(text, id);
  if (!span) return text;
  const comment = preservedComment(text, id);
  return text.slice(0, span.headerStart) + `${HEADERS[id]}\n${comment}${content}\n` + text.slice(span.end);
}

/**
 * An edit in place changes the section's text and nothing around it: the
 * header, its comment and the blank lines before the next section stay byte
 * for byte (a rewrite through OMC's replace would add a blank line after the
 * last entry, a line the user never wrote). Possible when the section's raw
 * span is comments and whitespace, then OMC's reading `was`, then whitespace;
 * otherwise null (the caller rewrites the section the way OMC's appender does).
 */
export function spliceSection(file: string, id: SectionId, was: string, next: string): string | null {
  const span = locateSection(file, id);
  if (!span || was === '') return null;
  const raw = file.slice(span.bodyStart, span.end);
  const textEnd = raw.trimEnd().length;
  const textStart = textEnd - was.length;
  if (textStart < 0 || raw.slice(textStart, textEnd) !== was) return null;
  if (raw.slice(0, textStart).replace(HTML_COMMENT, '').trim() !== '') return null;
  return file.slice(0, span.bodyStart + textStart) + next + file.slice(span.bodyStart + textEnd);
}

/** `### YYYY-MM-DD HH:MM` stamp for a moment: UTC, minute precision, no zone marker (OMC's format). */
export function entryStamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

const STAMP_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
export const ENTRY_HEADING_RE = /^### (\d{4}-\d{2}-\d{2} \d{2}:\d{2})$/;

/** The UTC moment a stamp names, or null when it is not a real date (OMC's prune drops those). */
export function stampMs(stamp: string): number | null {
  if (!STAMP_RE.test(stamp)) return null;
  const ms = Date.parse(`${stamp.replace(' ', 'T')}:00Z`);
  if (!Number.isFinite(ms)) return null;
  // Date.parse rolls 2026-02-30 over to March; a stamp must name itself.
  return entryStamp(ms) === stamp ? ms : null;
}

/** One entry inside a section's text (offsets are into that text). */
export interface RawEntry {
  /** null for text before the first heading (a "preamble" OMC keeps but never wrote itself). */
  stamp: string | null;
  /** Start of the `### ` heading line (or 0 for the preamble). */
  start: number;
  /** Start of the next heading, or the end of the section text. */
  end: number;
  /** The entry's text without its heading, leading blank lines and trailing whitespace. */
  body: string;
  /** Where `body` starts in the section text. */
  bodyAt: number;
}

/** Splits a section's (OMC-read) text into entries at `### YYYY-MM-DD HH:MM` lines. */
export function splitEntries(section: string): RawEntry[] {
  const heads: Array<{ start: number; bodyStart: number; stamp: string }> = [];
  let lineStart = 0;
  while (lineStart <= section.length) {
    let nl = section.indexOf('\n', lineStart);
    if (nl === -1) nl = section.length;
    if (section.startsWith('### ', lineStart)) {
      const m = ENTRY_HEADING_RE.exec(section.slice(lineStart, nl));
      if (m) heads.push({ start: lineStart, bodyStart: Math.min(nl + 1, section.length), stamp: m[1] as string });
    }
    lineStart = nl + 1;
  }
  const out: RawEntry[] = [];
  const firstHead = heads[0]?.start ?? section.length;
  const pre = section.slice(0, firstHead);
  if (pre.trim() !== '') out.push({ stamp: null, start: 0, end: firstHead, ...bodyOf(section, 0, firstHead) });
  heads.forEach((h, i) => {
    const end = heads[i + 1]?.start ?? section.length;
    out.push({ stamp: h.stamp, start: h.start, end, ...bodyOf(section, h.bodyStart, end) });
  });
  return out;
}

function bodyOf(section: string, from: number, to: number): { body: string; bodyAt: number } {
  const s = section.slice(from, to);
  const lead = /^(?:[ \t]*\n)*/.exec(s)?.[0].length ?? 0;
  return { body: normalizeBody(s), bodyAt: from + lead };
}

/** Leading blank lines and trailing whitespace are not part of an entry's text. */
export function normalizeBody(s: string): string {
  return s.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

/** `## YYYY-MM-DD HH:MM` lines: stale section copies that OMC 4.x's replace bug left. */
export function findOrphans(text: string): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  const re = /(^|\n)## \d{4}-\d{2}-\d{2} \d{2}:\d{2}\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const start = m.index + m[1]!.length;
    const end = sectionBoundary(text, start + 1);
    count += 1;
    bytes += Buffer.byteLength(text.slice(start, end), 'utf8');
    re.lastIndex = Math.max(re.lastIndex, end);
  }
  return { count, bytes };
}
