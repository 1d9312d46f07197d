/**
 * Notepad pane key map. Three modes: the in-app editor (takes every key),
 * the full view of one entry, and the tab/list view. Edit keys go through
 * actions.ts, which refuses under --readonly with a message.
 */
import { isChar, isCtrl, isKey, type InputEvent } from '../../input/keys.js';
import type { EntrySection } from '../../store/notepad/format.js';
import { ageTickMs, wrapText } from '../../ui/format.js';
import type { KeyContext, PaneModule } from '../types.js';
import {
  canWrite,
  cancelEditor,
  draftToExternalEditor,
  editInExternalEditor,
  requestClearPriority,
  requestDelete,
  requestPrune,
  saveEditor,
} from './actions.js';
import { backspace, del, docEnd, docStart, end, home, insert, left, right, vertical } from './editor.js';
import {
  TABS,
  backspaceFilter,
  clearFilter,
  closeView,
  cycleTab,
  editBuffer,
  endFilter,
  initNotepadPane,
  moveBy,
  moveTo,
  openEditor,
  openView,
  scrollView,
  selectedEntry,
  startFilter,
  switchTab,
  typeFilter,
  visibleEntries,
  type NotepadPaneState,
} from './reducer.js';
import { NotepadView } from './view.js';

type Ctx = KeyContext<NotepadPaneState>;

const snapOf = (ctx: Ctx) => ctx.store.notepad.getSnapshot();
const pageRows = (ctx: Ctx) => Math.max(1, ctx.size.rows - 8);

/** Every key while the editor is open; nothing leaks to global shortcuts. */
function editorKey(ev: InputEvent, ctx: Ctx): boolean {
  const edit = (fn: Parameters<typeof editBuffer>[1]) => ctx.set((s) => editBuffer(s, fn));
  if (ev.kind === 'paste') {
    // Pasted text goes in as is: its newlines are text, never Enter or a save.
    edit((b) => insert(b, ev.text));
    return true;
  }
  const k = ev.key;
  if (isCtrl(ev, 's')) saveEditor(ctx);
  else if (isKey(ev, 'escape')) cancelEditor(ctx);
  else if (isCtrl(ev, 'o')) draftToExternalEditor(ctx);
  else if (isKey(ev, 'enter')) edit((b) => insert(b, '\n'));
  else if (isKey(ev, 'tab')) edit((b) => insert(b, '  '));
  else if (isKey(ev, 'backspace')) edit(backspace);
  else if (isKey(ev, 'delete') || isCtrl(ev, 'd')) edit(del);
  else if (isKey(ev, 'left') || isCtrl(ev, 'b')) edit(left);
  else if (isKey(ev, 'right') || isCtrl(ev, 'f')) edit(right);
  else if (isKey(ev, 'up')) edit((b) => vertical(b, -1));
  else if (isKey(ev, 'down')) edit((b) => vertical(b, 1));
  else if (isKey(ev, 'pageup')) edit((b) => vertical(b, -pageRows(ctx)));
  else if (isKey(ev, 'pagedown')) edit((b) => vertical(b, pageRows(ctx)));
  else if (isKey(ev, 'home') && k.ctrl) edit(docStart);
  else if (isKey(ev, 'end') && k.ctrl) edit(docEnd);
  else if (isKey(ev, 'home') || isCtrl(ev, 'a')) edit(home);
  else if (isKey(ev, 'end') || isCtrl(ev, 'e')) edit(end);
  else if (k.name === 'char' && !k.ctrl && !k.meta) edit((b) => insert(b, k.ch));
  return true;
}

function filterKey(ev: InputEvent, ctx: Ctx): boolean {
  if (ev.kind === 'paste') ctx.set((s) => typeFilter(s, ev.text.replace(/\s+/g, ' ')));
  else if (isKey(ev, 'enter')) ctx.set(endFilter);
  else if (isKey(ev, 'escape')) ctx.set(clearFilter);
  else if (isKey(ev, 'backspace')) ctx.set(backspaceFilter);
  else if (isKey(ev, 'down') || isKey(ev, 'up')) {
    const rows = visibleEntries(snapOf(ctx), ctx.state.tab, ctx.state.filter);
    ctx.set((s) => moveBy(s, rows, isKey(ev, 'down') ? 1 : -1));
  } else if (ev.key.name === 'char' && !ev.key.ctrl && !ev.key.meta) ctx.set((s) => typeFilter(s, ev.key.ch));
  return true;
}

