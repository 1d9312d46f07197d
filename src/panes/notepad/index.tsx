/**
 * Notepad pane key map. Three modes: the in-app editor (takes every key),
 * the full view of one entry, and the tab/list view. Edit keys go through
 * actions.ts, which refuses under --readonly with a message.
 */
import type { Move } from '../../kit/list.js';
import type { Binding } from '../../kit/bindings.js';
import type { EntrySection } from '../../store/notepad/format.js';
import { ageTickMs } from '../../ui/format.js';
import { filterBindings, filterStartBindings, mode, navBindings, scrollDelta } from '../../kit/nav.js';
import type { KeyContext, PaneModule } from '../../kit/pane.js';
import {
  cancelEditor,
  draftToExternalEditor,
  editInExternalEditor,
  requestClearPriority,
  requestDelete,
  requestPrune,
  saveEditor,
  canWrite,
} from './actions.js';
import {
  backspace,
  del,
  deleteWordBack,
  docEnd,
  docStart,
  end,
  home,
  insert,
  killToLineEnd,
  killToLineStart,
  left,
  right,
  vertical,
} from './editor.js';
import { contentRows, entryListLayout, textLayout } from './layout.js';
import {
  TABS,
  backspaceFilter,
  clearFilter,
  closeView,
  cycleTab,
  editBuffer,
  endFilter,
  initNotepadPane,
  dropOffer,
  moveSelection,
  openEditor,
  restoreOffer,
  withOffer,
  openView,
  scrollView,
  selectedEntry,
  settleSelection,
  startFilter,
  switchTab,
  typeFilter,
  type NotepadPaneState,
} from './reducer.js';
import { NotepadView } from './view.js';
import { rootWriteBlock } from '../../ui/not-known.js';
import { OFFER_PENDING, offerBindings, offerMode } from '../../kit/kept-drafts.js';
import { draftToKeep, notepadOffer } from './kept.js';
import { countWord } from '../../io/count-words.js';

type Ctx = KeyContext<NotepadPaneState>;
type S = NotepadPaneState;

const snapOf = (ctx: Ctx) => ctx.store.notepad.getSnapshot();

const EDITOR = mode<S>('editor', (s) => s.editor !== null);
const OFFER = offerMode<S>(
  (s) => s.editor !== null,
  (s) => s.offer,
);
const FILTER = mode<S>('typing a filter', (s) => s.editor === null && s.filterEditing);
const idle = (s: S) => s.editor === null && !s.filterEditing;
const PRIORITY = mode<S>('Priority Context', (s) => idle(s) && s.tab === 'priority');
const ENTRY = mode<S>('reading an entry', (s) => idle(s) && s.tab !== 'priority' && s.view !== null);
const LIST = mode<S>('entry list', (s) => idle(s) && s.tab !== 'priority' && s.view === null);
const TABS_MODE = mode<S>('sections', (s) => idle(s) && s.view === null);
const ENTRY_OR_LIST = mode<S>('entry list / reading an entry', (s) => idle(s) && s.tab !== 'priority');

/** A key that acts on the editor's text: held while a kept draft is offered (r or d first). */
const unlessOffer = (run: (ctx: Ctx) => void) => (ctx: Ctx) => {
  if (ctx.state.offer) ctx.app.flash(OFFER_PENDING, 'info');
  else run(ctx);
};
const edit = (ctx: Ctx, fn: Parameters<typeof editBuffer>[1]) =>
  unlessOffer((c) => c.set((s) => editBuffer(s, fn)))(ctx);
const editorPage = (ctx: Ctx) => Math.max(1, contentRows(ctx.body) - 1);

function startEdit(ctx: Ctx, what: Parameters<typeof openEditor>[2]): void {
  if (!canWrite(ctx, 'editing')) return;
  // A draft kept for this section at the last hang-up is offered before anything is typed.
  const section = what.kind === 'priority' ? 'priority' : what.section;
  const offer = notepadOffer(ctx.store.drafts, section, snapOf(ctx));
  ctx.set((s) => withOffer(openEditor(s, snapOf(ctx), what), offer));
}

