/**
 * The notepad as the UI sees it: OMC's reading of each section, split into
 * entries. Raw text (`body`, `text`) is what identifies an entry for merges;
 * `display` is the sanitised copy views show.
 */
import { cleanBlock } from '../../io/sanitize.js';
import type { Problem } from '../types.js';
import {
  HEADERS,
  LIMITS,
  findOrphans,
  mapSection,
  rawRange,
  splitEntries,
  type MappedSection,
  stampMs,
  type EntrySection,
  type SectionId,
} from './format.js';
import { withEntryIds } from './identity.js';

export interface NotepadEntry {
  /** What the entry is (identity.ts): stamp + digest of its text; the same after OMC appends, prunes or re-orders. */
  id: string;
  stamp: string | null;
  /** UTC moment of the stamp; null for the preamble or an impossible date. */
  atMs: number | null;
  /** The stamp as OMC's prune reads it (local time, see isDue); NaN for the preamble or a stamp V8 cannot read. */
  omcReadMs: number;
  /**
   * When OMC's prune (7 days) starts taking it: its reading plus seven calendar days in local time, so the pane can
   * repaint its "due" at that moment (not on an age step: outside UTC it falls between them). NaN when `omcReadMs` is.
   */
  dueAtMs: number;
  /** OMC's reading of the text (identity for merges; what the limits count). */
  body: string;
  /**
   * The text as it is in the file, HTML comments inside it included (OMC's reader deletes them, so `body` lacks
   * them): what the editor opens and a save writes back. Equal to `body` when it holds no comment.
   */
  raw: string;
  /** The sanitised `raw`: what the views show (a comment shows as the text it is). */
  display: string;
  chars: number;
  /** Position in the file (0 = first). */
  order: number;
}

export interface SectionView {
  id: SectionId;
  /** The header line exists (followed by \n). */
  found: boolean;
  /** OMC's reading: comments stripped, trimmed; '' when OMC sees no section. */
  text: string;
  /** `text` as it is in the file, from its first to its last character, comments inside it included. */
  raw: string;
  display: string;
  chars: number;
  /** File order. Empty for priority. */
  entries: NotepadEntry[];
}

export interface NotepadSnapshot {
  version: number;
  /** 'missing': no notepad.md yet; 'unreadable': never read successfully (see problems). */
  status: 'missing' | 'ok' | 'unreadable';
  bytes: number;
  /** Identifies the exact bytes read (sha1); editors remember it to detect changes underneath. */
  revision: string | null;
  sections: Record<SectionId, SectionView>;
  /** 4.x orphan `## <timestamp>` blocks: tolerated, never shown as sections, never touched. */
  orphans: { count: number; bytes: number };
  /** Edits are refused while set (CRLF file, invalid UTF-8, …), with this reason. */
  editBlock: string | null;
  problems: Problem[];
}

const emptySection = (id: SectionId): SectionView => ({
  id,
  found: false,
  text: '',
  raw: '',
  display: '',
  chars: 0,
  entries: [],
});

export const EMPTY_NOTEPAD: NotepadSnapshot = {
  version: 0,
  status: 'missing',
  bytes: 0,
  revision: null,
  sections: { priority: emptySection('priority'), working: emptySection('working'), manual: emptySection('manual') },
  orphans: { count: 0, bytes: 0 },
  editBlock: null,
  problems: [],
};

/** The file's bytes for text[from, from + length) of a mapped section: comments inside it included. */
function rawText(file: string, m: MappedSection, from: number, length: number): string {
  const r = rawRange(m, from, from + length);
  return r ? file.slice(r.start, r.end) : '';
}

