/**
 * The inbox (`!`) as rows: what needs you (oldest first), then what was
 * acknowledged and still holds, then the problems with files, each section
 * under its own heading. Headings are rows the selection steps over. Laid
 * out once: the view draws these rows and the router moves the selection by
 * the same ids and window.
 */
import { shownSession, type NeedItem } from '../feeds/attention/needs.js';
import type { AttentionView } from '../feeds/attention/view.js';
import type { Size } from '../kit/pane.js';
import { initList, listView, moveList, type ListState, type ListView, type Move } from '../kit/list.js';
import { explainOmc56Path } from '../store/omc56/known-files.js';
import { formatAge, formatAgo, wrapText } from './format.js';
import { countWord } from '../io/count-words.js';
import { foldAnswered, isAnswerLine } from '../feeds/answers/items.js';

export interface ProblemLike {
  path: string;
  message: string;
  severity: string;
  /** The item's own lines, when it has more to say than its path and message (an OMC gate's run). */
  detail?: readonly string[];
}

export type InboxRow =
  | { kind: 'heading'; id: string; text: string }
  | { kind: 'need'; id: string; item: NeedItem; acked: boolean }
  | {
      kind: 'problem';
      id: string;
      problem: ProblemLike;
      /** The need this line to answer stands for (its permission prompt), counted and acknowledged through it. */
      need?: { item: NeedItem; acked: boolean };
    };

export const problemId = (p: ProblemLike) => `problem:${p.path}\u0000${p.message}`;

export function inboxRows(view: AttentionView | null, problems: readonly ProblemLike[]): InboxRow[] {
  const rows: InboxRow[] = [];
  // A permission request or an OMC gate waiting for a decision: answered here, so listed first.
  const answers = problems.filter(isAnswerLine);
  const files = problems.filter((p) => !isAnswerLine(p));
  // A prompt that is both to answer and a need (a Claude with no OMC loop) is one entry: the one with the keys.
  const items = answers.map((p) => p.answer);
  const open = foldAnswered(items, view?.open ?? []);
  const acked = foldAnswered(items, view?.acked ?? []);
  if (answers.length > 0) {
    rows.push({ kind: 'heading', id: 'h:answer', text: `To answer (${answers.length}, listed first)` });
    for (const p of answers) {
      const o = open.byAnswer.get(p.answer.id);
      const a = acked.byAnswer.get(p.answer.id);
      const need = o ? { item: o, acked: false } : a ? { item: a, acked: true } : undefined;
      rows.push({ kind: 'problem', id: problemId(p), problem: p, ...(need ? { need } : {}) });
    }
  }
  const above = open.byAnswer.size;
  rows.push({
    kind: 'heading',
    id: 'h:needs',
    text:
      view === null
        ? 'Needs you: not followed here'
        : open.rest.length
          ? `Needs you (${open.rest.length}${above ? `, besides the ${above} to answer above` : ''})`
          : above
            ? `Needs you: nothing besides the ${above} to answer above`
            : 'Needs you: nothing',
  });
  for (const n of open.rest) rows.push({ kind: 'need', id: `need:${n.id}`, item: n, acked: false });
  if (acked.rest.length > 0) {
    rows.push({ kind: 'heading', id: 'h:acked', text: `Acknowledged, still holding (${acked.rest.length})` });
    for (const n of acked.rest) rows.push({ kind: 'need', id: `need:${n.id}`, item: n, acked: true });
  }
  rows.push({
    kind: 'heading',
    id: 'h:problems',
    text: files.length ? `Problems with files (${files.length})` : 'Problems with files: none',
  });
  for (const p of files) rows.push({ kind: 'problem', id: problemId(p), problem: p });
  return rows;
}

/** Who an item is about, shortest useful form: the Claude session's name and tmux window, else the short id. */
export function whoOf(n: NeedItem): string {
  const session =
    n.name ?? (n.session ? (n.session.length > 12 ? n.session.slice(0, 8) : shownSession(n.session)) : null);
  return [session, n.tmux, n.team ? `team ${n.team}` : null, n.worker, n.mode].filter(Boolean).join(' ');
}

/** One row's text (the view cuts it to the width). */
export function rowText(r: InboxRow, now: number): string {
  if (r.kind === 'heading') return r.text;
  if (r.kind === 'problem')
    return isAnswerLine(r.problem)
      ? `${r.need?.acked ? '·' : '»'} ${r.problem.message}`
      : `⚠ ${r.problem.path}: ${r.problem.message}`;
  const n = r.item;
  const what = n.waitingOn ? `${n.reason}: ${n.waitingOn}` : n.reason;
  return `${r.acked ? '·' : '»'} ${formatAge(n.since, now).padStart(3)} ${what} — ${whoOf(n)}`;
}

const selectable = (r: InboxRow | undefined) => r !== undefined && r.kind !== 'heading';

export interface InboxLayout {
  rows: InboxRow[];
  ids: string[];
  /** Rows for the list; the selected row's full text takes the rest. */
  height: number;
  /** The selected row's full text, as much as fits; a last line says how much more there is when it does not. */
  detail: string[];
  view: ListView;
  selected: InboxRow | null;
  /**
   * Why the selected permission prompt may not be allowed here: its command is not all on screen (the terminal is
   * too small for it). Null when it is shown whole, or when the selection is not a permission prompt. What you allow
   * is what you read: y and A refuse with these words, n still denies.
   */
  subjectCut: string | null;
}

