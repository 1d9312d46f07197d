/**
 * Pure text layout of one session row, so views stay thin and tests can pin
 * what a user reads at 60, 80 and 200 columns.
 */
import type { TrackedCancel } from '../../store/cancel/tracker.js';
import { holdsAgent, signalUntilMs, type ModeView, type SessionView } from '../../store/sessions/model.js';
import { modeSummary, promptText, sessionLabel, statusWords, unknownModesText } from '../../store/sessions/summary.js';
import { cell, fit, formatAge, width as textWidth } from '../../ui/format.js';
import { cellText, type ProcessCell } from './agent-cell.js';
import { CANCEL_FAILED } from '../../store/cancel/words.js';
import { flightText, rowFlight, trackedFlight, type FlightWord } from '../../store/cancel/in-flight.js';
import type { CancelRecord } from '../../store/cancel/cancel-records.js';
import type { ClaudeSessionView } from '../../store/claude/model.js';
import { failedNeed } from '../../feeds/attention/needs.js';
import {
  rowSettled,
  settledHides,
  settledText,
  SETTLED_SHOW_MS,
  type SettledWord,
} from '../../store/cancel/settled.js';

/** How long a settled verdict ("cancelled", "not taken") stays on the row (store/cancel/settled.ts); the detail keeps it. */
export { SETTLED_SHOW_MS };
/** A pause that ended hands the row back to the loop's live status quickly. */
export const PAUSE_OVER_SHOW_MS = 10_000;

/**
 * The cancel omc-top made on this row, while it is worth showing there. "not taken" names a loop active again: once
 * the session holds no loop any more (OMC's own /cancel, the serve page, the loop's end) the row follows the disk, as
 * it does once a loop a settled cancel ended is started anew; the detail view keeps what omc-top's cancel came to.
 */
export function rowCancel(
  t: TrackedCancel | undefined,
  now: number,
  s?: Pick<SessionView, 'modes'>,
): TrackedCancel | undefined {
  if (!t) return undefined;
  if (t.phase === 'not-taken' && s && !s.modes.some(holdsAgent)) return undefined;
  // A loop it ended that is active again was started anew: the row follows the disk too (store/cancel/settled.ts).
  const ended = t.phase === 'stopped' || t.phase === 'cancelled' || t.phase === 'unobserved';
  if (ended && s && s.modes.some((m) => m.active && t.modes.includes(m.mode))) return undefined;
  if (!t.final || t.settledMs === null) return t;
  return now - t.settledMs < (t.phase === 'pause-over' ? PAUSE_OVER_SHOW_MS : SETTLED_SHOW_MS) ? t : undefined;
}

/** What a row's status word is made of, from omc-top's cancels: the Sessions pane's rows and the Cost pane's. */
export interface RowCancelWords {
  /** This monitor's own cancel, while worth showing (rowCancel). */
  tracked: TrackedCancel | undefined;
  flight: FlightWord | null;
  settled: SettledWord | null;
  /** Another omc-top's cancel of it failed half-way, its loop still active (its record). */
  failedElsewhere: boolean;
}

/** The pieces of a row's status word (statusLabel), from this monitor's tracker entry and the shared record. */
export function rowCancelWords(
  s: SessionView,
  tracked: TrackedCancel | undefined,
  rec: CancelRecord | undefined,
  claude: ClaudeSessionView | undefined,
  now: number,
): RowCancelWords {
  const shown = rowCancel(tracked, now, s);
  return {
    tracked: shown,
    flight: rowFlight(shown, rec, s, claude, now),
    settled: rowSettled(shown, rec, s, now),
    failedElsewhere: rec !== undefined && failedNeed(rec, s) !== null,
  };
}

const TRACKED_LABEL: Record<TrackedCancel['phase'], string> = {
  ended: 'stopping',
  waiting: 'cancel',
  paused: 'pause',
  stopped: 'stopped',
  cancelled: 'cancelled',
  unobserved: 'ended',
  'not-taken': 'not taken',
  failed: CANCEL_FAILED,
  'pause-over': 'pause over',
};

/** The tracker's phases that say the loop ended (in flight: stopping, ended; settled: stopped, cancelled, ended). */
const SAYS_ENDED: ReadonlySet<TrackedCancel['phase']> = new Set(['ended', 'stopped', 'cancelled', 'unobserved']);

/** Tone of a settled word (store/cancel/settled.ts), the same as the tracker's phase it names. */
export function settledTone(w: SettledWord): 'ok' | 'error' | 'muted' {
  return w.word === 'not-taken' ? 'error' : w.word === 'ended' ? 'muted' : 'ok';
}

