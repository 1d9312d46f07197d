/**
 * The project-memory pane: the user directives as OMC ranks them (high shown
 * as critical, normal as note) with context, source, age and whether they
 * make it into the next session start; add, edit, change priority and remove
 * from the keyboard; a compact project summary; and the exact SessionStart
 * injection (v).
 */
import { readonlyRefusal } from '../../io/readonly-words.js';
import { rootWriteBlock } from '../../ui/not-known.js';
import type { Binding } from '../../kit/bindings.js';
import { ageTickMs } from '../../ui/format.js';
import type { KeyContext, PaneModule } from '../../kit/pane.js';
import { confirmRemove, submitForm, togglePriorityOf } from './actions.js';
import { previewLines, visibleDirectives } from './layout.js';
import { memoryListLayout } from './list-layout.js';
import { filterBindings, filterStartBindings, mode, navBindings, scrollDelta } from '../../kit/nav.js';
import {
  backspaceFilter,
  clearFilter,
  closeForm,
  closePreview,
  editField,
  endFilter,
  formDirty,
  initMemoryPane,
  moveSelection,
  settleMemoryList,
  nextField,
  openAddForm,
  openEditForm,
  dropOffer,
  restoreOffer,
  withOffer,
  openPreview,
  scrollPreview,
  selectedIndex,
  startFilter,
  togglePriority,
  typeFilter,
  type MemoryPaneState,
} from './reducer.js';
import * as tf from './text-field.js';
import { MemoryPaneView } from './view.js';
import { OFFER_PENDING, offerBindings, offerFor, offerMode } from '../../kit/kept-drafts.js';
import { draftToKeep, formFromKept, KEPT_LIMITS, KEPT_TARGET, landedIn } from './kept.js';
import { countWord } from '../../io/count-words.js';

type Ctx = KeyContext<MemoryPaneState>;
type S = MemoryPaneState;

const FORM = mode<S>('form', (s) => s.form !== null);
const OFFER = offerMode<S>(
  (s) => s.form !== null,
  (s) => s.offer,
);
const FIELD = mode<S>('form', (s) => s.form !== null && s.form.field !== 'priority');
const PRIO_FIELD = mode<S>('form', (s) => s.form !== null && s.form.field === 'priority');
const FILTER = mode<S>('typing a filter', (s) => s.form === null && s.filterEditing);
const PREVIEW = mode<S>('SessionStart preview', (s) => s.form === null && !s.filterEditing && s.view === 'preview');
const LIST = mode<S>('directives', (s) => s.form === null && !s.filterEditing && s.view !== 'preview');

const modelOf = (ctx: Ctx) => ctx.store.memory.model(ctx.app.now()) ?? null;
const listOf = (ctx: Ctx) => {
  const model = modelOf(ctx);
  return model ? memoryListLayout(ctx.state, model, ctx.body, ctx.app.now()) : null;
};
const selectedRow = (ctx: Ctx) => {
  const model = modelOf(ctx);
  if (!model) return undefined;
  const rows = visibleDirectives(model, ctx.state.filter, ctx.app.now());
  return rows[
    selectedIndex(
      ctx.state,
      rows.map((r) => r.key),
    )
  ];
};
/** The root unreadable first (every pane's write keys say it alike: ui/not-known.ts), then the file's own block. */
const writeBlock = (ctx: Ctx) => {
  const root = rootWriteBlock(ctx.store);
  if (root) return root;
  const b = ctx.store.memory.getSnapshot().writeBlock;
  return b ? `cannot write: ${b}` : null;
};
const needsRow = (ctx: Ctx) =>
  rootWriteBlock(ctx.store) ?? (selectedRow(ctx) ? writeBlock(ctx) : 'no directive selected');