/** Where the selection is, stepping off a heading (down, else up) so a row is always selected when there is one. */
function settleIndex(rows: readonly InboxRow[], index: number): number {
  if (selectable(rows[index])) return index;
  for (let i = index + 1; i < rows.length; i++) if (selectable(rows[i])) return i;
  for (let i = index - 1; i >= 0; i--) if (selectable(rows[i])) return i;
  return -1;
}

function detailOf(r: InboxRow | null, w: number, now: number): string[] {
  if (!r || r.kind === 'heading') return [];
  if (r.kind === 'problem') {
    if (r.problem.detail)
      return [
        ...r.problem.detail,
        ...(r.need?.acked ? ['  acknowledged: not counted until it arises anew'] : []),
      ].flatMap((l) => wrapText(l, w));
    // An OMC 5.6 file says what it is: these files are new to most users (known-files.ts).
    const known = explainOmc56Path(r.problem.path);
    return [
      ...wrapText(r.problem.path, w),
      ...wrapText(`  ${r.problem.message}`, w),
      ...(known ? wrapText(`  (${r.problem.path}: ${known.what})`, w) : []),
    ];
  }
  const n = r.item;
  const since = n.since === null ? '' : ` · since ${formatAgo(n.since, now)}`;
  return [
    ...wrapText(`${n.text}${since}`, w),
    ...wrapText(
      `  ${[whoOf(n), n.session && n.name ? shownSession(n.session) : null, n.path].filter(Boolean).join(' · ')}`,
      w,
    ),
    ...(r.acked ? wrapText('  acknowledged: not counted until it arises anew', w) : []),
  ];
}

/** The lines of a permission prompt's detail that hold what it asks to run (the first of its detail, wrapped). */
function subjectLines(r: InboxRow | null, w: number): number {
  if (r?.kind !== 'problem' || !isAnswerLine(r.problem) || r.problem.answer.kind !== 'permission') return 0;
  return wrapText(r.problem.detail[0] ?? '', w).length;
}

/**
 * Cuts the detail to `rows` lines, the last of them saying what is not shown; a permission prompt's command cut says
 * that y and A refuse (subjectCut), never a silent cut.
 */
function fitDetail(
  lines: string[],
  subject: number,
  rows: number,
  w: number,
): { detail: string[]; subjectCut: string | null } {
  if (lines.length <= rows) return { detail: lines, subjectCut: null };
  // The note is wrapped like the rest and takes its rows from the detail's, so it is read whole. `say` is given how
  // many lines are shown: measured at none first, then at the count that leaves the note its rows.
  const fit = (say: (shown: number) => string) => {
    const room = Math.max(0, rows - wrapText(`↓ ${say(0)}`, w).length);
    const shown = lines.slice(0, room);
    return { shown: shown.length, detail: rows > 0 ? [...shown, ...wrapText(`↓ ${say(room)}`, w)].slice(0, rows) : [] };
  };
  const plain = fit((shown) => `${countWord(lines.length - shown, 'more line')} not shown`);
  if (plain.shown >= subject) return { detail: plain.detail, subjectCut: null };
  const cut = fit(
    (shown) =>
      `${countWord(subject - Math.min(shown, subject), 'line')} of the command not on screen: y and A refuse (a larger terminal shows it; n denies)`,
  );
  return {
    detail: cut.detail,
    subjectCut: `not allowed from here: the command is not all on screen (${countWord(subject - cut.shown, 'line')} of it hidden): widen the terminal, or answer it in Claude's own prompt (n denies here)`,
  };
}

export function inboxLayout(rows: InboxRow[], list: ListState | undefined, body: Size, now: number): InboxLayout {
  const ids = rows.map((r) => r.id);
  const l = list ?? initList();
  const first = listView(l, ids, Number.MAX_SAFE_INTEGER);
  const index = first.index < 0 ? -1 : settleIndex(rows, first.index);
  const selected = index >= 0 ? (rows[index] ?? null) : null;
  const w = Math.max(10, body.columns - 2);
  const subject = subjectLines(selected, w);
  // A third of the pane for the detail; a permission prompt's detail takes what it needs, down to one row of the list
  // (the prompt's own) under the title and the blank line: the user allows what they read.
  const rowsForDetail = Math.max(0, subject > 0 ? body.rows - 3 : Math.floor(body.rows / 3));
  const { detail, subjectCut } = fitDetail(detailOf(selected, w, now), subject, rowsForDetail, w);
  // The title line and, with a detail, a blank line above it.
  const height = Math.max(1, body.rows - 1 - (detail.length ? detail.length + 1 : 0));
  const at = { ...l, id: selected?.id ?? l.id, index: index < 0 ? l.index : index };
  return { rows, ids, height, detail, view: listView(at, ids, height), selected, subjectCut };
}

const goesDown = (to: Move) =>
  to === 'first' ? true : to === 'last' ? false : typeof to === 'number' ? to > 0 : to.page > 0;

/** A move that lands on a heading goes one row further the same way (or the other way, at an end). */
export function moveInbox(lay: InboxLayout, list: ListState | undefined, to: Move): ListState {
  const l = { ...(list ?? initList()), id: lay.selected?.id ?? null, index: Math.max(0, lay.view.index) };
  const next = moveList(l, lay.ids, to, lay.height);
  const i = lay.ids.indexOf(next.id ?? '');
  if (i < 0 || selectable(lay.rows[i])) return next;
  let j = -1;
  if (goesDown(to)) j = settleIndex(lay.rows, i);
  else {
    for (let k = i - 1; k >= 0 && j < 0; k--) if (selectable(lay.rows[k])) j = k;
    if (j < 0) j = settleIndex(lay.rows, i);
  }
  return j >= 0 ? moveList(next, lay.ids, j - i, lay.height) : next;
}
