/**
 * The pane side of kept drafts (store/drafts/): on the way out of a process that was ended without asking (a
 * hang-up, SIGTERM, a crash), every pane's unsaved draft is written, synchronously; the next open of the same
 * editor shows one line offering it back with the start of its text (Ctrl-R restores, Ctrl-X discards after a
 * question; its words: ui/kept-draft-line.ts). Not letters: a person who does not read the line and starts typing
 * (`deploy…`, `refactor…`) must neither lose the draft to its first letter nor restore it unasked. The keys of that
 * offer and the lines printed at exit live here, once, for every pane.
 */
import tty from 'node:tty';
import { printErr } from '../io/output.js';
import { cleanLine, truncate } from '../io/sanitize.js';
import type { FieldLimits, KeptDraft, KeptWhy } from '../store/drafts/draft-file.js';
import type { KeptDrafts, KeptRead } from '../store/drafts/kept-drafts.js';
import { mode } from './nav.js';
import type { Binding, Mode } from './bindings.js';
import type { AnyPaneModule, DraftToKeep, KeyContext } from './pane.js';
import type { UiStore } from './ui-store.js';
import { countWord } from '../io/count-words.js';

/**
 * A kept draft shown in an editor that has just opened: `restore` is the field as the draft left it (the pane's
 * own state), or the file cannot be used and says why.
 */
/** `name`: the kept file (one per hang-up); `more`: how many other drafts are kept for the same field. */
type OfferFile = { file: string; name: string; target: string; more: number };
export type DraftOffer<T> = OfferFile &
  (
    | { kind: 'draft'; keptAt: number; why: KeptWhy; preview: string; restore: T }
    | { kind: 'landed'; keptAt: number; why: KeptWhy; preview: string; where: string }
    | { kind: 'bad'; problem: string }
  );

/**
 * How long before a draft was kept a save in the same hang-up can have stamped what it wrote: the save runs just
 * before the keep, and a notepad stamp names only its minute (a margin for a slow disk and the minute's turn).
 */
export const LANDED_WITHIN_MS = 2 * 60_000;

/**
 * The offer for `target`, if a file is kept: `restore` turns the draft into the pane's field, or returns why the
 * draft's choice cannot be used (the file is then shown as a problem, not applied). `landed` looks at what is on
 * disk now: a hang-up in the middle of a save keeps the draft even when the save went through, and restoring an
 * added entry would add it twice. A draft whose text is there already is said so (where), and only d is offered.
 */
export function offerFor<T>(
  drafts: KeptDrafts,
  target: string,
  limits: FieldLimits,
  restore: (d: KeptDraft) => T | string,
  /** `keptAt`: when the draft was kept; a save that went through in the same hang-up was made just before it. */
  landed: (restored: T, keptAt: number) => string | null = () => null,
): DraftOffer<T> | null {
  const r: KeptRead = drafts.read(target, limits);
  if (r.kind === 'none') return null;
  const at = { file: r.file, name: r.name, target, more: r.more };
  if (r.kind === 'bad') return { kind: 'bad', problem: r.problem, ...at };
  const back = restore(r.draft);
  if (typeof back === 'string') return { kind: 'bad', problem: back, ...at };
  const base = { keptAt: r.draft.keptAt, why: r.draft.why, ...at, preview: previewOf(r.draft) };
  const where = landed(back, r.draft.keptAt);
  // `where` may quote the file (an entry's stamp): cleaned once here for the offer line and the refusal of r alike.
  if (where !== null) return { kind: 'landed', ...base, where: truncate(cleanLine(where), 200) };
  return { kind: 'draft', ...base, restore: back };
}

/** The start of a kept draft's text, as the offer shows it: its first field with text, its first line, cleaned. */
const PREVIEW_CHARS = 40;
function previewOf(d: KeptDraft): string {
  const text = Object.values(d.fields).find((t) => t.trim() !== '') ?? '';
  const first = cleanLine(text.trim().split('\n')[0] ?? '');
  const cut = truncate(first, PREVIEW_CHARS);
  // A first line cut ends in truncate's own ellipsis; a whole first line with more lines after it gets one.
  const more = cut === first && text.trim().includes('\n') ? ' …' : '';
  return `“${cut}”${more} (${countWord(text.length, 'character')})`;
}

