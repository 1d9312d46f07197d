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
  entryStamp,
  locateSection,
  readSection,
  replaceSection,
  spliceSection,
  splitEntries,
  type EntrySection,
  type RawEntry,
  type SectionId,
} from './format.js';
import { keyOfId, withEntryIds } from './identity.js';
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
}

export type NotepadOp =
  | { kind: 'add'; section: EntrySection; body: string }
  | { kind: 'edit'; target: EntryRef; body: string }
  | { kind: 'delete'; target: EntryRef }
  /** `base` is OMC's reading of Priority Context when editing started. */
  | { kind: 'priority'; text: string; base: string }
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
      return { op: { ...op, body }, verdict: validateEntry(op.target.section, body) };
    }
    case 'priority': {
      const text = normalizeDraft(op.text);
      return { op: { ...op, text }, verdict: validatePriority(text) };
    }
    default:
      return { op, verdict: { ok: true } };
  }
}

interface IndexedEntry extends RawEntry {
  id: string;
}

const indexEntries = (section: string): IndexedEntry[] => withEntryIds(splitEntries(section));

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
      disk: moved.body,
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
  if (problem) return refuse(problem);
  const text = readSection(file, section) ?? '';

  switch (op.kind) {
    case 'add': {
      const stamp = entryStamp(now);
      const entry = `### ${stamp}\n${op.body}\n`;
      return {
        ok: true,
        text: replaceSection(file, section, text ? `${text}\n${entry}` : entry),
        summary: `added ${SECTION_TITLES[op.section]} entry ${stamp}`,
      };
    }
    case 'edit': {
      const entries = indexEntries(text);
      const hit = findTarget(entries, op.target);
      if (!hit) return lostTarget(entries, op.target);
      if (op.body === hit.body) return { ok: true, text: file, summary: `no change to ${label(op.target)}` };
      const span = text.slice(hit.start, hit.end);
      const sep = /\s*$/.exec(span)?.[0] ?? '';
      const head = hit.stamp === null ? '' : `### ${hit.stamp}\n`;
      const sepOut = hit.end < text.length ? (sep.includes('\n') ? sep : '\n') : '';
      const next = text.slice(0, hit.start) + head + op.body + sepOut + text.slice(hit.end);
      const written = spliceSection(file, section, text, next) ?? replaceSection(file, section, asAppended(next));
      return { ok: true, text: written, summary: `saved ${label(op.target)}` };
    }
    case 'delete': {
      const entries = indexEntries(text);
      const hit = findTarget(entries, op.target);
      if (!hit) return lostTarget(entries, op.target);
      const next = text.slice(0, hit.start) + text.slice(hit.end);
      return {
        ok: true,
        text: replaceSection(file, section, asAppended(next)),
        summary: `deleted ${label(op.target)}`,
      };
    }
    case 'priority': {
      if (text !== op.base) {
        return {
          ok: false,
          kind: 'conflict',
          reason: 'changed',
          message:
            'Priority Context was changed on disk (by OMC or another editor) after you started; nothing was written',
          disk: text,
        };
      }
      if (op.text === text) return { ok: true, text: file, summary: 'no change to Priority Context' };
      return {
        ok: true,
        text: replaceSection(file, 'priority', op.text),
        summary: op.text === '' ? 'cleared Priority Context' : 'saved Priority Context',
        warning: verdict.warning,
      };
    }
    case 'prune': {
      const entries = indexEntries(text);
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
      const note = skipped > 0 ? `; ${skipped} had changed or were already gone and were kept` : '';
      return {
        ok: true,
        text: replaceSection(file, 'working', kept.join('\n\n')),
        summary: `pruned ${used.size} Working Memory ${used.size === 1 ? 'entry' : 'entries'}, ${entries.length - used.size} kept${note}`,
      };
    }
  }
}