/** Tab, Shift-Tab, ←/→ and 1-3 switch sections. */
function tabKey(ev: InputEvent, ctx: Ctx): boolean {
  if (isKey(ev, 'tab') || isKey(ev, 'right')) ctx.set((s) => cycleTab(s, 1));
  else if (isKey(ev, 'backtab') || isKey(ev, 'left')) ctx.set((s) => cycleTab(s, -1));
  else if (isChar(ev, '1') || isChar(ev, '2') || isChar(ev, '3')) {
    const tab = TABS[Number(ev.kind === 'key' ? ev.key.ch : '1') - 1];
    if (tab) ctx.set((s) => switchTab(s, tab));
  } else return false;
  return true;
}

function startEdit(ctx: Ctx, what: Parameters<typeof openEditor>[2]): void {
  if (!canWrite(ctx, 'editing')) return;
  ctx.set((s) => openEditor(s, snapOf(ctx), what));
}

function onKey(ev: InputEvent, ctx: Ctx): boolean {
  const { state } = ctx;
  if (state.editor) return editorKey(ev, ctx);
  if (state.filterEditing) return filterKey(ev, ctx);
  if (ev.kind !== 'key') return false;
  const snap = snapOf(ctx);
  const tab = state.tab;

  if (tab === 'priority') {
    if (tabKey(ev, ctx)) return true;
    const lines = wrapText(snap.sections.priority.display, Math.max(10, ctx.size.columns - 2)).length;
    const max = Math.max(0, lines - pageRows(ctx));
    if (isKey(ev, 'down') || isChar(ev, 'j')) ctx.set((s) => scrollView(s, 1, max));
    else if (isKey(ev, 'up') || isChar(ev, 'k')) ctx.set((s) => scrollView(s, -1, max));
    else if (isChar(ev, 'i') || isKey(ev, 'enter') || isChar(ev, 'r') || isChar(ev, 'a'))
      startEdit(ctx, { kind: 'priority' });
    else if (isChar(ev, 'e')) editInExternalEditor(ctx, { kind: 'priority' });
    else if (isChar(ev, 'd') || isKey(ev, 'delete')) requestClearPriority(ctx);
    else return false;
    return true;
  }

  const section: EntrySection = tab;
  const sel = selectedEntry(state, snap);

  if (state.view) {
    const e = sel;
    const lines = e ? wrapText(e.display, Math.max(10, ctx.size.columns - 2)).length : 0;
    const max = Math.max(0, lines - pageRows(ctx));
    if (isKey(ev, 'escape') || isKey(ev, 'backspace') || isKey(ev, 'left') || isChar(ev, 'h')) ctx.set(closeView);
    else if (isKey(ev, 'down') || isChar(ev, 'j')) ctx.set((s) => scrollView(s, 1, max));
    else if (isKey(ev, 'up') || isChar(ev, 'k')) ctx.set((s) => scrollView(s, -1, max));
    else if (isKey(ev, 'pagedown') || isChar(ev, ' ')) ctx.set((s) => scrollView(s, pageRows(ctx), max));
    else if (isKey(ev, 'pageup')) ctx.set((s) => scrollView(s, -pageRows(ctx), max));
    else if (isChar(ev, 'i') && e) startEdit(ctx, { kind: 'edit', section, entry: e });
    else if (isChar(ev, 'e') && e) editInExternalEditor(ctx, { kind: 'edit', section, entry: e });
    else if ((isChar(ev, 'd') || isKey(ev, 'delete')) && e) requestDelete(ctx, section, e);
    else return isChar(ev, 'i') || isChar(ev, 'e') || isChar(ev, 'd');
    return true;
  }

  if (tabKey(ev, ctx)) return true;
  const rows = visibleEntries(snap, tab, state.filter);
  if (isKey(ev, 'down') || isChar(ev, 'j')) ctx.set((s) => moveBy(s, rows, 1));
  else if (isKey(ev, 'up') || isChar(ev, 'k')) ctx.set((s) => moveBy(s, rows, -1));
  else if (isKey(ev, 'pagedown') || isCtrl(ev, 'd')) ctx.set((s) => moveBy(s, rows, pageRows(ctx)));
  else if (isKey(ev, 'pageup') || isCtrl(ev, 'u')) ctx.set((s) => moveBy(s, rows, -pageRows(ctx)));
  else if (isKey(ev, 'home') || isChar(ev, 'g')) ctx.set((s) => moveTo(s, rows, 0));
  else if (isKey(ev, 'end') || isChar(ev, 'G')) ctx.set((s) => moveTo(s, rows, rows.length - 1));
  else if (isChar(ev, '/')) ctx.set(startFilter);
  else if (isKey(ev, 'escape') && state.filter !== '') ctx.set(clearFilter);
  else if (isKey(ev, 'enter') && sel) ctx.set((s) => openView(s, sel.id));
  else if (isChar(ev, 'a')) startEdit(ctx, { kind: 'add', section });
  else if (isChar(ev, 'A')) editInExternalEditor(ctx, { kind: 'add', section });
  else if (isChar(ev, 'i') && sel) startEdit(ctx, { kind: 'edit', section, entry: sel });
  else if (isChar(ev, 'e') && sel) editInExternalEditor(ctx, { kind: 'edit', section, entry: sel });
  else if ((isChar(ev, 'd') || isKey(ev, 'delete')) && sel) requestDelete(ctx, section, sel);
  else if (isChar(ev, 'p') && tab === 'working') requestPrune(ctx);
  else if (isChar(ev, 'p')) ctx.app.flash('MANUAL is never pruned (OMC only prunes Working Memory)', 'info');
  else if (isChar(ev, 'i') || isChar(ev, 'e') || isChar(ev, 'd')) ctx.app.flash('no entry selected', 'info');
  else return false;
  return true;
}

