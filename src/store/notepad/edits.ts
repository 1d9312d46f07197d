/**
 * Every notepad edit as a pure function: (file text now on disk, edit) → new
 * file text, or a refusal. The domain runs this under OMC's lock on bytes it
 * has just re-read, so an edit lands on top of whatever OMC wrote meanwhile.
 *
 * Merge rule: an edit names its target by content (stamp + the text the user
 * started from), never by position. If that exact entry is still there the
 * edit applies, whatever else changed (a merge); if the entry itself changed
 * or vanished, the edit is refused and the caller keeps the draft.
 *
 * Output bytes are OMC's: new entries are `### <UTC stamp>\n<text>\n` joined
 * with "\n" (addWorkingMemoryEntry), sections are rewritten with 5.5.0's
 * replace (never adding orphans), a prune rebuilds the kept entries joined by
 * a blank line (pruneOldEntries). Everything outside the touched section,
 * including 4.x orphan blocks, is left byte for byte.
 */
import {
  HEADERS,
  NOTEPAD_TEMPLATE,
  SECTION_TITLES,
  commentsIn,
  entryStamp,
  fileIndex,
  hasCommentPastStart,
  locateSection,
  mapSection,
  rawRange,
  replaceSection,
  spliceSection,
  splitEntries,
  type EntrySection,
  type MappedSection,
  type RawEntry,
  type SectionId,
} from './format.js';
import { keyOfId, withEntryIds } from './identity.js';
import { firstLineQuoted } from '../../io/sanitize.js';
import { normalizeDraft, validateEntry, validatePriority, type Verdict } from './validate.js';

/** Names an entry by what the user saw when they started. */
export interface EntryRef {
  section: EntrySection;
  /** The entry's identity (identity.ts): its stamp and text, not its position. */
  id: string;
  stamp: string | null;
  body: string;
  /**
   * The ids of the other entries with the same stamp when the user started:
   * an entry with that stamp on disk that is none of them is this entry,
   * changed (shown to the user, never written over without a second Ctrl-S).
   */
  siblings?: readonly string[];
  /**
   * The entry's text as it was in the file (its comments included) when the user started: the comments a draft
   * may keep, and a comment changed on disk since then is a change to this entry.
   */
  raw?: string;
}

export type NotepadOp =
  | { kind: 'add'; section: EntrySection; body: string }
  | { kind: 'edit'; target: EntryRef; body: string }
  | { kind: 'delete'; target: EntryRef }
  /** `base` is OMC's reading of Priority Context when editing started; `baseRaw` its bytes, comments included. */
  | { kind: 'priority'; text: string; base: string; baseRaw?: string }
  | { kind: 'prune'; targets: EntryRef[] };

export type ApplyResult =
  | { ok: true; text: string; summary: string; warning?: string }
  | {
      ok: false;
      /** conflict: the target changed or vanished (keep the draft); refused: the file cannot take this edit. */
      kind: 'conflict' | 'refused';
      reason: 'changed' | 'gone' | 'refused';
      message: string;
      /** The target's text on disk now, when it still exists in changed form. */
      disk?: string;
    };

/** Validates and normalizes the text an op carries. */
export function checkOp(op: NotepadOp): { op: NotepadOp; verdict: Verdict } {
  switch (op.kind) {
    case 'add': {
      const body = normalizeDraft(op.body);
      return { op: { ...op, body }, verdict: validateEntry(op.section, body) };
    }
    case 'edit': {
      const body = normalizeDraft(op.body);
      return { op: { ...op, body }, verdict: validateEntry(op.target.section, body, commentsIn(op.target.raw ?? '')) };
    }
    case 'priority': {
      const text = normalizeDraft(op.text);
      return { op: { ...op, text }, verdict: validatePriority(text, commentsIn(op.baseRaw ?? '')) };
    }
    default:
      return { op, verdict: { ok: true } };
  }
}

interface IndexedEntry extends RawEntry {
  id: string;
  /** The entry's text as it is in the file, comments included (model.ts NotepadEntry.raw). */
  raw: string;
}

function indexEntries(file: string, m: MappedSection): IndexedEntry[] {
  return withEntryIds(splitEntries(m.text)).map((e) => {
    const r = rawRange(m, e.bodyAt, e.bodyAt + e.body.length);
    return { ...e, raw: r ? file.slice(r.start, r.end) : '' };
  });
}

/**
 * An edit of an entry in a section holding comments past its start: only the bytes of the entry's text are
 * replaced, so every comment before, inside (when the draft kept it) or after the entry stays where it is, the
 * template comment between two entries included. OMC's reading of the result is the edited reading.
 */
function spliceEntry(file: string, m: MappedSection, hit: IndexedEntry, body: string): string {
  const r = rawRange(m, hit.bodyAt, hit.bodyAt + hit.body.length);
  if (r) return file.slice(0, r.start) + body + file.slice(r.end);
  // A heading with no text: the text goes on the line after the heading.
  const headingEnd = fileIndex(m, hit.start + `### ${hit.stamp ?? ''}`.length - 1) + 1;
  return file.slice(0, headingEnd) + `\n${body}` + file.slice(headingEnd);
}

