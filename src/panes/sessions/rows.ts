/**
 * Pure text layout of one session row, so views stay thin and tests can pin
 * what a user reads at 60, 80 and 200 columns.
 */
import type { TrackedCancel } from '../../store/cancel/tracker.js';
import type { ModeView, SessionView } from '../../store/sessions/model.js';
import { modeSpec } from '../../store/sessions/modes.js';
import { fit, formatAge, progressText } from '../../ui/format.js';

/** How long a settled verdict ("cancelled", "not taken") stays on the row; the detail view keeps it. */
export const SETTLED_SHOW_MS = 5 * 60_000;
/** A pause that ended hands the row back to the loop's live status quickly. */
export const PAUSE_OVER_SHOW_MS = 10_000;

/** The cancel omc-top made on this row, while it is worth showing there. */
export function rowCancel(t: TrackedCancel | undefined, now: number): TrackedCancel | undefined {
  if (!t) return undefined;
  if (!t.final || t.settledMs === null) return t;
  return now - t.settledMs < (t.phase === 'pause-over' ? PAUSE_OVER_SHOW_MS : SETTLED_SHOW_MS) ? t : undefined;
}

const TRACKED_LABEL: Record<TrackedCancel['phase'], string> = {
  ended: 'cancel',
  waiting: 'cancel',
  paused: 'pause',
  cancelled: 'cancelled',
  'not-taken': 'not taken',
  'pause-over': 'pause over',
};

/** Tone of a tracked cancel, for the status colour. */
export function trackedTone(t: TrackedCancel): 'ok' | 'warn' | 'error' | 'muted' | 'cancelling' {
  switch (t.phase) {
    case 'ended':
    case 'cancelled':
      return 'ok';
    case 'waiting':
      return 'warn';
    case 'not-taken':
      return 'error';
    case 'pause-over':
      return 'muted';
    default:
      return 'cancelling';
  }
}

export interface Columns {
  status: number;
  id: number;
  modes: number;
  age: number;
}

/** Column widths for a pane `width` cells wide (2 cells go to the selection marker). */
export function columnsFor(width: number): Columns {
  // "not enforced" plus a space: the widest status a row shows.
  const status = 13;
  // 8 characters identify a UUID session as well as git's short hashes do.
  const id = 9;
  const age = 5;
  const modes = Math.max(8, width - 2 - status - id - age);
  return { status, id, modes, age };
}

export function statusLabel(s: SessionView, now: number, tracked?: TrackedCancel): string {
  if (tracked) {
    const label = TRACKED_LABEL[tracked.phase];
    // The live countdown of the signal omc-top wrote: OMC honours it for exactly 30 s.
    return tracked.final ? label : `${label} ${Math.max(0, Math.ceil((tracked.expiresMs - now) / 1000))}s`;
  }
  if (s.status === 'cancelling' && s.cancel?.untilMs != null) {
    // Counts down to when the Stop hook stops honouring the signal (not just its expires_at).
    const left = Math.max(0, Math.ceil((s.cancel.untilMs - now) / 1000));
    return `cancel ${left}s`;
  }
  return statusWords(s.status);
}

/** Status values are identifiers ("not-enforced"); the screen says them in words. */
export function statusWords(status: string): string {
  return status.replace('-', ' ');
}

export function shortId(id: string, w: number): string {
  return id.length <= w - 1 ? id : id.slice(0, Math.max(1, w - 1));
}

export function modeSummary(m: ModeView, wide: boolean): string {
  const parts = [m.mode];
  const prog = progressText(m.iteration, m.max);
  if (prog) parts.push(prog);
  if (m.phase && (wide || modeSpec(m.mode).phaseInRow || prog === '')) parts.push(m.phase);
  if (m.retired) parts.push('(retired)');
  if (m.problem) parts.push('⚠');
  return parts.join(' ');
}

export function modesText(s: SessionView, width: number, tracked?: TrackedCancel): string {
  if (tracked) {
    const rest = s.modes
      .filter((m) => m.active && !tracked.modes.includes(m.mode))
      .map((m) => modeSummary(m, width >= 60));
    return [tracked.text, ...rest].join(' · ');
  }
  if (s.modes.length === 0) {
    if (s.problems.length > 0) return `⚠ ${s.problems[0]?.message ?? 'problem'}`;
    if (s.cancel) return `no modes left (cancel signal from ${s.cancel.source ?? 'unknown'})`;
    return s.ended ? `ended${s.ended.reason ? ` (${s.ended.reason})` : ''}` : 'no modes';
  }
  const wide = width >= 60;
  return s.modes.map((m) => modeSummary(m, wide)).join(' · ');
}

export interface RowText {
  marker: string;
  status: string;
  id: string;
  modes: string;
  age: string;
}

export function rowText(
  s: SessionView,
  now: number,
  width: number,
  selected: boolean,
  tracked?: TrackedCancel,
): RowText {
  const c = columnsFor(width);
  return {
    marker: selected ? '▸ ' : '  ',
    status: fit(statusLabel(s, now, tracked), c.status),
    id: fit(shortId(s.id, c.id), c.id),
    modes: fit(modesText(s, c.modes, tracked), c.modes),
    age: fit(formatAge(s.updatedMs, now).padStart(c.age - 1), c.age),
  };
}

export function headerText(width: number): string {
  const c = columnsFor(width);
  return '  ' + fit('STATUS', c.status) + fit('SESSION', c.id) + fit('MODES', c.modes) + fit('  AGE', c.age);
}