/** Under a root that cannot be read the writing keys are not offered; pressed, they say why nothing is written. */
const rootReadable = (ctx: Ctx) => rootWriteBlock(ctx.store) === null;
/** e, p and d act on the selected directive: not offered while none is (no directives, a filter matching none). */
const rowWritable = (ctx: Ctx) => rootReadable(ctx) && selectedRow(ctx) !== undefined;
type Row = NonNullable<ReturnType<typeof selectedRow>>;
/** A key that acts on the selected directive (nothing when none is). */
const onRow = (f: (ctx: Ctx, row: Row) => void) => (ctx: Ctx) => {
  const row = selectedRow(ctx);
  if (row) f(ctx, row);
};
const CANNOT_CHANGE = readonlyRefusal('changing a directive');
/** A key that changes the form: held while a kept draft is offered (r or d first). */
const unlessOffer = (run: (ctx: Ctx) => void) => (ctx: Ctx) => {
  if (ctx.state.offer) ctx.app.flash(OFFER_PENDING, 'info');
  else run(ctx);
};
const field = (fn: (f: tf.TextField) => tf.TextField) => unlessOffer((ctx) => ctx.set((s) => editField(s, fn)));
/** a / e: the form, with the directive draft kept at the last hang-up offered before anything is typed. */
const openForm = (ctx: Ctx, open: (s: S) => S) => {
  const model = ctx.store.memory.model(ctx.app.now());
  const offer = offerFor(ctx.store.drafts, KEPT_TARGET, KEPT_LIMITS, formFromKept, (f, keptAt) =>
    landedIn(f, model, keptAt),
  );
  ctx.set((s) => withOffer(open(s), offer));
};
const move = (ctx: Ctx, to: Parameters<typeof moveSelection>[2]) => {
  const l = listOf(ctx);
  if (l) ctx.set((s) => moveSelection(s, l.keys, to, l.height));
};

function escapeForm(ctx: Ctx): void {
  const form = ctx.state.form;
  if (!form) return;
  if (!formDirty(form)) ctx.set(closeForm);
  else {
    ctx.app.confirm({
      id: 'directive-discard',
      title: 'Discard this draft?',
      lines: ['Nothing has been written to project-memory.json yet.'],
      prompt: 'y: discard    n / Esc: keep editing',
      onConfirm: () => ctx.set(closeForm),
    });
  }
}