/** Deleting an entry from a section holding comments: its heading and text go, the comments around it stay. */
function spliceOutEntry(file: string, m: MappedSection, hit: IndexedEntry): string {
  const last = hit.body === '' ? hit.start + `### ${hit.stamp ?? ''}`.length : hit.bodyAt + hit.body.length;
  const r = rawRange(m, hit.start, last) as { start: number; end: number };
  const end = file[r.end] === '\n' ? r.end + 1 : r.end;
  return file.slice(0, r.start) + file.slice(end);
}

/**
 * The entry the user started from, if it is still there unchanged — found by
 * what it is, wherever OMC or another editor moved it. Exact copies are
 * interchangeable; the same copy is preferred.
 */
function findTarget(entries: IndexedEntry[], ref: EntryRef, used: Set<IndexedEntry> = new Set()): IndexedEntry | null {
  const key = keyOfId(ref.id);
  const same = entries.filter((e) => !used.has(e) && keyOfId(e.id) === key);
  return same.find((e) => e.id === ref.id) ?? same[0] ?? null;
}

const label = (ref: EntryRef) =>
  ref.stamp === null
    ? `the untimed text at the top of ${SECTION_TITLES[ref.section]}`
    : `${SECTION_TITLES[ref.section]} entry ${ref.stamp}`;

/** "deleted Working Memory entry 2026-12-06 03:27: "fix the flaky…"": which one went, by its words too. */
const deletedWords = (ref: EntryRef, raw: string) => `deleted ${label(ref)}: ${firstLineQuoted(raw)}`;

/**
 * The target is not on disk as the user saw it. It "changed" only when
 * exactly one entry with its stamp is new since they started (none of its
 * siblings then): never guess between several, never name another entry.
 */
function lostTarget(entries: IndexedEntry[], ref: EntryRef): ApplyResult {
  const siblings = new Set(ref.siblings ?? []);
  const candidates = entries.filter((e) => e.stamp === ref.stamp && !siblings.has(e.id));
  const moved = candidates.length === 1 ? candidates[0] : undefined;
  if (moved) {
    return {
      ok: false,
      kind: 'conflict',
      reason: 'changed',
      message: `${label(ref)} was changed on disk (by OMC or another editor) after you started; nothing was written`,
      disk: moved.raw,
    };
  }
  return {
    ok: false,
    kind: 'conflict',
    reason: 'gone',
    message: `${label(ref)} is no longer in notepad.md (deleted or pruned after you started); nothing was written`,
  };
}

/** Working/MANUAL section text → the content OMC's appender would pass to its replace. */
function asAppended(sectionText: string): string {
  const t = sectionText.trim();
  return t === '' ? '' : `${t}\n`;
}

function refuse(message: string): ApplyResult {
  return { ok: false, kind: 'refused', reason: 'refused', message };
}

/** Why this file cannot take an edit of `section`, or null. */
export function sectionProblem(text: string, section: SectionId): string | null {
  if (locateSection(text, section)) return null;
  if (text.includes(`${HEADERS[section]}\r\n`)) {
    return "notepad.md has Windows (CRLF) line endings: OMC's reader finds no sections in it, so an edit would be invisible to OMC. Convert it to LF first (e.g. dos2unix .omc/notepad.md)";
  }
  return `notepad.md has no "${HEADERS[section]}" line: OMC would silently drop anything written to that section. Add the header line back (or move the file away so OMC recreates it)`;
}

