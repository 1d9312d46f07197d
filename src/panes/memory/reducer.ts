/**
 * Memory pane state and its pure transitions: the directive list (selection
 * kept by directive identity), the add/edit form, the injection preview.
 */
import type { Directive } from '../../store/memory/schema.js';
import { initList, listView, maxScroll, moveList, settleList, type ListState, type Move } from '../../kit/list.js';
import * as tf from './text-field.js';
import type { DraftOffer } from '../../kit/kept-drafts.js';

export type FormField = 'directive' | 'context' | 'priority';

export interface DirectiveForm {
  mode: 'add' | 'edit';
  /** The directive being edited (its key), null when adding. */
  target: string | null;
  field: FormField;
  directive: tf.TextField;
  context: tf.TextField;
  priority: 'high' | 'normal';
  /** What it started as, to know whether Esc discards anything. */
  initial: { directive: string; context: string; priority: 'high' | 'normal' };
}

export interface MemoryPaneState {
  view: 'list' | 'preview';
  /** The selected directive (by key) and the list's scroll window. */
  list: ListState;
  filter: string;
  filterEditing: boolean;
  form: DirectiveForm | null;
  /**
   * A directive draft kept when omc-top was last ended without asking (kit/kept-drafts.ts), offered above the form
   * that just opened: Ctrl-R restores it, Ctrl-X discards it; nothing is typed until one or the other (or Esc).
   */
  offer: DraftOffer<DirectiveForm> | null;
  previewScroll: number;
}

export const initMemoryPane = (): MemoryPaneState => ({
  view: 'list',
  list: initList(),
  filter: '',
  filterEditing: false,
  form: null,
  offer: null,
  previewScroll: 0,
});

export function selectedIndex(s: MemoryPaneState, keys: readonly string[]): number {
  return listView(s.list, keys, Number.MAX_SAFE_INTEGER).index;
}

export function moveSelection(s: MemoryPaneState, keys: readonly string[], to: Move, height: number): MemoryPaneState {
  const list = moveList(s.list, keys, to, height);
  return list === s.list ? s : { ...s, list };
}
export const select = (s: MemoryPaneState, key: string | null): MemoryPaneState => ({
  ...s,
  list: { ...s.list, id: key },
});
export function settleMemoryList(s: MemoryPaneState, keys: readonly string[], height: number): MemoryPaneState {
  const list = settleList(s.list, keys, height);
  return list === s.list ? s : { ...s, list };
}

export const startFilter = (s: MemoryPaneState): MemoryPaneState => ({ ...s, filterEditing: true });
export const typeFilter = (s: MemoryPaneState, t: string): MemoryPaneState => ({
  ...s,
  filter: s.filter + t.replace(/\s+/g, ' '),
});
export const backspaceFilter = (s: MemoryPaneState): MemoryPaneState => ({
  ...s,
  filter: Array.from(s.filter).slice(0, -1).join(''),
});
export const endFilter = (s: MemoryPaneState): MemoryPaneState => ({ ...s, filterEditing: false });
export const clearFilter = (s: MemoryPaneState): MemoryPaneState => ({
  ...s,
  filter: '',
  filterEditing: false,
});

export function openAddForm(s: MemoryPaneState): MemoryPaneState {
  return {
    ...s,
    view: 'list',
    offer: null,
    form: {
      mode: 'add',
      target: null,
      field: 'directive',
      directive: tf.field(),
      context: tf.field(),
      priority: 'normal',
      initial: { directive: '', context: '', priority: 'normal' },
    },
  };
}

export function openEditForm(s: MemoryPaneState, key: string, d: Directive): MemoryPaneState {
  return {
    ...s,
    view: 'list',
    offer: null,
    list: { ...s.list, id: key },
    form: {
      mode: 'edit',
      target: key,
      field: 'directive',
      directive: tf.field(d.directive),
      context: tf.field(d.context),
      priority: d.priority,
      initial: { directive: d.directive, context: d.context, priority: d.priority },
    },
  };
}

export const closeForm = (s: MemoryPaneState): MemoryPaneState => ({ ...s, form: null, offer: null });

/** Shows `offer` above the form just opened (null: none kept). */
export const withOffer = (s: MemoryPaneState, offer: DraftOffer<DirectiveForm> | null): MemoryPaneState =>
  offer === s.offer ? s : { ...s, offer };

/** r: the kept draft's form replaces the fresh one (unsaved; an edit selects its directive). */
export function restoreOffer(s: MemoryPaneState): MemoryPaneState {
  const o = s.offer;
  if (o?.kind !== 'draft') return s;
  const list = o.restore.target !== null ? { ...s.list, id: o.restore.target } : s.list;
  return { ...s, form: o.restore, offer: null, list };
}

export const dropOffer = (s: MemoryPaneState): MemoryPaneState => ({ ...s, offer: null });

export function formDirty(f: DirectiveForm): boolean {
  return (
    f.directive.text !== f.initial.directive ||
    f.context.text !== f.initial.context ||
    f.priority !== f.initial.priority
  );
}

const FIELDS: FormField[] = ['directive', 'context', 'priority'];
export function nextField(s: MemoryPaneState, delta: 1 | -1): MemoryPaneState {
  if (!s.form) return s;
  const i = FIELDS.indexOf(s.form.field);
  return { ...s, form: { ...s.form, field: FIELDS[(i + delta + FIELDS.length) % FIELDS.length] as FormField } };
}

export function togglePriority(s: MemoryPaneState): MemoryPaneState {
  if (!s.form || s.offer) return s;
  return { ...s, form: { ...s.form, priority: s.form.priority === 'high' ? 'normal' : 'high' } };
}

/** Applies a text-field edit to the focused text field (no-op on the priority field). */
export function editField(s: MemoryPaneState, fn: (f: tf.TextField) => tf.TextField): MemoryPaneState {
  const form = s.form;
  // Nothing is typed over an offered draft: the form stays clean, so a hang-up now keeps that draft's file.
  if (!form || form.field === 'priority' || s.offer) return s;
  return { ...s, form: { ...form, [form.field]: fn(form[form.field]) } };
}

export const openPreview = (s: MemoryPaneState): MemoryPaneState => ({ ...s, view: 'preview', previewScroll: 0 });
export const closePreview = (s: MemoryPaneState): MemoryPaneState => ({ ...s, view: 'list' });
export function scrollPreview(s: MemoryPaneState, delta: number, total: number, height: number): MemoryPaneState {
  const max = maxScroll(total, height);
  return { ...s, previewScroll: Math.max(0, Math.min(max, s.previewScroll + delta)) };
}
