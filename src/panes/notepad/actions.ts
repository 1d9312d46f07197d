/**
 * What the notepad keys do besides changing pane state: saves, deletes and
 * prunes (through the domain, under OMC's lock), confirmations, and handing
 * a text to $EDITOR the way `git commit` does.
 */
import { readonlyRefusal } from '../../io/readonly-words.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { NOTEPAD_MAX_BYTES, type SaveOutcome } from '../../store/notepad/domain.js';
import { atomicWriteSync, readTextSync } from '../../io/safe-fs/index.js';
import { checkOp, type NotepadOp } from '../../store/notepad/edits.js';
import { SECTION_TITLES, type EntrySection } from '../../store/notepad/format.js';
import { isDue, type NotepadEntry } from '../../store/notepad/model.js';
import { normalizeDraft } from '../../store/notepad/validate.js';
import { describeWriteError } from '../../io/safe-fs/index.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import { shownPath } from '../../io/shown-path.js';
import { formatAge } from '../../ui/format.js';
import type { KeyContext } from '../../kit/pane.js';
import { bufferOf } from './editor.js';
import {
  closeEditor,
  draftChange,
  expectEntry,
  isDirty,
  openEditor,
  rebaseAfterConflict,
  refOf,
  setSaving,
  withOffer,
  type EditorSession,
  type NotepadPaneState,
} from './reducer.js';
import { notepadOffer } from './kept.js';
import { terminalHungUp } from '../../terminal/hangup.js';

type Ctx = KeyContext<NotepadPaneState>;

/** True when writing is allowed; otherwise says why (the key does nothing else). */
export function canWrite(ctx: Ctx, what: string): boolean {
  if (ctx.app.readonly) {
    ctx.app.flash(readonlyRefusal(what), 'error');
    return false;
  }
  const block = ctx.store.notepad.editRefusal();
  if (block) {
    ctx.app.flash(block, 'error');
    return false;
  }
  return true;
}

function opFor(ed: EditorSession, text: string): NotepadOp {
  if (ed.kind === 'priority') return { kind: 'priority', text, base: ed.basePriority, baseRaw: ed.basePriorityRaw };
  if (ed.kind === 'edit' && ed.target) return { kind: 'edit', target: ed.target, body: text };
  return { kind: 'add', section: ed.section as EntrySection, body: text };
}

function conflictAdvice(ed: EditorSession, reason: 'changed' | 'gone'): string {
  if (ed.kind === 'priority')
    return 'your draft is kept; the text on disk is shown above. Ctrl-S again replaces it, Esc discards your draft';
  return reason === 'changed'
    ? 'your draft is kept; the entry on disk is shown above. Ctrl-S again replaces it, Esc discards your draft'
    : 'your draft is kept. Ctrl-S again saves it as a new entry, Esc discards it';
}

/** Turns a save outcome into pane state and a message. Returns true when it landed. */
function settle(ctx: Ctx, ed: EditorSession, out: SaveOutcome): boolean {
  const d = ctx.store.notepad;
  switch (out.kind) {
    case 'saved':
    case 'unchanged': {
      ctx.set((s) => {
        const closed = closeEditor(s);
        // Select what was saved (by its text, once read back), never "the top row": OMC may append meanwhile.
        return ed.kind === 'priority' ? closed : expectEntry(closed, ed.section, ed.buf.text);
      });
      if (out.kind === 'unchanged') ctx.app.flash(out.summary, 'info');
      else {
        const merged = out.merged ? ' (merged with changes made on disk meanwhile)' : '';
        ctx.app.flash(
          `${out.summary} in notepad.md${merged}${out.warning ? `. Note: ${out.warning}` : ''}`,
          out.warning ? 'info' : 'success',
        );
      }
      return true;
    }
    case 'conflict':
      if (d) ctx.set((s) => rebaseAfterConflict(s, d.getSnapshot(), { message: out.message, disk: out.disk ?? null }));
      ctx.app.flash(`${out.message}: ${conflictAdvice(ed, out.reason)}`, 'error');
      return false;
    case 'invalid':
    case 'refused':
      ctx.set((s) => setSaving(s, false));
      ctx.app.flash(`${out.message} (your draft is kept)`, 'error');
      return false;
  }
}