const section = (ctx: Ctx) => ctx.state.tab as EntrySection;
const sel = (ctx: Ctx) => selectedEntry(ctx.state, snapOf(ctx), ctx.app.now());
const noEntry = (ctx: Ctx) => (sel(ctx) ? null : 'no entry selected');
/** The root unreadable first (every pane's write keys say it alike: ui/not-known.ts), then notepad.md's own block. */
const writeBlock = (ctx: Ctx) => rootWriteBlock(ctx.store) ?? ctx.store.notepad.getSnapshot().editBlock;
const entryDisabled = (ctx: Ctx) => rootWriteBlock(ctx.store) ?? noEntry(ctx) ?? writeBlock(ctx);
/**
 * A notepad.md never read (refused: its problem line says why), under a root that cannot be read, or one omc-top
 * will not write (CRLF line endings OMC reads no section in, bytes that are not UTF-8, a symlink: its editBlock):
 * the writing keys are not offered in the footer, as c / p are not on a loop omc-top may not read; pressed, they
 * still say why nothing will be written (the info line says it too).
 */
const notepadWritable = (ctx: Ctx) =>
  ctx.store.notepad.getSnapshot().status !== 'unreadable' && writeBlock(ctx) === null;
/** Keys that act on the selected entry: not offered while none is (an empty section, a filter matching none). */
const entrySelected = (ctx: Ctx) => sel(ctx) !== null;
const entryWritable = (ctx: Ctx) => notepadWritable(ctx) && entrySelected(ctx);

function textOf(ctx: Ctx) {
  const snap = snapOf(ctx);
  if (ctx.state.tab === 'priority') return textLayout(snap.sections.priority.display, ctx.body, false);
  return textLayout(sel(ctx)?.display ?? '', ctx.body, true);
}

const editorKeys: Binding<S>[] = [
  {
    keys: ['ctrl+s'],
    help: "save (under OMC's notepad.md.lock; merged with other changes, refused if this entry changed)",
    hint: 'save',
    when: EDITOR,
    writes: true,
    run: unlessOffer(saveEditor),
  },
  { keys: ['escape'], help: 'cancel (asks if you typed something)', hint: 'cancel', when: EDITOR, run: cancelEditor },
  {
    keys: ['enter'],
    help: 'new line (a pasted burst keeps its line breaks; only Ctrl-S saves)',
    hint: 'newline',
    when: EDITOR,
    run: (c) => edit(c, (b) => insert(b, '\n')),
  },
  {
    keys: ['ctrl+o'],
    help: 'continue the draft in $EDITOR and come back',
    hint: '$EDITOR',
    when: EDITOR,
    run: unlessOffer(draftToExternalEditor),
  },
  { keys: ['tab'], help: 'insert two spaces', when: EDITOR, run: (c) => edit(c, (b) => insert(b, '  ')) },
  { keys: ['backspace'], help: 'erase before the cursor', when: EDITOR, run: (c) => edit(c, backspace) },
  { keys: ['delete', 'ctrl+d'], help: 'erase under the cursor', when: EDITOR, run: (c) => edit(c, del) },
  { keys: ['ctrl+w'], help: 'erase the word before the cursor', when: EDITOR, run: (c) => edit(c, deleteWordBack) },
  { keys: ['ctrl+u'], help: 'erase to the start of the line', when: EDITOR, run: (c) => edit(c, killToLineStart) },
  {
    keys: ['ctrl+k'],
    help: 'erase to the end of the line (at its end: the line break)',
    when: EDITOR,
    run: (c) => edit(c, killToLineEnd),
  },
  { keys: ['left', 'ctrl+b'], help: 'cursor left', when: EDITOR, run: (c) => edit(c, left) },
  { keys: ['right', 'ctrl+f'], help: 'cursor right', when: EDITOR, run: (c) => edit(c, right) },
  { keys: ['up'], help: 'cursor up a line', when: EDITOR, run: (c) => edit(c, (b) => vertical(b, -1)) },
  { keys: ['down'], help: 'cursor down a line', when: EDITOR, run: (c) => edit(c, (b) => vertical(b, 1)) },
  { keys: ['pageup'], help: 'cursor up a page', when: EDITOR, run: (c) => edit(c, (b) => vertical(b, -editorPage(c))) },
  {
    keys: ['pagedown'],
    help: 'cursor down a page',
    when: EDITOR,
    run: (c) => edit(c, (b) => vertical(b, editorPage(c))),
  },
  {
    keys: ['home', 'ctrl+a'],
    help: 'start of the line (Ctrl-Home: of the text)',
    when: EDITOR,
    run: (c, ev) => edit(c, ev.kind === 'key' && ev.key.ctrl && ev.key.name === 'home' ? docStart : home),
  },
  {
    keys: ['end', 'ctrl+e'],
    help: 'end of the line (Ctrl-End: of the text)',
    when: EDITOR,
    run: (c, ev) => edit(c, ev.kind === 'key' && ev.key.ctrl && ev.key.name === 'end' ? docEnd : end),
  },
];

