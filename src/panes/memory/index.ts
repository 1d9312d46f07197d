/**
 * The project-memory pane: the user directives as OMC ranks them (high shown
 * as critical, normal as note) with context, source, age and whether they
 * make it into the next session start; add, edit, change priority and remove
 * from the keyboard; a compact project summary; and the exact SessionStart
 * injection (v).
 */
import { isChar, isCtrl, isKey, type InputEvent } from '../../input/keys.js';
import { ageTickMs } from '../../ui/format.js';
import type { KeyContext, PaneModule } from '../types.js';
import { confirmRemove, submitForm, togglePriorityOf } from './actions.js';
import { previewLines, visibleDirectives } from './layout.js';
import {
  backspaceFilter,
  clearFilter,
  closeForm,
  closePreview,
  editField,
  endFilter,
  formDirty,
  initMemoryPane,
  moveBy,
  nextField,
  openAddForm,
  openEditForm,
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

type Ctx = KeyContext<MemoryPaneState>;
const bodyRows = (ctx: Ctx) =>
  Math.max(
    1,
    ctx.size.rows - 1 - 3 - (ctx.store.problems.getSnapshot().length === 0 ? 0 : ctx.size.rows - 1 >= 20 ? 2 : 1),
  );

function onFormKey(ev: InputEvent, ctx: Ctx): boolean {
  const form = ctx.state.form!;
  const { set } = ctx;
  if (ev.kind === 'paste') {
    if (form.field !== 'priority') set((s) => editField(s, (f) => tf.insert(f, ev.text)));
    return true;
  }
  if (isKey(ev, 'enter')) submitForm(ctx);
  else if (isKey(ev, 'escape')) {
    if (!formDirty(form)) set(closeForm);
    else {
      ctx.app.confirm({
        title: 'Discard this draft?',
        lines: ['Nothing has been written to project-memory.json yet.'],
        prompt: 'y: discard    n / Esc: keep editing',
        onConfirm: () => set(closeForm),
      });
    }
  } else if (isKey(ev, 'tab') || isKey(ev, 'down')) set((s) => nextField(s, 1));
  else if (isKey(ev, 'backtab') || isKey(ev, 'up')) set((s) => nextField(s, -1));
  else if (form.field === 'priority') {
    if (isChar(ev, ' ') || isKey(ev, 'left') || isKey(ev, 'right') || isChar(ev, 'h') || isChar(ev, 'l'))
      set(togglePriority);
  } else if (isKey(ev, 'backspace')) set((s) => editField(s, tf.backspace));
  else if (isKey(ev, 'delete') || isCtrl(ev, 'd')) set((s) => editField(s, tf.del));
  else if (isKey(ev, 'left') || isCtrl(ev, 'b')) set((s) => editField(s, tf.left));
  else if (isKey(ev, 'right') || isCtrl(ev, 'f')) set((s) => editField(s, tf.right));
  else if (isKey(ev, 'home') || isCtrl(ev, 'a')) set((s) => editField(s, tf.home));
  else if (isKey(ev, 'end') || isCtrl(ev, 'e')) set((s) => editField(s, tf.end));
  else if (isCtrl(ev, 'u')) set((s) => editField(s, tf.killToStart));
  else if (isCtrl(ev, 'w')) set((s) => editField(s, tf.deleteWord));
  else if (isCtrl(ev, 'p')) set(togglePriority);
  else if (ev.key.name === 'char' && !ev.key.ctrl && !ev.key.meta)
    set((s) => editField(s, (f) => tf.insert(f, ev.key.ch)));
  // The form is modal: every other key is swallowed so nothing global fires while typing.
  return true;
}

function onKey(ev: InputEvent, ctx: Ctx): boolean {
  const { state, set, store } = ctx;
  const domain = store.memory;
  if (state.form) return onFormKey(ev, ctx);
  const model = domain.model(ctx.app.now());

  if (state.filterEditing) {
    if (ev.kind === 'paste') set((s) => typeFilter(s, ev.text));
    else if (isKey(ev, 'enter')) set(endFilter);
    else if (isKey(ev, 'escape')) set(clearFilter);
    else if (isKey(ev, 'backspace')) set(backspaceFilter);
    else if (ev.key.name === 'char' && !ev.key.ctrl && !ev.key.meta) set((s) => typeFilter(s, ev.key.ch));
    else if ((isKey(ev, 'down') || isKey(ev, 'up')) && model)
      set((s) =>
        moveBy(
          s,
          visibleDirectives(model, s.filter).map((r) => r.key),
          isKey(ev, 'down') ? 1 : -1,
        ),
      );
    else return false;
    return true;
  }
  if (ev.kind !== 'key') return false;

  if (state.view === 'preview') {
    const total = model ? previewLines(model, ctx.size.columns - 1).length : 0;
    const h = bodyRows(ctx);
    const max = Math.max(0, total - h);
    if (isKey(ev, 'escape') || isChar(ev, 'v') || isKey(ev, 'backspace') || isChar(ev, 'h') || isKey(ev, 'left'))
      set(closePreview);
    else if (isKey(ev, 'down') || isChar(ev, 'j')) set((s) => scrollPreview(s, 1, max));
    else if (isKey(ev, 'up') || isChar(ev, 'k')) set((s) => scrollPreview(s, -1, max));
    else if (isKey(ev, 'pagedown') || isChar(ev, ' ')) set((s) => scrollPreview(s, h, max));
    else if (isKey(ev, 'pageup')) set((s) => scrollPreview(s, -h, max));
    else if (isChar(ev, 'g') || isKey(ev, 'home')) set((s) => scrollPreview(s, -Infinity, max));
    else if (isChar(ev, 'G') || isKey(ev, 'end')) set((s) => scrollPreview(s, Infinity, max));
    else return false;
    return true;
  }

  const rows = model ? visibleDirectives(model, state.filter) : [];
  const keys = rows.map((r) => r.key);
  const sel = rows[selectedIndex(state, keys)];
  const page = Math.max(1, bodyRows(ctx) - 12);
  if (isKey(ev, 'down') || isChar(ev, 'j')) set((s) => moveBy(s, keys, 1));
  else if (isKey(ev, 'up') || isChar(ev, 'k')) set((s) => moveBy(s, keys, -1));
  else if (isKey(ev, 'pagedown') || isCtrl(ev, 'd')) set((s) => moveBy(s, keys, page));
  else if (isKey(ev, 'pageup') || isCtrl(ev, 'u')) set((s) => moveBy(s, keys, -page));
  else if (isKey(ev, 'home') || isChar(ev, 'g')) set((s) => moveBy(s, keys, -Infinity));
  else if (isKey(ev, 'end') || isChar(ev, 'G')) set((s) => moveBy(s, keys, Infinity));
  else if (isChar(ev, '/')) set(startFilter);
  else if (isKey(ev, 'escape') && state.filter !== '') set(clearFilter);
  else if (isChar(ev, 'v')) set(openPreview);
  else if (isChar(ev, 'a')) {
    if (ctx.app.readonly) ctx.app.flash('read-only mode (--readonly): directives cannot be added', 'error');
    else if (domain.getSnapshot().writeBlock) ctx.app.flash(`cannot add: ${domain.getSnapshot().writeBlock}`, 'error');
    else set(openAddForm);
  } else if ((isChar(ev, 'e') || isKey(ev, 'enter')) && sel) {
    if (ctx.app.readonly) ctx.app.flash('read-only mode (--readonly): directives cannot be edited', 'error');
    else if (domain.getSnapshot().writeBlock) ctx.app.flash(`cannot edit: ${domain.getSnapshot().writeBlock}`, 'error');
    else set((s) => openEditForm(s, sel.key, sel.directive));
  } else if (isChar(ev, 'p') && sel) togglePriorityOf(ctx, sel);
  else if ((isChar(ev, 'd') || isKey(ev, 'delete')) && sel) confirmRemove(ctx, sel);
  else return false;
  return true;
}

export const memoryPane: PaneModule<MemoryPaneState> = {
  id: 'memory',
  title: 'Memory',
  hotkey: 'm',
  init: initMemoryPane,
  onKey,
  capturesText: (s) => s.form !== null || s.filterEditing,
  hints: (s) =>
    s.form
      ? [
          ['⏎', 'save'],
          ['Tab', 'field'],
          ['Esc', 'cancel'],
        ]
      : s.filterEditing
        ? [
            ['type', 'filter'],
            ['⏎', 'keep'],
            ['Esc', 'clear'],
          ]
        : s.view === 'preview'
          ? [
              ['↑↓', 'scroll'],
              ['Esc', 'back'],
            ]
          : [
              ['a', 'add'],
              ['e', 'edit'],
              ['p', 'priority'],
              ['d', 'remove'],
              ['v', 'preview'],
            ],
  help: [
    ['j / k, ↑ / ↓', 'move among directives (ranked as SessionStart ranks them: critical first, then newest)'],
    [
      'a',
      'add a directive (≤ 500 characters; OMC de-duplicates ignoring case and keeps 20: you are asked before one is pushed out)',
    ],
    ['e, Enter', 'edit the selected directive (text, context, priority)'],
    ['p', 'switch priority: high (shown as critical) ↔ normal (shown as note)'],
    [
      'd, Delete',
      'remove the selected directive (asks first; OMC has no remove tool, omc-top rewrites the file under its lock)',
    ],
    ['v', 'preview exactly what the next session start injects (650-character summary)'],
    ['/', 'filter directives by text or context'],
    ['Tab (form)', 'next field; Space switches priority; Ctrl-U / Ctrl-W delete; Enter saves; Esc cancels'],
  ],
  View: MemoryPaneView,
  nextTick(_state, store, now) {
    const model = store.memory.model(now);
    let next = 60_000 - (now % 60_000);
    for (const r of model?.directives ?? []) next = Math.min(next, ageTickMs(r.directive.timestamp, now));
    return next;
  },
};