/** Ctrl-S in the editor. */
export function saveEditor(ctx: Ctx): void {
  const ed = ctx.state.editor;
  const d = ctx.store.notepad;
  if (!ed || ed.saving) return;
  if (!canWrite(ctx, 'saving')) return;
  if (ed.kind !== 'add' && !isDirty(ed) && !ed.conflict) {
    ctx.set(closeEditor);
    ctx.app.flash('no changes', 'info');
    return;
  }
  const op = opFor(ed, ed.buf.text);
  const { verdict } = checkOp(op);
  if (!verdict.ok) {
    ctx.app.flash(`${verdict.error} (your draft is kept)`, 'error');
    return;
  }
  ctx.set((s) => setSaving(s, true));
  ctx.app.run('save', async () => {
    try {
      settle(ctx, ed, await d.save(op, ed.baseRevision));
    } catch (e) {
      // The editor stays open with the draft: say so (the cause alone says nothing of drafts).
      ctx.app.flash(`save: ${describeWriteError(e)} (your draft is kept)`, 'error');
    } finally {
      ctx.set((s) => setSaving(s, false));
    }
  });
}

const chars = (n: number) => `${n} ${n === 1 ? 'character' : 'characters'}`;

/** What the discard dialog says will be lost: what was typed into a new text, else what changed in the old one. */
function discardLine(ed: EditorSession): string {
  const what = ed.kind === 'priority' ? 'Priority Context' : `${SECTION_TITLES[ed.section]} entry`;
  if (ed.initial === '')
    return `${chars(Array.from(ed.buf.text).length)} typed in this ${ed.kind === 'add' ? 'new ' : ''}${what} will be lost.`;
  const { added, removed } = draftChange(ed.initial, ed.buf.text);
  const parts = [added > 0 ? `${chars(added)} added` : '', removed > 0 ? `${chars(removed)} removed` : ''];
  return `Your changes to this ${what} (${parts.filter((p) => p !== '').join(', ')}) will be lost.`;
}

/** Esc in the editor: leave at once when nothing would be lost, else ask. */
export function cancelEditor(ctx: Ctx): void {
  const ed = ctx.state.editor;
  if (!ed) return;
  if (!isDirty(ed)) {
    ctx.set(closeEditor);
    return;
  }
  ctx.app.confirm({
    id: 'notepad-discard',
    title: 'Discard your draft?',
    lines: [discardLine(ed)],
    prompt: 'y: discard the draft   n/Esc: keep editing',
    onConfirm: () => ctx.set(closeEditor),
  });
}

const preview = (e: NotepadEntry, now: number) =>
  `${e.stamp ?? '(untimed text)'}  ${e.atMs === null ? '' : formatAge(e.atMs, now)}  ${truncate(cleanLine(e.display), 200)}`;

export function requestDelete(ctx: Ctx, section: EntrySection, entry: NotepadEntry): void {
  if (!canWrite(ctx, 'delete')) return;
  const d = ctx.store.notepad;
  const ref = refOf(section, entry, d.getSnapshot().sections[section].entries);
  ctx.app.confirm({
    id: 'notepad-delete',
    title: `Delete this ${SECTION_TITLES[section]} entry?`,
    lines: [
      preview(entry, ctx.app.now()),
      '',
      "It is removed from notepad.md under OMC's lock; other entries are left as they are.",
    ],
    prompt: 'y: delete it   n/Esc: keep it',
    onConfirm: () =>
      ctx.app.run('delete', async () => {
        const out = await d.save({ kind: 'delete', target: ref }, null);
        if (out.kind === 'saved') ctx.app.flash(out.summary, 'success');
        else ctx.app.flash(`${'message' in out ? out.message : out.summary}; nothing was deleted`, 'error');
      }),
  });
}

