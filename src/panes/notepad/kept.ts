/**
 * The notepad editor's draft kept at a hang-up (kit/kept-drafts.ts): one file per section, holding the text and
 * what the editor was on (a new entry, an entry as it was when editing began, the Priority text it began from).
 * Restored, the editor stands where it stood: a save goes through the same lock and merge rules as ever (an entry
 * changed on disk meanwhile is a conflict, never written over).
 */
import { isObj, type Obj } from '../../io/json.js';
import type { DraftToKeep } from '../../kit/pane.js';
import { cutTo, type KeptDraft } from '../../store/drafts/draft-file.js';
import type { EntryRef } from '../../store/notepad/edits.js';
import { LIMITS, SECTION_TITLES, type EntrySection, type SectionId } from '../../store/notepad/format.js';
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