export function applyOp(current: string | null, rawOp: NotepadOp, now: number): ApplyResult {
  const { op, verdict } = checkOp(rawOp);
  if (!verdict.ok) return refuse(verdict.error ?? 'refused');
  const creating = current === null;
  if (creating && (op.kind === 'edit' || op.kind === 'delete')) {
    return {
      ok: false,
      kind: 'conflict',
      reason: 'gone',
      message: `notepad.md no longer exists (${label(op.target)} went with it); nothing was written`,
    };
  }
  if (creating && op.kind === 'prune') return refuse('notepad.md no longer exists: nothing to prune');
  const file = current ?? NOTEPAD_TEMPLATE;
  const section: SectionId =
    op.kind === 'add'
      ? op.section
      : op.kind === 'priority'
        ? 'priority'
        : op.kind === 'prune'
          ? 'working'
          : op.target.section;
  const problem = sectionProblem(file, section);
  const mapped = mapSection(file, section);
  if (problem || !mapped) return refuse(problem ?? 'no such section');
  const text = mapped.text;
  // Comments past the section's start are the user's text, kept byte for byte (OMC's reader never sees them).
  const comments = hasCommentPastStart(mapped);

  switch (op.kind) {
    case 'add': {
      const stamp = entryStamp(now);
      const entry = `### ${stamp}\n${op.body}\n`;
      // With comments past the section's start, the entry goes right after the last text, and nothing else moves
      // (OMC's appender would rewrite the section from its reading, deleting them).
      const end = comments ? rawRange(mapped, 0, text.length)?.end : undefined;
      return {
        ok: true,
        text:
          end !== undefined
            ? file.slice(0, end) + `\n${entry.slice(0, -1)}` + file.slice(end)
            : replaceSection(file, section, text ? `${text}\n${entry}` : entry),
        summary: `added ${SECTION_TITLES[op.section]} entry ${stamp}`,
      };
    }
    case 'edit': {
      const entries = indexEntries(file, mapped);
      const hit = findTarget(entries, op.target);
      if (!hit) return lostTarget(entries, op.target);
      if (op.target.raw !== undefined && hit.raw !== op.target.raw) {
        return {
          ok: false,
          kind: 'conflict',
          reason: 'changed',
          message: `${label(op.target)} was changed on disk (by OMC or another editor) after you started; nothing was written`,
          disk: hit.raw,
        };
      }
      if (op.body === hit.raw) return { ok: true, text: file, summary: `no change to ${label(op.target)}` };
      if (comments)
        return { ok: true, text: spliceEntry(file, mapped, hit, op.body), summary: `saved ${label(op.target)}` };
      const span = text.slice(hit.start, hit.end);
      const sep = /\s*$/.exec(span)?.[0] ?? '';
      const head = hit.stamp === null ? '' : `### ${hit.stamp}\n`;
      const sepOut = hit.end < text.length ? (sep.includes('\n') ? sep : '\n') : '';
      const next = text.slice(0, hit.start) + head + op.body + sepOut + text.slice(hit.end);
      const written = spliceSection(file, section, text, next) ?? replaceSection(file, section, asAppended(next));
      return { ok: true, text: written, summary: `saved ${label(op.target)}` };
    }
    case 'delete': {
      const entries = indexEntries(file, mapped);
      const hit = findTarget(entries, op.target);
      if (!hit) return lostTarget(entries, op.target);
      if (comments)
        return { ok: true, text: spliceOutEntry(file, mapped, hit), summary: deletedWords(op.target, hit.raw) };
      const next = text.slice(0, hit.start) + text.slice(hit.end);
      return {
        ok: true,
        text: replaceSection(file, section, asAppended(next)),
        summary: deletedWords(op.target, hit.raw),
      };
    }
    case 'priority': {
      const range = rawRange(mapped, 0, text.length);
      const raw = range ? file.slice(range.start, range.end) : '';
      if (text !== op.base || (op.baseRaw !== undefined && raw !== op.baseRaw)) {
        return {
          ok: false,
          kind: 'conflict',
          reason: 'changed',
          message:
            'Priority Context was changed on disk (by OMC or another editor) after you started; nothing was written',
          disk: raw,
        };
      }
      if (op.text === raw) return { ok: true, text: file, summary: 'no change to Priority Context' };
      return {
        ok: true,
        text:
          comments && range
            ? file.slice(0, range.start) + op.text + file.slice(range.end)
            : replaceSection(file, 'priority', op.text),
        summary: op.text === '' ? 'cleared Priority Context' : 'saved Priority Context',
        warning: verdict.warning,
      };
    }
    case 'prune': {
      const entries = indexEntries(file, mapped);
      const used = new Set<IndexedEntry>();
      for (const t of op.targets) {
        const hit = findTarget(entries, t, used);
        if (hit && hit.stamp !== null) used.add(hit);
      }
      const skipped = op.targets.length - used.size;
      if (used.size === 0) return refuse('none of those entries is in notepad.md any more: nothing to prune');
      // OMC's prune rebuilds the section from the kept entries joined by a blank
      // line. Unlike OMC, text before the first entry (which OMC never writes)
      // is kept instead of being discarded.
      const kept = entries
        .filter((e) => !used.has(e))
        .map((e) => (e.stamp === null ? e.body.trim() : `### ${e.stamp}\n${e.body.trim()}`));
      // A target gone from the file is not "kept": those left alone are said as what they are, not pruned.
      const note =
        skipped === 0
          ? ''
          : `; ${skipped} ${skipped === 1 ? 'was' : 'were'} not pruned (changed on disk since, or gone already)`;
      // With comments in the section, the pruned entries are cut out one by one (last first, so the offsets of
      // the earlier ones hold) and every comment stays, as a delete keeps them; OMC's rebuild would drop them.
      const pruned = comments
        ? [...used].sort((a, b) => b.start - a.start).reduce((t, e) => spliceOutEntry(t, mapped, e), file)
        : replaceSection(file, 'working', kept.join('\n\n'));
      return {
        ok: true,
        text: pruned,
        summary: `pruned ${used.size} Working Memory ${used.size === 1 ? 'entry' : 'entries'}, ${entries.length - used.size} kept${note}`,
      };
    }
  }
}