/** Tone of a tracked cancel, for the status colour. */
export function trackedTone(t: TrackedCancel): 'ok' | 'warn' | 'error' | 'muted' | 'cancelling' {
  switch (t.phase) {
    case 'stopped':
    case 'cancelled':
      return 'ok';
    case 'unobserved':
      return 'muted';
    case 'waiting':
      return 'warn';
    case 'not-taken':
    case 'failed':
      return 'error';
    case 'pause-over':
      return 'muted';
    default:
      return 'cancelling';
  }
}

export interface Columns {
  status: number;
  /** The Claude process cell; 0 when the pane is too narrow for it. */
  proc: number;
  id: number;
  modes: number;
  /** The prompt / task excerpt; 0 when there is no room for it. */
  prompt: number;
  age: number;
}

/** A full session id (a UUID) and the space after it. */
const FULL_ID = 37;
/** From this width on, rows get a prompt column and longer ids. */
export const WIDE = 120;

/** Column widths for a pane `width` cells wide (2 cells go to the selection marker): the extra room goes to the text. */
export function columnsFor(width: number): Columns {
  // "cancel failed" plus a space: the widest status a row shows.
  const status = 14;
  const age = 5;
  const proc = procColumn(width);
  if (width < WIDE) {
    // 8 characters identify a UUID session as well as git's short hashes do.
    const id = 9;
    return { status, proc, id, modes: Math.max(8, width - 2 - status - proc - id - age), prompt: 0, age };
  }
  const rest = width - 2 - status - proc - age;
  const id = rest >= 150 ? FULL_ID : Math.min(FULL_ID, Math.max(9, Math.floor(rest * 0.2)));
  const prompt = Math.floor((rest - id) * 0.45);
  return { status, proc, id, modes: rest - id - prompt, prompt, age };
}

/**
 * The process cell's width: "!waiting 12m" or "!exited 14:02" and a space from 80 columns on, the
 * word alone ("!waiting") in a 60-column pane, nothing below 50 (the modes keep room).
 */
export function procColumn(width: number): number {
  if (width >= 80) return 14;
  if (width >= 50) return 9;
  return 0;
}
/**
 * The row's status word. `failedElsewhere`: another omc-top's cancel of this session failed half-way and its loop is
 * still active (its record, feeds/attention/needs.ts failedNeed): said as this monitor says its own, no countdown.
 * `flight`: the word of a cancel in flight (store/cancel/in-flight.ts rowFlight: this monitor's own, or another
 * omc-top's from its record), the one every surface says; `settled`: the settled word of one (store/cancel/settled.ts
 * rowSettled), likewise; without them, this monitor's own cancel's.
 */
export function statusLabel(
  s: SessionView,
  now: number,
  tracked?: TrackedCancel,
  failedElsewhere = false,
  flight: FlightWord | null = null,
  settled: SettledWord | null = null,
): string {
  if (!tracked && failedElsewhere) return CANCEL_FAILED;
  // A cancel that ended its loop while another loop still holds the agent (settled.ts settledHides): the
  // store's word for that loop, as every surface says it, not "stopping" / "ended" / "cancelled".
  const own = tracked && !(SAYS_ENDED.has(tracked.phase) && settledHides(s)) ? tracked : undefined;
  const inFlight = flight ?? (own ? trackedFlight(own, now) : null);
  if (inFlight) return flightText(inFlight, now);
  const done = settled ?? (own ? rowSettled(own, undefined, s, now) : null);
  if (done) return settledText(done);
  if (own) {
    const label = TRACKED_LABEL[own.phase];
    if (own.final) return label;
    // A pause: the live countdown of the signal omc-top wrote (OMC honours it for exactly 30 s).
    return `${label} ${Math.max(0, Math.ceil((own.expiresMs - now) / 1000))}s`;
  }
  const until = signalUntilMs(s);
  if (until !== null) {
    // Counts down to when the Stop hook stops honouring the signal (not just its expires_at); the word is the
    // store's, read from the disk, so a monitor that did not write the signal says the same.
    const left = Math.max(0, Math.ceil((until - now) / 1000));
    return `${s.status === 'paused' ? 'pause' : 'cancel'} ${left}s`;
  }
  return statusWords(s.status);
}

export { statusWords };

export function shortId(id: string, w: number): string {
  return id.length <= w - 1 ? id : id.slice(0, Math.max(1, w - 1));
}

/** Every mode with its phase when that fits the column, else the phases only of modes whose phase is their progress. */
function summarise(modes: readonly ModeView[], width: number): string {
  const full = modes.map((m) => modeSummary(m, true)).join(' · ');
  return textWidth(full) <= width ? full : modes.map((m) => modeSummary(m, false)).join(' · ');
}

/**
 * The MODES cell: what the disk holds, whichever omc-top made a cancel of it. The cancel's own word is in the
 * STATUS cell (the same on every surface); this monitor's story of its own cancel is in the detail and the message
 * log, so a cancel made from serve, another monitor or `omc-top cancel` reads the same here (sweep 10 §6, §10).
 */
