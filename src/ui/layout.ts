/**
 * The app's frame, computed in one place: the view and the key handlers get
 * the same pane size from it (handlers page and clamp with the pane's own
 * rows, not a formula of their own).
 */
import type { Size } from '../kit/pane.js';
import type { Flash } from '../kit/ui-store.js';
import type { StoreStatus } from '../store/store.js';
import { pollingByChoice } from '../store/polling-chosen.js';
import { width as cells, wrapText } from './format.js';

export interface FrameLayout {
  width: number;
  /** Rows the root box uses: one less than the terminal (Ink 6 repaints everything otherwise). */
  height: number;
  problemRows: number;
  /** Rows the message line takes (a long message wraps). */
  messageRows: number;
  /** The pane's own area. */
  body: Size;
}

/**
 * The smallest terminal the frame is drawn in. Below it the frame's lines (at least 20 columns, a header, a body
 * row, a footer) would wrap into each other; the app says so in one line instead (`q` still quits).
 */
export const MIN_COLUMNS = 20;
export const MIN_ROWS = 5;

/** Whether a terminal is too small for the frame: one line says so, and only q and Ctrl-C act (input/router.ts). */
export const tooSmall = (size: Size): boolean => size.columns < MIN_COLUMNS || size.rows < MIN_ROWS;

const NEED = `${MIN_COLUMNS}x${MIN_ROWS}`;
/** The line's wordings, longest first: the size it needs matters most, then how to leave, then whose line it is. */
const TOO_SMALL_WORDS = [
  `omc-top needs ${NEED} (q quits)`,
  `needs ${NEED} (q quits)`,
  `${NEED} (q quits)`,
  `${NEED} q:quit`,
  `need ${NEED}`,
  NEED,
];

/**
 * The one line shown in a terminal smaller than MIN_COLUMNS x MIN_ROWS: the longest wording that fits its width (the
 * last column is left free, so the terminal does not wrap), never a wording cut in the middle of a word.
 */
export function tooSmallLine(columns: number): string {
  const room = Math.max(1, columns - 1);
  return TOO_SMALL_WORDS.find((w) => w.length <= room) ?? NEED.slice(0, room);
}

export function frameLayout(terminal: Size, problemCount: number, flash: Flash | null = null): FrameLayout {
  const height = Math.max(3, terminal.rows - 1);
  const width = Math.max(20, terminal.columns);
  const problemRows = problemCount === 0 ? 0 : height >= 20 ? 2 : 1;
  const messageRows = messageLines(flash, width, height).length;
  // header, message lines, footer
  const rows = Math.max(1, height - 2 - messageRows - problemRows);
  return { width, height, problemRows, messageRows, body: { columns: width, rows } };
}

/**
 * The message line's rows: a message longer than the line wraps onto the rows
 * above the footer (a cancel's reason is read whole, not cut to `…`), up to a
 * sixth of the screen; beyond that its last row says where the rest is (`M`,
 * the message log, keeps every message in full).
 */
export function messageLines(flash: Flash | null, width: number, height: number): string[] {
  if (!flash) return [' '];
  const mark = flash.kind === 'error' ? '✗ ' : flash.kind === 'success' ? '✓ ' : '';
  const lines = wrapText(`${mark}${flash.text}`, width);
  const max = Math.max(1, Math.min(6, Math.floor(height / 4)));
  if (lines.length <= max) return lines;
  const more = ' … M: full message';
  const last = Array.from(lines[max - 1] as string);
  while (last.length > 0 && cells(last.join('')) > width - more.length) last.pop();
  return [...lines.slice(0, max - 1), last.join('').trimEnd() + more];
}

/**
 * Not watching live for want of watches (the polling fallback, saying why) or no .omc (not yet, or gone) is itself a
 * problem line the user must see. Polling the user asked for with --poll is not: the footer says `polling`.
 */
export function shownProblems<P extends { path: string; message: string; severity: string }>(
  status: StoreStatus,
  fileProblems: readonly P[],
): ReadonlyArray<P | { path: string; message: string; severity: 'warning' }> {
  const notLive = status.watchMode === 'waiting' || (status.watchMode === 'polling' && !pollingByChoice(status));
  return notLive
    ? [{ path: '.omc', message: status.watchDetail, severity: 'warning' as const }, ...fileProblems]
    : fileProblems;
}