/** What a key other than Ctrl-R and Ctrl-X says while the offer is open: nothing is typed over an undecided draft. */
export const OFFER_PENDING =
  'a kept draft is offered above the field: Ctrl-R restores it, Ctrl-X discards it (asked first), Esc leaves it for the next time; nothing is typed until then';

/** Said when another monitor restored or discarded the offered draft first: this one leaves it alone. */
const TAKEN_ELSEWHERE = 'that kept draft was taken by another omc-top first (restored or discarded there)';
const andMore = (o: DraftOffer<unknown>) =>
  o.more > 0
    ? `; ${countWord(o.more, 'other kept draft')} ${o.more === 1 ? 'is' : 'are'} offered the next time this editor opens`
    : '';

/**
 * Ctrl-R and Ctrl-X while an offer is open (first in a pane's table: they win over typing). `restore` puts the draft in the
 * field unsaved; both remove the file (after r the field holds the text, and a hang-up keeps it again). Ctrl-R
 * deletes the file before it restores: two monitors offering the same draft both see it, and only the one whose
 * delete succeeds puts it in its field (the other is told and restores nothing), so it is never saved twice.
 */
export function offerBindings<S>(
  when: Mode<S>,
  offerOf: (s: S) => DraftOffer<unknown> | null,
  f: { restore(ctx: KeyContext<S>): void; drop(s: S): S },
): Binding<S>[] {
  // Deleting what the person typed (perhaps for ten minutes) is asked first, with the start of its text.
  const discard = (ctx: KeyContext<S>) => {
    const o = offerOf(ctx.state);
    if (!o) return;
    ctx.app.confirm({
      id: 'discard-kept-draft',
      title: 'Discard the kept draft?',
      lines: [
        o.kind === 'bad' ? `It cannot be used: ${truncate(cleanLine(o.problem), 200)}` : `Its text: ${o.preview}`,
        `Its file ${o.file} is deleted; nothing else changes.`,
      ],
      prompt: 'y: discard it   n/Esc: keep the offer',
      onConfirm: () => {
        try {
          const mine = ctx.store.drafts.discard(o.name);
          ctx.app.flash(
            mine ? `the kept draft was discarded (${o.file} deleted)${andMore(o)}` : `${TAKEN_ELSEWHERE}${andMore(o)}`,
            'info',
          );
          ctx.set(f.drop);
        } catch (e) {
          ctx.app.flash(`the kept draft could not be deleted: ${(e as Error).message}`, 'error');
        }
      },
      onDecline: () => ctx.app.flash('the kept draft stays offered: Ctrl-R restores it', 'info'),
    });
  };
  return [
    {
      keys: ['ctrl+r'],
      help: 'put the draft kept when omc-top was last ended without asking back in the field (not saved yet)',
      hint: 'restore',
      when,
      disabled: (ctx) => {
        const o = offerOf(ctx.state);
        if (o?.kind === 'bad') return 'that kept draft cannot be used: Ctrl-X deletes it';
        if (o?.kind === 'landed')
          return `that kept draft's text is saved already (${o.where}): Ctrl-X deletes its file`;
        return null;
      },
      run: (ctx) => {
        const o = offerOf(ctx.state);
        if (o?.kind !== 'draft') return;
        let mine: boolean;
        try {
          mine = ctx.store.drafts.discard(o.name);
        } catch (e) {
          ctx.app.flash(
            `the kept draft was not restored: its file ${o.file} could not be taken (${(e as Error).message})`,
            'error',
          );
          return;
        }
        if (!mine) {
          ctx.app.flash(`${TAKEN_ELSEWHERE}: nothing was restored here${andMore(o)}`, 'error');
          ctx.set(f.drop);
          return;
        }
        f.restore(ctx);
        ctx.app.flash(`the kept draft is back in the field, not saved yet: save it as usual${andMore(o)}`, 'info');
      },
    },
    {
      keys: ['ctrl+x'],
      help: 'discard that kept draft (asked first; its file is deleted)',
      hint: 'discard',
      when,
      run: discard,
    },
  ];
}