export function modesText(s: SessionView, width: number): string {
  if (s.modes.length === 0) {
    const unknown = unknownModesText(s);
    if (unknown !== null) return unknown;
    if (s.problems.length > 0) return `⚠ ${s.problems[0]?.message ?? 'problem'}`;
    if (s.cancel) return `no modes left (cancel signal from ${s.cancel.source ?? 'unknown'})`;
    return s.ended ? `ended${s.ended.reason ? ` (${s.ended.reason})` : ''}` : 'no modes';
  }
  return summarise(s.modes, width);
}

/** "waits: Bash rm -rf ./cache" (the call Claude asks about), "waits: permission prompt" without one. */
export function waitsText(cell: ProcessCell): string {
  const w = cell.attention.find((a) => a.waiting)?.waiting;
  if (!w) return '';
  return `waits: ${w.call ? `${w.call.name}${w.call.arg ? ` ${w.call.arg}` : ''}` : w.for}`;
}

/** The AGE cell's text: when the session last changed, as the row shows it at `now`. */
export const ageText = (s: SessionView, now: number): string => formatAge(s.updatedMs, now);

/** The words of the CLAUDE cell and the `waits:` text the row draws, for the `/` filter (the whole longest form). */
export function processSearchText(cell: ProcessCell): string {
  return `${cell.variants[0] ?? ''} ${waitsText(cell)}`.toLowerCase();
}

export interface RowText {
  marker: string;
  status: string;
  proc: string;
  id: string;
  modes: string;
  prompt: string;
  age: string;
}

export function rowText(
  s: SessionView,
  now: number,
  width: number,
  selected: boolean,
  tracked?: TrackedCancel,
  proc?: ProcessCell,
  failedElsewhere = false,
  flight: FlightWord | null = null,
  settled: SettledWord | null = null,
): RowText {
  const c = columnsFor(width);
  const waits = proc ? waitsText(proc) : '';
  return {
    marker: selected ? '▸ ' : '  ',
    status: cell(statusLabel(s, now, tracked, failedElsewhere, flight, settled), c.status),
    proc: c.proc > 0 ? fit(` ${proc ? cellText(proc, c.proc - 1) : ''}`, c.proc) : '',
    id: fit(shortId(sessionLabel(s), c.id), c.id),
    // What Claude waits on comes first: it is what the user acts on, and it must survive a narrow column.
    modes: cell(
      waits ? `${waits} · ${modesText(s, Math.max(0, c.modes - 1 - textWidth(waits) - 3))}` : modesText(s, c.modes - 1),
      c.modes,
    ),
    prompt: c.prompt > 0 ? cell(promptText(s), c.prompt) : '',
    age: fit(ageText(s, now).padStart(c.age - 1), c.age),
  };
}

/**
 * The column titles with the list's note (sort, hidden count, "↓3 more") in
 * the blank run before AGE, right-aligned there, or, when it is too narrow
 * for the whole note (the prompt column is on), in the widest blank run after
 * an earlier title: the note never covers a title. What fits nowhere is left
 * out, least useful first (the sort label, then the hidden count, then the
 * long form of the scroll note).
 */
export function withListNote(
  titles: string,
  note: { sort: string; hidden: string; scroll: string; scrollShort: string },
): string {
  const age = /^(.*\S)( +)AGE/.exec(titles);
  if (!age) return titles;
  // Blank runs between two titles (the one before AGE first), each as [index of its first space, its length].
  const beforeAge: [number, number] = [(age[1] as string).length, (age[2] as string).length];
  const others = [...titles.slice(0, beforeAge[0]).matchAll(/(?<=\S) {2,}(?=\S)/g)]
    .map((m): [number, number] => [m.index, m[0].length])
    .sort((a, b) => b[1] - a[1]);
  const runs = [beforeAge, ...others];
  const join = (...parts: string[]) => parts.filter(Boolean).join(' · ');
  const candidates = [
    join(note.sort, note.hidden, note.scroll),
    join(note.hidden, note.scroll),
    join(note.hidden, note.scrollShort),
    note.scroll,
    note.scrollShort,
  ];
  for (const text of candidates) {
    if (text === '') continue;
    const run = runs.find(([, len]) => textWidth(text) <= len - 4);
    if (!run) continue;
    const [at, len] = run;
    return `${titles.slice(0, at)}${' '.repeat(len - textWidth(text) - 2)}${text}  ${titles.slice(at + len)}`;
  }
  return titles;
}

export function headerText(width: number): string {
  const c = columnsFor(width);
  return (
    '  ' +
    fit('STATUS', c.status) +
    fit('SESSION', c.id) +
    fit('MODES', c.modes) +
    (c.prompt > 0 ? fit('PROMPT / TASK', c.prompt) : '') +
    fit('  AGE', c.age) +
    // Last, so the columns before it keep their places (scripts and tests read rows from the left).
    (c.proc > 0 ? fit(' CLAUDE', c.proc) : '')
  );
}