export function requestClearPriority(ctx: Ctx): void {
  if (!canWrite(ctx, 'clearing Priority Context')) return;
  const d = ctx.store.notepad;
  const snap = d.getSnapshot();
  if (snap.sections.priority.text === '') {
    ctx.app.flash('Priority Context is already empty', 'info');
    return;
  }
  const base = snap.sections.priority.text;
  ctx.app.confirm({
    id: 'priority-clear',
    title: 'Clear Priority Context?',
    lines: [
      truncate(cleanLine(snap.sections.priority.display), 300),
      '',
      'OMC injects this text into every new session; it will be empty.',
    ],
    prompt: 'y: clear it   n/Esc: keep it',
    onConfirm: () =>
      ctx.app.run('clear', async () => {
        const out = await d.save({ kind: 'priority', text: '', base }, null);
        if (out.kind === 'saved') ctx.app.flash(out.summary, 'success');
        else ctx.app.flash(`${'message' in out ? out.message : out.summary}; nothing was changed`, 'error');
      }),
  });
}

/** p on Working Memory: shows exactly which entries would go, asks, then removes exactly those. */
export function requestPrune(ctx: Ctx): void {
  if (!canWrite(ctx, 'prune')) return;
  const d = ctx.store.notepad;
  const now = ctx.app.now();
  const entries = d.getSnapshot().sections.working.entries;
  const due = entries.filter((e) => isDue(e, now));
  if (due.length === 0) {
    ctx.app.flash('nothing to prune: no Working Memory entry is older than 7 days', 'info');
    return;
  }
  const kept = entries.length - due.length;
  ctx.app.confirm({
    id: 'notepad-prune',
    title: `Prune ${due.length} Working Memory ${due.length === 1 ? 'entry' : 'entries'} older than 7 days?`,
    lines: [
      ...due.map((e) => preview(e, now)),
      '',
      `${kept} newer ${kept === 1 ? 'entry stays' : 'entries stay'}. MANUAL is never pruned. Same 7-day rule as OMC's notepad_prune.`,
    ],
    prompt: `y: prune these ${due.length}   n/Esc: keep all`,
    onConfirm: () =>
      ctx.app.run('prune', async () => {
        const out = await d.save({ kind: 'prune', targets: due.map((e) => refOf('working', e)) }, null);
        if (out.kind === 'saved') ctx.app.flash(out.summary, 'success');
        else ctx.app.flash(`${'message' in out ? out.message : out.summary}`, 'error');
      }),
  });
}

/**
 * Why $EDITOR could not be given its scratch file: the temp directory (TMPDIR, when set) named through shownPath,
 * what is wrong with it in words, and what to do: "$EDITOR: no scratch file: TMPDIR /tmp/afile is not a directory
 * (ENOTDIR); point TMPDIR at a writable directory".
 */
export function scratchDirText(e: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  const where = `${env.TMPDIR ? 'TMPDIR' : 'the temp directory'} ${shownPath(os.tmpdir())}`;
  const why =
    code === 'ENOTDIR'
      ? 'is not a directory (ENOTDIR)'
      : code === 'ENOENT'
        ? 'does not exist (ENOENT)'
        : code && ['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT'].includes(code)
          ? `cannot hold it: ${describeWriteError(e)}`
          : // Node's own message names the mkdtemp template's raw path: the code alone.
            `cannot hold it (${code ?? String(e)})`;
  return `$EDITOR: no scratch file: ${where} ${why}; point TMPDIR at a writable directory`;
}

/**
 * How the editor's command ended, in words. It runs through /bin/sh, whose 127 is "command not found" and 126
 * "found but cannot be run": said as such, not as a status the user would have to look up.
 */