/** A pane's offer mode: its editor is open and an offer is shown. */
export const offerMode = <S>(open: (s: S) => boolean, offerOf: (s: S) => DraftOffer<unknown> | null): Mode<S> =>
  mode<S>('a kept draft offered', (s) => open(s) && offerOf(s) !== null);

/** How the process ended (full-screen's status): the draft is kept for every end the user was not asked about. */
export function whyOfExit(code: number): KeptWhy | null {
  switch (code) {
    case 0:
      return null; // q / Ctrl-C: asked first, the user chose
    case 129:
      return 'hangup';
    case 143:
      return 'sigterm';
    case 130:
      return 'sigint';
    case 131:
      return 'sigquit';
    default:
      return 'crash';
  }
}

export type KeptOutcome = { label: string; offeredAt: string } & ({ file: string; cut: boolean } | { error: string });

/** The unsaved drafts the panes of one UiStore hold now. */
export function heldDrafts(panes: readonly AnyPaneModule[], ui: UiStore): DraftToKeep[] {
  const out: DraftToKeep[] = [];
  for (const p of panes) {
    const st: unknown = ui.state.panes[p.id];
    const d = st !== undefined ? p.keptDraft?.(st) : null;
    if (d) out.push(d);
  }
  return out;
}

/** Writes each draft now (synchronously: the process is ending); says where each went, or why it could not. */
export function keepDrafts(
  drafts: KeptDrafts,
  held: ReadonlyArray<DraftToKeep>,
  why: KeptWhy,
  now: number,
): KeptOutcome[] {
  const out: KeptOutcome[] = [];
  for (const d of held) {
    const base = { label: d.label, offeredAt: d.offeredAt };
    try {
      const { cut, name } = drafts.keepSync(
        { target: d.target, keptAt: now, why, item: d.item, fields: d.fields },
        d.limits,
      );
      out.push({ ...base, file: drafts.shownFile(name), cut });
    } catch (e) {
      out.push({ ...base, error: (e as Error).message });
    }
  }
  return out;
}

/** The lines printed once the screen is restored: where each draft went and where it comes back. */
export function keptLines(kept: readonly KeptOutcome[]): string[] {
  return kept.map((k) =>
    'file' in k
      ? `omc-top: your unsaved ${k.label} was kept in ${k.file}${k.cut ? " (cut to the field's limit)" : ''}; ${k.offeredAt} offers it back.`
      : `omc-top: your unsaved ${k.label} was lost: ${k.error}.`,
  );
}

/**
 * A full screen on its way out (terminal/full-screen.tsx `finish`, before the screen is restored): when it was
 * ended without asking, every open editor's draft of every root on screen is written. Never throws: the terminal
 * is restored whatever happens here.
 */
export function keepOnExit(
  code: number,
  panes: readonly AnyPaneModule[],
  roots: ReadonlyArray<{ drafts: KeptDrafts; ui: UiStore }>,
  now = Date.now(),
): KeptOutcome[] {
  const why = whyOfExit(code);
  if (!why) return [];
  const out: KeptOutcome[] = [];
  for (const r of roots) {
    try {
      out.push(...keepDrafts(r.drafts, heldDrafts(panes, r.ui), why, now));
    } catch (e) {
      out.push({ label: 'draft', offeredAt: '', error: (e as Error).message });
    }
  }
  return out;
}

/** Says where each draft went, on the normal screen, unless the terminal is gone (then there is no one to read it). */
export function printKept(kept: readonly KeptOutcome[]): void {
  if (kept.length === 0 || (process.stderr.isTTY && !tty.isatty(2))) return;
  for (const line of keptLines(kept)) printErr(`${line}\n`);
}