export const notepadPane: PaneModule<NotepadPaneState> = {
  id: 'notepad',
  title: 'Notepad',
  hotkey: 'n',
  init: initNotepadPane,
  onKey,
  capturesText: (s) => s.editor !== null || s.filterEditing,
  unsaved: (s) =>
    s.editor && s.editor.buf.text !== s.editor.initial
      ? `an unsaved ${s.editor.kind === 'priority' ? 'Priority Context' : s.editor.section === 'manual' ? 'MANUAL' : 'Working Memory'} draft (${s.editor.buf.text.length} characters)`
      : null,
  hints: (s) => {
    if (s.editor) {
      return [
        ['^S', 'save'],
        ['Esc', 'cancel'],
        ['⏎', 'newline'],
        ['^O', '$EDITOR'],
      ];
    }
    if (s.filterEditing) {
      return [
        ['type', 'filter'],
        ['⏎', 'keep'],
        ['Esc', 'clear'],
      ];
    }
    if (s.tab === 'priority') {
      return [
        ['Tab 1-3', 'section'],
        ['i', 'edit'],
        ['e', '$EDITOR'],
        ['d', 'clear'],
      ];
    }
    if (s.view) {
      return [
        ['↑↓', 'scroll'],
        ['i/e', 'edit'],
        ['d', 'delete'],
        ['Esc', 'back'],
      ];
    }
    return [
      ['Tab 1-3', 'section'],
      ['a', 'add'],
      ['i/e', 'edit'],
      ['d', 'del'],
      ...(s.tab === 'working' ? [['p', 'prune'] as [string, string]] : []),
      ['/', 'filter'],
    ];
  },
  help: [
    ['Tab / Shift-Tab, ← / →, 1 2 3', 'switch section: Priority Context / Working Memory / MANUAL'],
    ['j / k, ↑ / ↓, g / G', 'move through entries (newest first) or scroll Priority'],
    ['Enter', 'read the whole entry (Esc back); on Priority: edit it'],
    ['a', 'add an entry to this section (in-app editor)'],
    ['A', 'add an entry, written in $EDITOR'],
    ['i (Priority: also Enter, r)', 'edit the selected entry / replace the Priority text in the in-app editor'],
    ['e', 'edit it in $EDITOR ($VISUAL, vi); saving and quitting saves, like git commit'],
    ['d, Delete', 'delete the selected entry / clear Priority (asks first)'],
    ['p', 'prune Working Memory: lists the entries older than 7 days, asks, removes exactly those'],
    ['/', 'filter entries (every word must match)'],
    ['Editor: Ctrl-S', "save (under OMC's notepad.md.lock; merged with other changes, refused if this entry changed)"],
    ['Editor: Enter', 'new line (a pasted burst keeps its line breaks; only Ctrl-S saves)'],
    ['Editor: Esc', 'cancel (asks if you typed something)'],
    ['Editor: Ctrl-O', 'continue the draft in $EDITOR and come back'],
    ['Editor: arrows, Home/End, Ctrl-A/E', 'move; Backspace / Delete erase'],
  ],
  View: NotepadView,
  nextTick(state, store, now) {
    if (state.editor || state.tab === 'priority') return Infinity;
    const snap = store.notepad.getSnapshot();
    let next = Infinity;
    for (const e of snap.sections[state.tab].entries) next = Math.min(next, ageTickMs(e.atMs, now));
    return next;
  },
};