function exitWords(status: number): string {
  if (status === 127) return 'was not found (the shell could not find the command; set $EDITOR or $VISUAL)';
  if (status === 126) return 'could not be run (the shell found it but may not execute it)';
  return `exited with status ${status}`;
}

/** $EDITOR, else $VISUAL, else vi. */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.EDITOR?.trim() || env.VISUAL?.trim() || 'vi';
}

/** What $EDITOR gave back: the text saved, or why not, with the text it left in its file when that differs. */
export type ExternalEdit = { ok: true; text: string } | { ok: false; message: string; left?: string };

/**
 * Hands `initial` to the user's editor in a private temp file (outside the
 * .omc root: it is a scratch buffer, never the notepad) and returns what was
 * saved. Like git, the command runs through the shell so EDITOR="code --wait"
 * works. A non-zero exit means "abort", as for git commit. An editor that
 * did not choose to end (killed by a signal, or its terminal hung up: a tmux
 * pane killed, an ssh drop) hands back the text it had written to its file
 * by then (`left`): the file is removed here, and that text would go with it.
 */
export async function runExternalEditor(ctx: Ctx, initial: string): Promise<ExternalEdit> {
  let dir: string;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-edit-'));
  } catch (e) {
    return { ok: false, message: scratchDirText(e) };
  }
  const name = 'NOTEPAD_EDITMSG.md';
  const file = path.join(dir, name);
  const editor = editorCommand();
  try {
    atomicWriteSync(dir, name, initial === '' ? '' : `${initial}\n`);
    const res = await ctx.app.suspend(async () =>
      spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'omc-top-editor', file], { stdio: 'inherit' }),
    );
    if (res.error) return { ok: false, message: `could not start ${editor}: ${res.error.message}` };
    // What the editor left there is read like any file omc-top did not write: it may have been replaced.
    const r = readTextSync(dir, name, NOTEPAD_MAX_BYTES);
    if (res.status !== 0) {
      const signal = endingSignal(res);
      const message = `${editor} ${signal !== null ? `was ended by ${signal}` : res.status === null ? 'was ended by a signal' : exitWords(res.status)}: nothing was saved`;
      const ended = signal !== null || res.status === null || terminalHungUp();
      const changed = r.ok && normalizeDraft(r.text) !== '' && normalizeDraft(r.text) !== normalizeDraft(initial);
      return ended && changed ? { ok: false, message, left: r.text } : { ok: false, message };
    }
    if (!r.ok) return { ok: false, message: `${editor} left ${name} unreadable (${r.message}): nothing was saved` };
    return { ok: true, text: r.text };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The signal that ended the editor, or null when it chose its own exit. The command runs through /bin/sh, and a
 * shell that does not exec its last command (dash) outlives the editor and reports a signal's end as its own
 * status 128 + n: the editor was killed all the same (a hang-up that reached it and not the shell).
 */
export function endingSignal(res: { status: number | null; signal: NodeJS.Signals | null }): string | null {
  if (res.signal !== null) return res.signal;
  const n = res.status === null ? 0 : res.status - 128;
  if (n < 1 || n > 64) return null;
  const name = Object.entries(os.constants.signals).find(([, v]) => v === n)?.[0];
  return name ? `${name} (the shell's status ${res.status})` : null;
}

/**
 * The text $EDITOR left, as a draft. It was handed the raw text, and every
 * character comes back as it was; only CRLF line ends become LF (an
 * editor's file-format setting, not the user's text) unless the text it was
 * given held CRs itself.
 */
function fromExternalEditor(text: string, given: string): string {
  return given.includes('\r') ? text : text.replace(/\r\n/g, '\n');
}

/**
 * `e` / `A`: edit an entry, add one, or edit Priority in $EDITOR. Saving and
 * quitting the editor saves (like git commit); a refused or conflicting save
 * opens the in-app editor with the text, so nothing typed is lost.
 */