/** One move for the list's keys and the filter field's ↑↓. */
const moveEntries = (ctx: Ctx, to: Move) => {
  const l = entryListLayout(ctx.state, snapOf(ctx), ctx.body, ctx.app.now());
  ctx.set((s) => moveSelection(s, l.rows, to, l.listRows));
};

const bindings: Binding<S>[] = [
  ...offerBindings(OFFER, (s) => s.offer, { restore: (c) => c.set(restoreOffer), drop: dropOffer }),
  ...editorKeys,
  ...filterBindings(FILTER, {
    keep: endFilter,
    clear: clearFilter,
    backspace: backspaceFilter,
    move: moveEntries,
  }),
  {
    keys: ['right'],
    help: 'next section: Priority Context / Working Memory / MANUAL',
    hint: 'section',
    hintKeys: '←→ 1-3',
    when: TABS_MODE,
    run: (c) => c.set((s) => cycleTab(s, 1)),
  },
  { keys: ['left'], help: 'previous section', when: TABS_MODE, run: (c) => c.set((s) => cycleTab(s, -1)) },
  ...TABS.map((t, i): Binding<S> => ({
    keys: [String(i + 1)],
    help: `section ${t === 'priority' ? 'Priority Context' : t === 'working' ? 'Working Memory' : 'MANUAL'}`,
    when: TABS_MODE,
    run: (c) => c.set((s) => switchTab(s, t)),
  })),
  ...navBindings(LIST, 'entries (newest first)', moveEntries, {
    // The section tabs, the info line, the filter line when shown, then the entries (view.tsx).
    place: (ctx) => {
      const l = entryListLayout(ctx.state, snapOf(ctx), ctx.body, ctx.app.now());
      return { firstRow: 2 + (l.showFilter ? 1 : 0), view: l.view, height: l.listRows, total: l.rows.length };
    },
  }),
  {
    keys: ['enter'],
    help: 'read the whole entry (Esc back)',
    hint: 'read',
    when: LIST,
    disabled: noEntry,
    offered: entrySelected,
    run: (c) => {
      const e = sel(c);
      if (e) c.set((s) => openView(s, e.id));
    },
  },
  {
    keys: ['a'],
    help: 'add an entry to this section (in-app editor)',
    hint: 'add',
    when: LIST,
    writes: true,
    disabled: writeBlock,
    offered: notepadWritable,
    run: (c) => startEdit(c, { kind: 'add', section: section(c) }),
  },
  {
    keys: ['A'],
    help: 'add an entry, written in $EDITOR',
    when: LIST,
    writes: true,
    disabled: writeBlock,
    offered: notepadWritable,
    run: (c) => editInExternalEditor(c, { kind: 'add', section: section(c) }),
  },
  {
    keys: ['i'],
    help: 'edit the selected entry in the in-app editor',
    hint: 'edit',
    hintKeys: 'i/e',
    when: ENTRY_OR_LIST,
    writes: true,
    disabled: entryDisabled,
    offered: entryWritable,
    run: (c) => {
      const e = sel(c);
      if (e) startEdit(c, { kind: 'edit', section: section(c), entry: e });
    },
  },
  {
    keys: ['e'],
    help: 'edit it in $EDITOR ($VISUAL, vi); saving and quitting saves, like git commit',
    when: ENTRY_OR_LIST,
    writes: true,
    disabled: entryDisabled,
    offered: entryWritable,
    run: (c) => {
      const e = sel(c);
      if (e) editInExternalEditor(c, { kind: 'edit', section: section(c), entry: e });
    },
  },
  {
    keys: ['d', 'delete'],
    help: 'delete the selected entry (asks first)',
    hint: 'del',
    when: ENTRY_OR_LIST,
    writes: true,
    disabled: entryDisabled,
    offered: entryWritable,
    run: (c) => {
      const e = sel(c);
      if (e) requestDelete(c, section(c), e);
    },
  },
  {
    keys: ['p'],
    help: 'prune Working Memory: lists the entries older than 7 days, asks, removes exactly those',
    hint: 'prune',
    when: mode<S>('entry list', (s) => LIST.test(s) && s.tab === 'working'),
    writes: true,
    disabled: writeBlock,
    offered: notepadWritable,
    run: requestPrune,
  },
  {
    keys: ['p'],
    help: 'MANUAL is never pruned (OMC only prunes Working Memory)',
    when: mode<S>('entry list', (s) => LIST.test(s) && s.tab === 'manual'),
    run: (c) => c.app.flash('MANUAL is never pruned (OMC only prunes Working Memory)', 'info'),
  },
  ...filterStartBindings(
    LIST,
    'filter entries by the words their rows show (stamp, age, due) or their text; every word must match',
    {
      start: startFilter,
      clear: clearFilter,
      filtered: (s) => s.filter !== '',
    },
  ),
  ...navBindings(
    mode<S>('reading an entry / Priority', (s) => ENTRY.test(s) || PRIORITY.test(s)),
    'scroll',
    (ctx, to) => {
      const t = textOf(ctx);
      ctx.set((s) => scrollView(s, scrollDelta(to, t.height), t.lines.length, t.height));
    },
    { hint: false },
  ),
  {
    keys: ['escape', 'backspace', 'left', 'h'],
    help: 'back to the list',
    hint: 'back',
    when: ENTRY,
    run: (c) => c.set(closeView),
  },
  {
    keys: ['i', 'enter', 'r', 'a'],
    help: 'edit / replace the Priority text in the in-app editor',
    hint: 'edit',
    when: PRIORITY,
    writes: true,
    disabled: writeBlock,
    offered: notepadWritable,
    run: (c) => startEdit(c, { kind: 'priority' }),
  },
  {
    keys: ['e'],
    help: 'edit the Priority text in $EDITOR',
    hint: '$EDITOR',
    when: PRIORITY,
    writes: true,
    disabled: writeBlock,
    offered: notepadWritable,
    run: (c) => editInExternalEditor(c, { kind: 'priority' }),
  },
  {
    keys: ['d', 'delete'],
    help: 'clear Priority Context (asks first)',
    hint: 'clear',
    when: PRIORITY,
    writes: true,
    disabled: writeBlock,
    offered: notepadWritable,
    run: requestClearPriority,
  },
];