const bindings: Binding<S>[] = [
  ...offerBindings(OFFER, (s) => s.offer, { restore: (c) => c.set(restoreOffer), drop: dropOffer }),
  { keys: ['enter'], help: 'save the directive', hint: 'save', when: FORM, writes: true, run: unlessOffer(submitForm) },
  { keys: ['escape'], help: 'cancel (asks if you typed something)', hint: 'cancel', when: FORM, run: escapeForm },
  { keys: ['tab', 'down'], help: 'next field', hint: 'field', when: FORM, run: (c) => c.set((s) => nextField(s, 1)) },
  { keys: ['backtab', 'up'], help: 'previous field', when: FORM, run: (c) => c.set((s) => nextField(s, -1)) },
  { keys: ['ctrl+p'], help: 'switch priority', when: FORM, run: unlessOffer((c) => c.set(togglePriority)) },
  {
    keys: [' ', 'left', 'right', 'h', 'l'],
    help: 'on the priority field: switch high ↔ normal',
    when: PRIO_FIELD,
    run: unlessOffer((c) => c.set(togglePriority)),
  },
  { keys: ['backspace'], help: 'erase before the cursor', when: FIELD, run: field(tf.backspace) },
  { keys: ['delete', 'ctrl+d'], help: 'erase under the cursor', when: FIELD, run: field(tf.del) },
  { keys: ['left', 'ctrl+b'], help: 'cursor left', when: FIELD, run: field(tf.left) },
  { keys: ['right', 'ctrl+f'], help: 'cursor right', when: FIELD, run: field(tf.right) },
  { keys: ['home', 'ctrl+a'], help: 'start of the field', when: FIELD, run: field(tf.home) },
  { keys: ['end', 'ctrl+e'], help: 'end of the field', when: FIELD, run: field(tf.end) },
  { keys: ['ctrl+u'], help: 'delete to the start', when: FIELD, run: field(tf.killToStart) },
  { keys: ['ctrl+w'], help: 'delete the word before the cursor', when: FIELD, run: field(tf.deleteWord) },
  ...filterBindings(FILTER, {
    keep: endFilter,
    clear: clearFilter,
    backspace: backspaceFilter,
    move,
  }),
  ...navBindings(
    PREVIEW,
    'scroll',
    (ctx, to) => {
      const model = modelOf(ctx);
      const total = model ? previewLines(model, ctx.body.columns - 1).length : 0;
      const h = ctx.body.rows;
      ctx.set((s) => scrollPreview(s, scrollDelta(to, h), total, h));
    },
    { hint: false },
  ),
  {
    keys: ['escape', 'v', 'backspace', 'left', 'h'],
    help: 'back to the directives',
    hint: 'back',
    when: PREVIEW,
    run: (c) => c.set(closePreview),
  },
  ...navBindings(LIST, 'directives (ranked as SessionStart ranks them: critical first, then newest)', move, {
    place: (ctx) => {
      const l = listOf(ctx);
      // The count line, the filter line when shown, the column titles, then the rows (view.tsx).
      const showFilter = ctx.state.filterEditing || ctx.state.filter !== '';
      return l ? { firstRow: (showFilter ? 1 : 0) + 2, view: l.view, height: l.height, total: l.keys.length } : null;
    },
  }),
  {
    keys: ['a'],
    help: 'add a directive (≤ 500 characters; OMC de-duplicates ignoring case and keeps 20: you are asked before one is pushed out)',
    hint: 'add',
    when: LIST,
    writes: true,
    readonlyText: readonlyRefusal('adding a directive'),
    disabled: writeBlock,
    offered: rootReadable,
    run: (c) => openForm(c, openAddForm),
  },
  {
    keys: ['e', 'enter'],
    help: 'edit the selected directive (text, context, priority)',
    hint: 'edit',
    when: LIST,
    writes: true,
    readonlyText: readonlyRefusal('editing a directive'),
    disabled: needsRow,
    offered: rowWritable,
    run: onRow((c, sel) => openForm(c, (s) => openEditForm(s, sel.key, sel.directive))),
  },
  {
    keys: ['p'],
    help: 'switch priority: high (shown as critical) ↔ normal (shown as note)',
    hint: 'priority',
    when: LIST,
    writes: true,
    readonlyText: CANNOT_CHANGE,
    disabled: needsRow,
    offered: rowWritable,
    run: onRow(togglePriorityOf),
  },
  {
    keys: ['d', 'delete'],
    help: 'remove the selected directive (asks first; OMC has no remove tool, omc-top rewrites the file under its lock)',
    hint: 'remove',
    when: LIST,
    writes: true,
    readonlyText: CANNOT_CHANGE,
    disabled: needsRow,
    offered: rowWritable,
    run: onRow(confirmRemove),
  },
  {
    keys: ['v'],
    help: 'preview exactly what the next session start injects (650-character summary)',
    hint: 'preview',
    when: LIST,
    run: (c) => c.set(openPreview),
  },
  ...filterStartBindings(
    LIST,
    'filter directives by the words their rows show (priority, text, source, age, start) or their context',
    {
      start: startFilter,
      clear: clearFilter,
      filtered: (s) => s.filter !== '',
    },
  ),
];

export const memoryPane: PaneModule<MemoryPaneState> = {
  id: 'memory',
  title: 'Memory',
  hotkey: 'm',
  init: initMemoryPane,
  bindings,
  typing: {
    active: (s) => s.form !== null || s.filterEditing,
    type: (ctx, text) => {
      if (ctx.state.form) {
        if (ctx.state.offer) ctx.app.flash(OFFER_PENDING, 'info');
        else if (ctx.state.form.field !== 'priority') ctx.set((s) => editField(s, (f) => tf.insert(f, text)));
      } else ctx.set((s) => typeFilter(s, text));
    },
  },
  sources: (store) => {
    const d = store.memory;
    return d ? [d.subscribe] : [];
  },
  settle(state, store, body, now) {
    const model = state.form || state.view === 'preview' ? null : store.memory.model(now);
    if (!model) return state;
    const l = memoryListLayout(state, model, body, now);
    return settleMemoryList(state, l.keys, l.height);
  },
  View: MemoryPaneView,
  // Ctrl-C or q (from another pane) asks before a directive being written is thrown away, as the notepad does.
  unsaved: (s) =>
    s.form && formDirty(s.form)
      ? `${s.form.mode === 'add' ? 'a new directive' : 'changes to a directive'} not saved (${countWord(s.form.directive.text.length, 'character')})`
      : null,
  keptDraft: (s) => (s.form ? draftToKeep(s.form) : null),
  nextTick(_state, store, now) {
    const model = store.memory.model(now);
    let next = 60_000 - (now % 60_000);
    for (const r of model?.directives ?? []) next = Math.min(next, ageTickMs(r.directive.timestamp, now));
    return next;
  },
};