export function entriesOf(sectionText: string, rawOf: (from: number, length: number) => string): NotepadEntry[] {
  return withEntryIds(splitEntries(sectionText)).map((e, order) => {
    const raw = rawOf(e.bodyAt, e.body.length);
    return {
      id: e.id,
      stamp: e.stamp,
      atMs: e.stamp === null ? null : stampMs(e.stamp),
      ...omcPruneClock(e.stamp),
      body: e.body,
      raw,
      display: cleanBlock(raw),
      chars: e.body.length,
      order,
    };
  });
}

export interface ParsedNotepad {
  sections: Record<SectionId, SectionView>;
  orphans: { count: number; bytes: number };
  crlf: boolean;
  missingHeaders: SectionId[];
}

/** Reads notepad text exactly as OMC's section reader does. */
export function parseNotepad(text: string): ParsedNotepad {
  const section = (id: SectionId): SectionView => {
    const m = mapSection(text, id);
    const t = m?.text ?? '';
    const rawOf = (from: number, length: number) => (m ? rawText(text, m, from, length) : '');
    const raw = rawOf(0, t.length);
    return {
      id,
      found: m !== null,
      text: t,
      raw,
      display: cleanBlock(raw),
      chars: t.length,
      entries: id === 'priority' ? [] : entriesOf(t, rawOf),
    };
  };
  const sections = { priority: section('priority'), working: section('working'), manual: section('manual') };
  const ids: SectionId[] = ['priority', 'working', 'manual'];
  const missingHeaders = ids.filter((id) => !sections[id].found);
  const crlf = missingHeaders.some((id) => text.includes(`${HEADERS[id]}\r\n`));
  return { sections, orphans: findOrphans(text), crlf, missingHeaders };
}

/** Newest first (OMC appends at the end); the preamble, which has no time, goes last. */
export function newestFirst(entries: readonly NotepadEntry[]): NotepadEntry[] {
  return [...entries].sort((a, b) => {
    if ((a.stamp === null) !== (b.stamp === null)) return a.stamp === null ? 1 : -1;
    const at = a.atMs ?? -Infinity;
    const bt = b.atMs ?? -Infinity;
    if (at !== bt) return bt - at;
    return b.order - a.order;
  });
}

/**
 * Due for pruning: what OMC's notepad_prune(days) removes, read the way it reads it. OMC writes a stamp in UTC
 * (`toISOString`) but reads it back with `new Date(stamp)`, which takes "YYYY-MM-DD HH:MM" as local time, and keeps
 * the entries at or after a cutoff `days` calendar days back in local time (`setDate`). Outside UTC an entry so
 * comes due hours before or after its true age says (9 h early at UTC+9), and across a DST change the cutoff moves by
 * an hour; a stamp V8 cannot read (month 13) is dropped, one it rolls over (February 30) is kept by its rolled date.
 * The same engine reads it the same way here, so "due" is what OMC's prune takes, in any time zone. (The age shown
 * beside an entry is its true age, from `atMs`.) The preamble is never due: OMC's prune would discard it, omc-top
 * keeps it.
 */
export function isDue(e: NotepadEntry, now: number, days: number = LIMITS.pruneDays): boolean {
  if (e.stamp === null) return false;
  const cutoff = new Date(now);
  cutoff.setDate(cutoff.getDate() - days);
  // OMC keeps `entryDate >= cutoff`; an Invalid Date (NaN) compares false there, so it is pruned.
  return !(e.omcReadMs >= cutoff.getTime());
}

/** An entry's stamp read as OMC's prune reads it, once per parse (see isDue), and when it comes due at 7 days. */
function omcPruneClock(stamp: string | null): { omcReadMs: number; dueAtMs: number } {
  if (stamp === null) return { omcReadMs: Number.NaN, dueAtMs: Number.NaN };
  const read = new Date(stamp);
  const omcReadMs = read.getTime();
  read.setDate(read.getDate() + LIMITS.pruneDays);
  // OMC keeps an entry at exactly the cutoff: the first moment it takes it is one millisecond later.
  return { omcReadMs, dueAtMs: read.getTime() + 1 };
}

export type { EntrySection, SectionId };