export const notepadPane: PaneModule<NotepadPaneState> = {
  id: 'notepad',
  title: 'Notepad',
  hotkey: 'n',
  init: initNotepadPane,
  bindings,
  typing: {
    active: (s) => s.editor !== null || s.filterEditing,
    type: (ctx, text) => {
      // Pasted text goes into the editor as is: its newlines are text, never Enter or a save.
      if (ctx.state.editor) edit(ctx, (b) => insert(b, text));
      else ctx.set((s) => typeFilter(s, text.replace(/\s+/g, ' ')));
    },
  },
  sources: (store) => {
    const d = store.notepad;
    return d ? [d.subscribe] : [];
  },
  settle(state, store, body, now) {
    const snap = store.notepad.getSnapshot();
    return snap ? settleSelection(state, snap, entryListLayout(state, snap, body, now).listRows, now) : state;
  },
  unsaved: (s) =>
    s.editor && s.editor.buf.text !== s.editor.initial
      ? `an unsaved ${s.editor.kind === 'priority' ? 'Priority Context' : s.editor.section === 'manual' ? 'MANUAL' : 'Working Memory'} draft (${countWord(s.editor.buf.text.length, 'character')})`
      : null,
  keptDraft: (s) => (s.editor ? draftToKeep(s.editor) : null),
  View: NotepadView,
  nextTick(state, store, now) {
    if (state.editor) return Infinity;
    const snap = store.notepad.getSnapshot();
    if (!snap) return Infinity;
    let next = Infinity;
    // The Working tab's "(n due)" shows on every tab, and an entry comes due when OMC's local reading of its stamp
    // says so: between two age steps outside UTC.
    for (const e of snap.sections.working.entries) if (e.dueAtMs > now) next = Math.min(next, e.dueAtMs - now);
    if (state.tab === 'priority') return next;
    for (const e of snap.sections[state.tab].entries) next = Math.min(next, ageTickMs(e.atMs, now));
    return next;
  },
};
