/**
 * The directive form's draft kept at a hang-up (kit/kept-drafts.ts): one file per root and hang-up, holding both fields, the
 * priority and what the form began from (a new directive, or the directive being edited as it was then). Restored,
 * the form stands where it stood: a save merges field by field with the file as always, and a directive gone
 * meanwhile is said, never recreated by itself.
 */
import { isObj } from '../../io/json.js';
import type { DraftToKeep } from '../../kit/pane.js';
import { LANDED_WITHIN_MS } from '../../kit/kept-drafts.js';
import type { KeptDraft } from '../../store/drafts/draft-file.js';
import { CONTEXT_MAX_CHARS, DIRECTIVE_MAX_CHARS } from '../../store/memory/schema.js';
import type { MemoryModel } from '../../store/memory/model.js';
import { parseDirectiveKey } from '../../store/memory/rules.js';
import { formDirty, type DirectiveForm, type FormField } from './reducer.js';
import * as tf from './text-field.js';

export const KEPT_TARGET = 'memory-directive';
export const KEPT_LIMITS = { directive: DIRECTIVE_MAX_CHARS, context: CONTEXT_MAX_CHARS };

export function draftToKeep(form: DirectiveForm): DraftToKeep | null {
  if (!formDirty(form)) return null;
  return {
    target: KEPT_TARGET,
    label: `${form.mode === 'add' ? 'new directive' : 'directive edit'} (project memory)`,
    offeredAt: 'adding or editing a directive (m, then a or e)',
    item: { mode: form.mode, target: form.target, field: form.field, priority: form.priority, initial: form.initial },
    fields: { directive: form.directive.text, context: form.context.text },
    limits: KEPT_LIMITS,
  };
}

const isPriority = (v: unknown): v is 'high' | 'normal' => v === 'high' || v === 'normal';
const FIELDS: readonly FormField[] = ['directive', 'context', 'priority'];

/** The form as the draft left it, or why the file's item cannot be used. */
export function formFromKept(d: KeptDraft): DirectiveForm | string {
  const it = d.item;
  if (it.mode !== 'add' && it.mode !== 'edit') return `its form mode is ${JSON.stringify(it.mode)}`;
  if (it.mode === 'edit' ? typeof it.target !== 'string' : it.target !== null)
    return 'the directive it edits is not named';
  if (!isPriority(it.priority)) return `its priority is ${JSON.stringify(it.priority)}`;
  const init = it.initial;
  if (
    !isObj(init) ||
    typeof init.directive !== 'string' ||
    typeof init.context !== 'string' ||
    !isPriority(init.priority)
  )
    return 'what the form began from is missing';
  return {
    mode: it.mode,
    target: it.mode === 'edit' ? (it.target as string) : null,
    field: FIELDS.includes(it.field as FormField) ? (it.field as FormField) : 'directive',
    directive: tf.field(d.fields.directive ?? ''),
    context: tf.field(d.fields.context ?? ''),
    priority: it.priority,
    initial: { directive: init.directive, context: init.context, priority: init.priority },
  };
}

/**
 * Where the draft already is in project-memory.json, or null: a hang-up during its save keeps the draft even when
 * the save went through, and restoring a new directive then would add it twice. The same directive text and
 * context (as the save trims them) and priority count as there, in a directive that save could have written: an
 * edit keeps its directive's timestamp, an add stamps its own moment, just before the draft was kept.
 */
export function landedIn(form: DirectiveForm, model: MemoryModel | null, keptAt: number): string | null {
  if (!model) return null;
  const directive = form.directive.text.trim();
  const context = form.context.text;
  const priority = form.priority;
  const init = form.initial;
  if (
    directive === '' ||
    (directive === init.directive.trim() && context === init.context && priority === init.priority)
  )
    return null;
  const edited = form.mode === 'edit' && form.target !== null ? parseDirectiveKey(form.target) : null;
  // An edit whose target is no directive key (a kept file written by hand) names no directive it could be in.
  if (form.mode === 'edit' && edited === null) return null;
  const written = (at: number) => (edited !== null ? at === edited.timestamp : at >= keptAt - LANDED_WITHIN_MS);
  const there = model.directives.find(
    (r) =>
      r.directive.directive === directive &&
      r.directive.context === context &&
      r.directive.priority === priority &&
      written(r.directive.timestamp),
  );
  return there ? `it is directive ${there.rank} in project-memory.json` : null;
}
