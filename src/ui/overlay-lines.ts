/**
 * The text of every overlay (help, message log, confirm dialog; the inbox is a list of its own),
 * laid out once: the overlay view draws these lines and the router scrolls
 * them by the same count, so `G` lands on the last line and `k` moves from it.
 */
import { helpRows, keysLabel, type Binding, type BindingContext, type KeySpec } from '../kit/bindings.js';
import type { AnyPaneModule, Size } from '../kit/pane.js';
import { formatClock, width as cells, wrapText } from './format.js';
import type { Flash, Overlay, TextOverlay } from '../kit/ui-store.js';
import { maxScroll } from '../kit/list.js';

export interface OverlayLine {
  text: string;
  tone?: 'title' | 'error' | 'warning' | 'ok' | 'muted';
  /** A further line of the entry above it (wrapped): a resize re-wraps entries, it keeps the one at the top. */
  cont?: true;
}

export interface OverlayInputs {
  panes: ReadonlyArray<AnyPaneModule>;
  globals?: ReadonlyArray<{ keys: readonly KeySpec[]; help: string }>;
  /** Key tables of views that are not panes (the `!` list's answering keys), after the panes' in the help. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  sections?: ReadonlyArray<{ title: string; bindings: readonly Binding<any, any>[] }>;
  /** The inbox's keys (input/inbox.ts), listed in the help after the panes'. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inbox?: readonly Binding<any, any>[];
  log: readonly Flash[];
  readonly: boolean;
  /** The pane the help was opened from: its keys come first. */
  current?: string;
  /** That pane's state: its keys that apply in it come first among its own. */
  currentState?: unknown;
  /** That pane's key context (as the footer's): a key of it disabled now says why. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  currentContext?: BindingContext<any>;
}

/**
 * Every status and symbol a pane can show, for the help's legend and the
 * README's (a test checks both carry every row label the app can print).
 */
export const LEGEND: ReadonlyArray<[string, string]> = [
  [
    'enforced',
    "OMC's Stop hook will hold the agent for this mode at its next Stop (next iteration, reinforcement, stage)",
  ],
  [
    'paused',
    "the mode's rule holds, but at its next Stop OMC's Stop hook lets the agent stop anyway: a cancel signal is in force, the hook already blocked once this turn (stop_hook_active), or a background task runs",
  ],
  ['not enforced', 'the file says active, but the Stop hook will let the agent stop (the detail view says which rule)'],
  ['pending', 'OMC is awaiting confirmation (set less than 2 minutes ago): not enforced yet'],
  ['stale', 'still active on disk, but no Stop-hook timestamp in the last 2 h: the loop is probably dead'],
  ['finished', 'not active, a terminal phase, or completed less than 24 h ago (a tombstone)'],
  [
    'idle',
    'no loop of its own left in the session directory (a file another session owns is judged on its owner’s row)',
  ],
  [
    'unreadable',
    "omc-top may not read a mode file, the session's directory or a file its Stop hook reads (a cancel signal, state/'s session-less copies, ~/.omc/state; OMC writes its files mode 0600: run omc-top as the same user), so what OMC's Stop hook does is unknown and c / p are refused; the mode shows as `ralph ? (unreadable)`",
  ],
  [
    'cancel 12s / pause 12s',
    "a cancel signal is in force: countdown until OMC's Stop hook stops honouring it; pause while the loop keeps its state on disk (it goes on after), cancel while its files are gone or inactive and no omc-top cancel of it is in flight (another tool's signal), or while omc-top's cancel finds the loop active on disk (--json: status paused / cancelling)",
  ],
  [
    'stopping 46s',
    "omc-top's cancel (made in any omc-top process) ended the loop on disk and Claude was in its turn at the cancel and is not seen to stop yet (a status begun since, such as a prompt answered, cannot be told from a new turn: then ended): time since the cancel, past the signal's 30 s too; every surface says it (--json: status_text, cancel_in_flight)",
  ],
  [
    'stopped / cancelled / not taken',
    "after omc-top's cancel, for five minutes, on every surface (the omc-top that followed the cancel records what it saw; --json: status_text, cancel_settled): Claude was seen to stop (✓ in Ns) / the loop ended while Claude was not in a turn / the loop kept running; not while another loop still holds the agent (then that loop's word, e.g. `enforced`)",
  ],
  [
    'ended 12s / ended',
    "omc-top's cancel ended the loop on disk and Claude was not in a turn, or none could be seen (its stop not observed: no ✓): the signal's countdown, on every surface; after it, `ended` for five minutes on every surface when no Claude could be seen or its turn could not be told from the disk",
  ],
  [
    'cancel failed',
    "omc-top's own cancel could only partly be written (a full disk: the signal landed, the mode file did not change) and the loop is still active: the detail and the message say what was written; c cancels again",
  ],
  ['pause over', 'a pause expired and the loop carries on'],
  ['active / inactive', "session detail: OMC's registry view of the file (what state_list_active reports) and why"],
  ['running/blocked/waiting/done', "teams and workers: the status OMC's HUD mission board gives them"],
  ['3/10', 'progress: iteration 3 of at most 10 (tasks done/total for autopilot)'],
  [
    '(retired)',
    "a mode OMC 5.5 no longer runs, on a session judged by 5.5's rules; shown so its leftover file is explained",
  ],
  ['▸', 'the selected row'],
  ['⚠', 'a problem: the file is unreadable or invalid (press ! for the list), or a worker flag'],
  [
    '✓ start / ½ cut / ✗ 650 / ✗ cap',
    'memory: injected at session start / cut short / over the 650-character budget / over the 20-directive cap',
  ],
  ['⏻', 'teams: a shutdown was asked of the worker'],
  ['4w ⚠3', 'teams (WORKERS): 4 workers, 3 of them flagged (no heartbeat, its pid gone, or no beat lately)'],
  ['busy / idle / waiting 3m', 'CLAUDE column: what the Claude Code process behind the session does, and for how long'],
  [
    'exited 14:02',
    "CLAUDE column: the process exited then (UTC; an earlier day: exited Dec 6): omc-top saw it, or Claude Code's exit figures say so",
  ],
  ['gone / unknown / ?', 'CLAUDE column: its process died (the entry outlived it) / no registry entry, never guessed'],
  [
    '!elsewhere',
    'CLAUDE column: its Claude runs from a directory whose hooks read another .omc, so the loop here is orphaned',
  ],
  [
    '!gone / !waiting / !idle',
    'needs you (counted, listed in the ! inbox; the ! goes once acknowledged, a): orphaned loop (c cleans up, J to its pane) / a prompt, with the call it is about / idle with a loop',
  ],
  ['needs you: N', 'header, title, status --tmux: conditions that need your hand now and are not acknowledged (a)'],
  ['$0.0110 est.', 'an estimated cost: only for a model whose price is known (built in, or prices in the config file)'],
  ['n more above / below', 'the list goes on: scroll with j/k, PgUp/PgDn, g/G or the mouse wheel'],
  ['polling / POLLING', 'footer: polling every 1 s, as --poll asks / fell back to polling (the problem line says why)'],
  ['live / NO .omc', 'footer: the file watcher works / the .omc directory is not there (not yet, or gone)'],
];

const contIf = (more: boolean): { cont?: true } => (more ? { cont: true } : {});

function keyRows(rows: ReadonlyArray<{ keys: string; help: string }>, width: number, out: OverlayLine[]): void {
  // The key column is as wide as its widest entry (up to half the screen); longer key lists wrap, never cut.
  const widest = rows.reduce((n, r) => Math.max(n, cells(r.keys)), 0);
  const keyW = Math.max(8, Math.min(widest, Math.floor(width / 2)));
  const textW = Math.max(10, width - keyW - 2);
  for (const r of rows) {
    const keys = wrapText(r.keys, keyW);
    const text = wrapText(r.help, textW);
    for (let i = 0; i < Math.max(keys.length, text.length); i++) {
      const k = keys[i] ?? '';
      out.push({ text: k + ' '.repeat(Math.max(0, keyW - cells(k))) + '  ' + (text[i] ?? ''), ...contIf(i > 0) });
    }
  }
}

export function helpLines(inp: OverlayInputs, width: number): OverlayLine[] {
  const out: OverlayLine[] = [{ text: 'omc-top keys  ·  Esc closes, q quits', tone: 'title' }];
  // The keys of the pane the user is in first: that is what `?` was pressed for.
  const here = inp.panes.find((p) => p.id === inp.current);
  if (here)
    bindingsSection(
      here.title,
      here.bindings,
      inp.readonly,
      width,
      out,
      inp.currentState === undefined ? undefined : { state: inp.currentState, ctx: inp.currentContext },
    );
  out.push({ text: '' }, { text: 'Everywhere (when no text field is open)', tone: 'title' });
  keyRows(
    [
      ...(inp.globals ?? []).map((g) => ({ keys: keysLabel(g.keys), help: g.help })),
      ...inp.panes.map((p) => ({ keys: p.hotkey, help: `open the ${p.title} pane` })),
    ],
    width,
    out,
  );
  for (const p of inp.panes) if (p !== here) bindingsSection(p.title, p.bindings, inp.readonly, width, out);
  for (const x of inp.sections ?? []) bindingsSection(x.title, x.bindings, inp.readonly, width, out);
  if (inp.inbox) bindingsSection('Inbox (!)', inp.inbox, inp.readonly, width, out);
  legendSection(width, out);
  return out;
}

/** One bindings table as a titled help block, its rows grouped by mode (in declaration order). */
function bindingsSection<S, C extends BindingContext<S>>(
  title: string,
  bindings: readonly Binding<S, C>[],
  readonly: boolean,
  width: number,
  out: OverlayLine[],
  here?: { state: S; ctx?: C },
): void {
  let mode: string | null = null;
  const rows = helpRows(bindings, readonly, here);
  out.push({ text: '' }, { text: title, tone: 'title' });
  let group: Array<{ keys: string; help: string }> = [];
  const flush = () => {
    if (group.length > 0) keyRows(group, width, out);
    group = [];
  };
  for (const r of rows) {
    if (r.mode !== mode) {
      flush();
      mode = r.mode;
      if (mode !== '') out.push({ text: ` ${mode}:`, tone: 'muted' });
    }
    group.push(r);
  }
  flush();
}

/**
 * The help of a view with one bindings table and no panes (the fleet, `--all`):
 * the same layout as the app's help — its keys by mode, then the legend. Given the view's state and key context
 * (`here`), a key disabled now says why (`(not now: …)`), as the current pane's keys do in the app's help.
 */
export function tableHelpLines<S, C extends BindingContext<S>>(
  title: string,
  bindings: readonly Binding<S, C>[],
  readonly: boolean,
  width: number,
  here?: { state: S; ctx?: C },
): OverlayLine[] {
  const out: OverlayLine[] = [{ text: `${title} keys  ·  Esc closes, q quits`, tone: 'title' }];
  bindingsSection(title, bindings, readonly, width, out, here);
  legendSection(width, out);
  return out;
}

function legendSection(width: number, out: OverlayLine[]): void {
  out.push({ text: '' }, { text: 'Statuses and symbols', tone: 'title' });
  keyRows(
    LEGEND.map(([keys, help]) => ({ keys, help })),
    width,
    out,
  );
}

export function messageLines(inp: OverlayInputs, width: number): OverlayLine[] {
  const out: OverlayLine[] = [{ text: `Messages (${inp.log.length}, newest last)  ·  Esc closes`, tone: 'title' }];
  if (inp.log.length === 0) out.push({ text: 'No messages yet.' });
  for (const f of inp.log) {
    const mark = f.kind === 'error' ? '✗' : f.kind === 'success' ? '✓' : '·';
    const tone = f.kind === 'error' ? 'error' : f.kind === 'success' ? 'ok' : undefined;
    const wrapped = wrapText(`${formatClock(f.at)} ${mark} ${f.text}`, width);
    wrapped.forEach((w, i) => out.push({ text: w, tone, ...contIf(i > 0) }));
  }
  return out;
}

/**
 * How a confirm dialog uses the rows it is given, for the view and the router alike: from 5 rows a bordered box
 * (border, title and prompt take 4 rows, the body the rest); from 2 rows no border, the title, what body fits, the
 * prompt; in 1 row only the prompt, the line that says which key does what. Never more rows than given.
 */
export function confirmFrame(rows: number): { border: boolean; title: boolean; room: number } {
  if (rows >= 5) return { border: true, title: true, room: rows - 4 };
  if (rows >= 2) return { border: false, title: true, room: rows - 2 };
  return { border: false, title: false, room: 0 };
}

/** The confirm dialog's body lines (their rows: confirmFrame). */
export function confirmLines(lines: readonly string[], width: number): OverlayLine[] {
  const out: OverlayLine[] = [];
  for (const l of lines) for (const w of wrapText(l, Math.max(10, width - 4))) out.push({ text: w });
  return out;
}

/** How many lines an overlay has and how many fit: what the router scrolls by. */
export function overlayShape(o: Overlay, inp: OverlayInputs, body: Size): { total: number; height: number } {
  const w = body.columns;
  if (o.kind === 'confirm') return { total: confirmLines(o.lines, w).length, height: confirmFrame(body.rows).room };
  // The inbox is a list with its own layout (inbox-layout.ts): its bindings move it, not this.
  const lines = o.kind === 'help' ? helpLines(inp, w) : messageLines(inp, w);
  return { total: lines.length, height: body.rows };
}

/** The lines of a text overlay (the help, the message log) at a width. */
export const textOverlayLines = (o: TextOverlay, inp: OverlayInputs, width: number): OverlayLine[] =>
  o.kind === 'help' ? helpLines(inp, width) : messageLines(inp, width);

/** Which entry (a wrapped row counts once) line `i` belongs to. */
function entryOf(lines: readonly OverlayLine[], i: number): number {
  let entry = -1;
  for (let j = 0; j <= Math.min(i, lines.length - 1); j++) if (!lines[j]?.cont) entry++;
  return Math.max(0, entry);
}

/** The first line of entry `entry`. */
function lineOfEntry(lines: readonly OverlayLine[], entry: number): number {
  let seen = -1;
  for (let j = 0; j < lines.length; j++) if (!lines[j]?.cont && ++seen === entry) return j;
  return lines.length;
}

/** Where a scrolled text was scrolled: the width its line numbers count at, and whether that was its end. */
export interface ScrollAnchor {
  columns: number;
  end: boolean;
}

/**
 * The first line of a scrolled text (the help, the message log, the fleet's help) at the size it is drawn at now.
 * Its `scroll` counts the lines of the width it was scrolled at (`at`); after a resize the rows wrap differently,
 * so the entry at the top is kept (not the line number, which would land elsewhere), and a view scrolled to its
 * end stays at the end. `linesAt` gives the text's lines at a width.
 */
export function anchoredScroll(
  scroll: number,
  at: ScrollAnchor | undefined,
  linesAt: (width: number) => OverlayLine[],
  body: Size,
  lines?: OverlayLine[],
): number {
  const now = lines ?? linesAt(body.columns);
  if (at?.end) return maxScroll(now.length, body.rows);
  if (at === undefined || at.columns === body.columns) return scroll;
  return lineOfEntry(now, entryOf(linesAt(at.columns), scroll));
}

/** The anchor of a text scrolled to `scroll` at the size it is drawn at now. */
export const anchorOf = (scroll: number, total: number, body: Size): ScrollAnchor => ({
  columns: body.columns,
  end: total > body.rows && scroll >= maxScroll(total, body.rows),
});

/** The first line a text overlay shows at the size it is drawn at now (anchoredScroll). */
export const textOverlayScroll = (o: TextOverlay, inp: OverlayInputs, body: Size, lines?: OverlayLine[]): number =>
  anchoredScroll(o.scroll, o.at, (w) => textOverlayLines(o, inp, w), body, lines);

/** The overlay scrolled to `scroll` at the size it is drawn at now: remembered with that width, and whether at the end. */
export const scrolledTextOverlay = (o: TextOverlay, scroll: number, total: number, body: Size): TextOverlay => ({
  ...o,
  scroll,
  at: anchorOf(scroll, total, body),
});
