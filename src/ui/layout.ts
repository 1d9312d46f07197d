/**
 * The app's frame, computed in one place: the view and the key handlers get
 * the same pane size from it (handlers page and clamp with the pane's own
 * rows, not a formula of their own).
 */
import type { Size } from '../kit/pane.js';

export interface FrameLayout {
  width: number;
  /** Rows the root box uses: one less than the terminal (Ink 6 repaints everything otherwise). */
  height: number;
  problemRows: number;
  /** The pane's own area. */
  body: Size;
}

export function frameLayout(terminal: Size, problemCount: number): FrameLayout {
  const height = Math.max(3, terminal.rows - 1);
  const width = Math.max(20, terminal.columns);
  const problemRows = problemCount === 0 ? 0 : height >= 20 ? 2 : 1;
  // header, message line, footer
  const rows = Math.max(1, height - 3 - problemRows);
  return { width, height, problemRows, body: { columns: width, rows } };
}

/** Not watching live (polling fallback, no .omc yet) is itself a problem line the user must see. */
export function shownProblems<P extends { path: string; message: string; severity: string }>(
  status: { watchMode: string; watchDetail: string },
  fileProblems: readonly P[],
): ReadonlyArray<P | { path: string; message: string; severity: 'warning' }> {
  return status.watchMode === 'polling' || status.watchMode === 'waiting'
    ? [{ path: '.omc', message: status.watchDetail, severity: 'warning' as const }, ...fileProblems]
    : fileProblems;
}