export function editInExternalEditor(
  ctx: Ctx,
  what:
    | { kind: 'add'; section: EntrySection }
    | { kind: 'edit'; section: EntrySection; entry: NotepadEntry }
    | { kind: 'priority' },
): void {
  if (!canWrite(ctx, 'editing')) return;
  const d = ctx.store.notepad;
  const snap = d.getSnapshot();
  const opened = openEditor(ctx.state, snap, what);
  const ed = opened.editor as EditorSession;
  // A draft kept for this section at the last hang-up is offered first, in the in-app editor as a and i do
  // (Ctrl-O then carries it on in $EDITOR): $EDITOR itself has no room to show it.
  const offer = notepadOffer(ctx.store.drafts, ed.section, snap);
  if (offer) {
    ctx.set(withOffer(opened, offer));
    ctx.app.flash(
      'a kept draft is offered before $EDITOR opens: Ctrl-R restores it (Ctrl-O continues it in $EDITOR)',
      'info',
    );
    return;
  }
  ctx.app.run('$EDITOR', async () => {
    const r = await runExternalEditor(ctx, ed.initial);
    if (!r.ok) {
      if (r.left !== undefined) {
        // The editor was ended with text written: it stays here, unsaved, so a hang-up keeps it as any draft.
        ctx.set({
          ...opened,
          editor: { ...ed, buf: bufferOf(normalizeDraft(fromExternalEditor(r.left, ed.initial))) },
        });
        ctx.app.flash(`${r.message}; the text it left is in the editor: Ctrl-S saves it, Esc discards it`, 'error');
      } else ctx.app.flash(r.message, 'error');
      return;
    }
    const text = normalizeDraft(fromExternalEditor(r.text, ed.initial));
    if (what.kind !== 'add' && text === normalizeDraft(ed.initial)) {
      ctx.app.flash('no changes', 'info');
      return;
    }
    if (text === '') {
      // An emptied buffer aborts, as it does for git commit; deleting is d.
      const how = what.kind === 'priority' ? 'd clears Priority' : 'd deletes an entry';
      ctx.app.flash(what.kind === 'add' ? 'empty: nothing was added' : `empty: nothing was saved (${how})`, 'info');
      return;
    }
    // From here on the text lives in the in-app editor until it is saved.
    ctx.set({ ...opened, editor: { ...ed, buf: bufferOf(text), saving: true } });
    try {
      settle(ctx, ed, await d.save(opFor(ed, text), ed.baseRevision));
    } catch (e) {
      // The editor did its part; it is the save after it that failed (a full disk, a read-only .omc): say so as
      // Ctrl-S does, or the error would read as the editor's (ctx.app.run labels it "$EDITOR").
      ctx.app.flash(`save: ${describeWriteError(e)} (your draft is kept)`, 'error');
    } finally {
      ctx.set((s) => setSaving(s, false));
    }
  });
}

/** Ctrl-O in the in-app editor: continue the draft in $EDITOR and come back to it. */
export function draftToExternalEditor(ctx: Ctx): void {
  const ed = ctx.state.editor;
  if (!ed || ed.saving) return;
  ctx.app.run('$EDITOR', async () => {
    const r = await runExternalEditor(ctx, ed.buf.text);
    if (!r.ok && r.left === undefined) {
      ctx.app.flash(`${r.message}; your draft is unchanged`, 'error');
      return;
    }
    const back = r.ok ? r.text : (r.left as string);
    const text = fromExternalEditor(back, ed.buf.text).replace(/\n$/, '');
    ctx.set((s) => (s.editor ? { ...s, editor: { ...s.editor, buf: bufferOf(text) } } : s));
    if (!r.ok) {
      // Ended with text written (a hang-up among them): what it left is the draft now, unsaved, kept as any draft.
      ctx.app.flash(`${r.message}; the text it left is the draft now: Ctrl-S saves it, Esc cancels`, 'error');
      return;
    }
    ctx.app.flash('back from $EDITOR: Ctrl-S saves, Esc cancels', 'info');
  });
}
