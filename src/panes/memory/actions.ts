/**
 * The memory pane's writes: validate the draft against OMC's limits, show
 * what OMC's 20-cap would push out and ask first, confirm before removing,
 * then save through the memory domain (locked, atomic, merged or refused).
 */
import { readonlyRefusal } from '../../io/readonly-words.js';
import { directiveKey, type DirectiveOp } from '../../store/memory/rules.js';
import { DirectiveInputSchema } from '../../store/memory/schema.js';
import { SaveRefused } from '../../store/memory/domain.js';
import type { DirectiveRow } from '../../store/memory/model.js';
import { describeWriteError } from '../../io/safe-fs/index.js';
import { cleanLine, firstLineQuoted } from '../../io/sanitize.js';
import { clip } from '../../ui/format.js';
import type { KeyContext } from '../../kit/pane.js';
import { closeForm, select, type MemoryPaneState } from './reducer.js';

type Ctx = KeyContext<MemoryPaneState>;

function refuseIfBlocked(ctx: Ctx): boolean {
  const domain = ctx.store.memory;
  if (ctx.app.readonly) {
    ctx.app.flash(readonlyRefusal('changing a directive'), 'error');
    return true;
  }
  const block = domain.getSnapshot().writeBlock;
  if (block) {
    ctx.app.flash(`cannot save: ${block}`, 'error');
    return true;
  }
  return false;
}

/**
 * The directive the form edits is gone from the file (removed, or its text changed elsewhere): the form becomes an
 * add with the same draft, so Enter again saves it as a new directive, as the notepad offers for a vanished entry.
 * Short enough for the line above the form at 80 columns.
 */
function offerAsNew(ctx: Ctx): void {
  ctx.set((s) => (s.form?.mode === 'edit' ? { ...s, form: { ...s.form, mode: 'add', target: null } } : s));
  ctx.app.flash('nothing saved: that directive is gone from the file; Enter adds yours as new', 'error');
}

function runSave(ctx: Ctx, op: DirectiveOp, agreed: string[], done: string): void {
  const domain = ctx.store.memory;
  // An add or edit from the form leaves it open with what was typed when the save fails.
  const kept = op.kind !== 'remove' && ctx.state.form ? ' (your draft is kept)' : '';
  // The line names what was asked: a refused remove is not a "save".
  const what = op.kind === 'remove' ? 'remove directive' : 'save directive';
  ctx.app.run(what, async () => {
    let res: Awaited<ReturnType<typeof domain.save>>;
    try {
      res = await domain.save(op, agreed);
    } catch (e) {
      if (e instanceof SaveRefused && e.gone && op.kind === 'edit' && ctx.state.form?.mode === 'edit') {
        offerAsNew(ctx);
        return;
      }
      if (e instanceof SaveRefused && e.disk && op.kind === 'edit') {
        // Both changed one field: the draft now stands against the version on disk, so Enter again is a choice.
        const disk = e.disk;
        ctx.set((s) => (s.form ? { ...s, form: { ...s.form, initial: disk } } : s));
        ctx.app.flash(`${what}: ${e.message} (your draft is kept: Enter again saves yours over it)`, 'error');
        return;
      }
      // The cause alone says nothing of drafts.
      ctx.app.flash(`${what}: ${describeWriteError(e)}${kept}`, 'error');
      return;
    }
    ctx.set((s) => {
      const next = op.kind === 'remove' ? s : closeForm(s);
      return res.changed ? select(next, directiveKey(res.changed)) : next;
    });
    // Fields changed on disk meanwhile that the user left alone were kept: said, so nothing changes unseen.
    const merged = res.kept.length ? `; kept the ${res.kept.join(' and ')} written meanwhile` : '';
    ctx.app.flash(
      res.dropped.length ? `${done}${merged}; OMC's cap pushed out ${res.dropped.length}` : `${done}${merged}`,
      'success',
    );
  });
}

/** Enter in the form: validate, preview the cap, ask if something would be pushed out, save. */
export function submitForm(ctx: Ctx): void {
  const form = ctx.state.form;
  const domain = ctx.store.memory;
  if (!form || refuseIfBlocked(ctx)) return;
  const parsed = DirectiveInputSchema.safeParse({
    directive: form.directive.text,
    context: form.context.text,
    priority: form.priority,
  });
  if (!parsed.success) {
    ctx.app.flash(parsed.error.issues[0]?.message ?? 'invalid directive', 'error');
    return;
  }
  const op: DirectiveOp =
    form.mode === 'add'
      ? { kind: 'add', input: parsed.data, timestamp: ctx.app.now() }
      : { kind: 'edit', target: form.target as string, input: parsed.data, base: form.initial };
  const preview = domain.previewOp(op);
  if (!preview.ok && preview.gone && op.kind === 'edit') {
    offerAsNew(ctx);
    return;
  }
  if (!preview.ok) {
    ctx.app.flash(preview.reason, 'error');
    return;
  }
  const done = form.mode === 'add' ? 'directive added' : 'directive saved';
  if (preview.dropped.length === 0) {
    runSave(ctx, op, [], done);
    return;
  }
  const keys = preview.dropped.map(directiveKey);
  ctx.app.confirm({
    id: 'directives-pushed-out',
    title: `Saving pushes ${preview.dropped.length} directive${preview.dropped.length === 1 ? '' : 's'} out`,
    lines: [
      `OMC keeps at most 20 directives: high priority first, then newest. After this save these are gone from project-memory.json:`,
      ...preview.dropped
        .slice(0, 12)
        .map((d) => `  ✗ ${d.priority === 'high' ? 'critical' : 'note'}: ${clip(cleanLine(d.directive), 200)}`),
      ...(preview.dropped.length > 12 ? [`  … and ${preview.dropped.length - 12} more`] : []),
    ],
    prompt: 'y: save and drop them    n / Esc: keep editing',
    onConfirm: () => runSave(ctx, op, keys, done),
  });
}

export function togglePriorityOf(ctx: Ctx, row: DirectiveRow): void {
  if (refuseIfBlocked(ctx)) return;
  const d = row.directive;
  const priority = d.priority === 'high' ? 'normal' : 'high';
  runSave(
    ctx,
    {
      kind: 'edit',
      target: row.key,
      input: { directive: d.directive, context: d.context, priority },
      base: { directive: d.directive, context: d.context, priority: d.priority },
    },
    [],
    `priority → ${priority} (shown as ${priority === 'high' ? 'critical' : 'note'})`,
  );
}

export function confirmRemove(ctx: Ctx, row: DirectiveRow): void {
  if (refuseIfBlocked(ctx)) return;
  ctx.app.confirm({
    id: 'directive-remove',
    title: 'Remove this directive?',
    lines: [
      `${row.directive.priority === 'high' ? 'critical' : 'note'}: ${row.display.text}`,
      '',
      "OMC has no remove tool: omc-top rewrites project-memory.json under OMC's lock and keeps every other key.",
    ],
    prompt: 'y: remove it    n / Esc: keep it',
    onConfirm: () =>
      runSave(
        ctx,
        {
          kind: 'remove',
          target: row.key,
          base: {
            directive: row.directive.directive,
            context: row.directive.context ?? '',
            priority: row.directive.priority,
          },
        },
        [],
        `directive removed: ${firstLineQuoted(row.directive.directive)}`,
      ),
  });
}
