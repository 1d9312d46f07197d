/**
 * The notepad editor's draft kept at a hang-up (kit/kept-drafts.ts): one file per section and hang-up, holding the text and
 * what the editor was on (a new entry, an entry as it was when editing began, the Priority text it began from).
 * Restored, the editor stands where it stood: a save goes through the same lock and merge rules as ever (an entry
 * changed on disk meanwhile is a conflict, never written over).
 */
import { isObj, type Obj } from '../../io/json.js';
import type { DraftToKeep } from '../../kit/pane.js';
import { cutTo, type KeptDraft } from '../../store/drafts/draft-file.js';
import type { EntryRef } from '../../store/notepad/edits.js';
import { entryStamp, LIMITS, SECTION_TITLES, type EntrySection, type SectionId } from '../../store/notepad/format.js';
import type { NotepadSnapshot } from '../../store/notepad/model.js';
import { normalizeDraft } from '../../store/notepad/validate.js';
import type { KeptDrafts } from '../../store/drafts/kept-drafts.js';
import { LANDED_WITHIN_MS, offerFor, type DraftOffer } from '../../kit/kept-drafts.js';
import { bufferOf } from './editor.js';
import { isDirty, type EditorSession } from './reducer.js';

export const keptTarget = (section: SectionId) => `notepad-${section}`;

/** Comments the text began with are the user's and count for nothing in OMC's limit (store/notepad/validate.ts). */
const commentChars = (text: string) => text.length - text.replace(/<!--[\s\S]*?-->/g, '').length;

/** The field's own limit for this editor, in the raw text it holds: OMC's limit plus the comments it began with. */
export function textLimit(section: SectionId, initial: string): number {
  return (section === 'priority' ? LIMITS.priorityMax : LIMITS.entryMax) + commentChars(initial);
}

/** No cut on reading before the item is known: restore cuts to the limit its own beginning gives. */
export const KEPT_READ_LIMITS = { text: Number.MAX_SAFE_INTEGER };

export function draftToKeep(ed: EditorSession): DraftToKeep | null {
  if (!isDirty(ed)) return null;
  const what = ed.kind === 'priority' ? 'Priority Context' : SECTION_TITLES[ed.section];
  return {
    target: keptTarget(ed.section),
    label: `${what} draft (notepad)`,
    offeredAt:
      ed.kind === 'priority' ? 'editing Priority Context (n, 1, i)' : `opening an editor on ${what} (n, then a or i)`,
    item: {
      kind: ed.kind,
      section: ed.section,
      target: ed.target ? { ...ed.target } : null,
      basePriority: ed.basePriority,
      basePriorityRaw: ed.basePriorityRaw,
      initial: ed.initial,
    },
    fields: { text: ed.buf.text },
    limits: { text: textLimit(ed.section, ed.initial) },
  };
}

const isStr = (v: unknown): v is string => typeof v === 'string';

function entryRefOf(v: unknown, section: SectionId): EntryRef | string {
  if (!isObj(v)) return 'its entry is not an object';
  if (v.section !== section) return `its entry is of ${JSON.stringify(v.section)}, not ${section}`;
  if (!isStr(v.id) || !isStr(v.body) || !(v.stamp === null || isStr(v.stamp)))
    return 'its entry lacks an id, a stamp or a text';
  if (v.raw !== undefined && !isStr(v.raw)) return "its entry's raw text is not text";
  if (v.siblings !== undefined && !(Array.isArray(v.siblings) && v.siblings.every(isStr)))
    return "its entry's siblings are not a list of ids";
  return {
    section: section as EntrySection,
    id: v.id,
    stamp: v.stamp,
    body: v.body,
    ...(v.raw !== undefined ? { raw: v.raw } : {}),
    ...(v.siblings !== undefined ? { siblings: v.siblings as string[] } : {}),
  };
}

/**
 * The editor as the draft left it (`section` is the file's own), or why the file's item cannot be used. The base
 * revision is unknown after a restart: a save then never says "merged" (the merge itself is by content).
 */
export function editorFromKept(d: KeptDraft, section: SectionId): EditorSession | string {
  const it: Obj = d.item;
  const kind = it.kind;
  if (kind !== 'add' && kind !== 'edit' && kind !== 'priority') return `its editor kind is ${JSON.stringify(kind)}`;
  if (it.section !== section) return `it is for ${JSON.stringify(it.section)}, not ${section}`;
  if ((kind === 'priority') !== (section === 'priority')) return `a ${kind} draft cannot be in ${section}`;
  if (!isStr(it.basePriority) || !isStr(it.basePriorityRaw) || !isStr(it.initial))
    return 'its starting text is missing';
  let target: EntryRef | null = null;
  if (kind === 'edit') {
    const ref = entryRefOf(it.target, section);
    if (typeof ref === 'string') return ref;
    target = ref;
  }
  return {
    kind,
    section,
    target,
    basePriority: it.basePriority,
    basePriorityRaw: it.basePriorityRaw,
    baseRevision: null,
    buf: bufferOf(cutTo(d.fields.text ?? '', textLimit(section, it.initial))),
    initial: it.initial,
    conflict: null,
    saving: false,
  };
}

/**
 * Where the draft's text already is in the notepad, or null: a hang-up during its save keeps the draft even when
 * the save went through, and restoring it then would add the entry twice (or find its edited entry gone and offer
 * to add it as new). Judged by OMC's reading of the text, as merges are, and only in an entry that save could have
 * written: an edit keeps its entry's stamp, an add stamps its entry at its own moment. An older entry that happens
 * to say the same is not this draft's save.
 */
export function landedIn(ed: EditorSession, snap: NotepadSnapshot, keptAt: number): string | null {
  const text = normalizeDraft(ed.buf.text);
  if (text === '' || text === normalizeDraft(ed.initial)) return null;
  if (ed.kind === 'priority')
    return normalizeDraft(snap.sections.priority.raw) === text ? 'it is Priority Context in notepad.md now' : null;
  const since = entryStamp(keptAt - LANDED_WITHIN_MS);
  const written = (stamp: string | null) =>
    ed.kind === 'edit' ? stamp === (ed.target?.stamp ?? null) : stamp !== null && stamp >= since;
  const there = snap.sections[ed.section].entries.find((e) => normalizeDraft(e.raw) === text && written(e.stamp));
  if (!there) return null;
  return `it is in notepad.md as the ${SECTION_TITLES[ed.section]} entry ${there.stamp ?? '(untimed text)'}`;
}

/** The offer an editor opening on `section` shows (a, i, e, A alike), or null when nothing is kept for it. */
export function notepadOffer(
  drafts: KeptDrafts,
  section: SectionId,
  snap: NotepadSnapshot,
): DraftOffer<EditorSession> | null {
  return offerFor(
    drafts,
    keptTarget(section),
    KEPT_READ_LIMITS,
    (d) => editorFromKept(d, section),
    (ed, keptAt) => landedIn(ed, snap, keptAt),
  );
}
