/**
 * Pure text of one history row and the column header, so the view stays thin
 * and tests can pin what a user reads at 60, 80 and 200 columns. Columns that
 * do not fit are dropped whole (least needed first), never cut mid-value.
 */
import type { ClaudeSnapshot } from '../../store/claude/model.js';
import type { Tokens } from '../../store/claude/transcript-facts.js';
import type { RunSpent } from '../../store/cost/rollup.js';
import { spendCell, type Reading } from '../../store/cost/spend.js';
import type { RunLine } from '../../store/runs/history.js';
import { cell, fit } from '../../ui/format.js';

export interface HistoryColumns {
  mode: number;
  session: number;
  started: number;
  ended: number;
  duration: number;
  outcome: number;
  closeout: number;
  iterations: number;
  tokens: number;
  cost: number;
  /** Who ended it / OMC's reason: the rest of a wide row. */
  note: number;
}

const MARKER = 2;

/** The widths for a pane `width` cells wide; 0 = the column is left out. */
export function historyColumns(width: number): HistoryColumns {
  const c: HistoryColumns = {
    mode: 10,
    session: 9,
    started: 0,
    ended: 0,
    duration: 6,
    outcome: 10,
    closeout: 9,
    iterations: 5,
    tokens: 0,
    cost: 0,
    note: 0,
  };
  let room = width - MARKER - (c.mode + c.session + c.duration + c.outcome + c.closeout + c.iterations);
  // What a user asks of a run first: when it ran (the time of day alone in a narrow pane); then what it
  // cost; then when it ended.
  c.started = room >= 12 ? 12 : room >= 6 ? 6 : 0;
  room -= c.started;
  for (const [k, w] of [
    // `$0.0036+sub…` whole (a cell keeps its last place blank), as the Cost pane's spend column.
    ['cost', 13],
    ['tokens', 8],
    ['ended', 12],
  ] as const) {
    if (room >= w) {
      c[k] = w;
      room -= w;
    }
  }
  if (room >= 12) c.note = room;
  return c;
}

/** "12-01 14:02" in UTC (the app's one time zone), "14:02" when `w` is narrow, "—" when unknown. */
export function shortTime(ms: number | null, w = 12): string {
  if (ms === null) return '—';
  const iso = new Date(ms).toISOString();
  return w >= 12 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16);
}

/** "45s", "12m", "3h05", "2d4h". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${String(m % 60).padStart(2, '0')}`;
  return `${Math.floor(h / 24)}d${h % 24}h`;
}

/** "980", "12.3k", "4.1M". */
export function formatTokens(n: number | null): string {
  if (n === null) return '—';
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function closeoutText(r: RunLine): string {
  return r.closeoutWritten === null ? '—' : r.closeoutWritten ? 'written' : 'missing';
}

/** The session's tokens from its Claude Code transcript (per session: a run is one loop of it). */
export function sessionTokens(claude: ClaudeSnapshot | null, r: RunLine): Tokens | null {
  if (!claude || r.sessionId === null) return null;
  const t = claude.bySession.get(r.sessionId)?.transcript;
  return t ? t.facts.tokens : null;
}

export function runNote(r: RunLine): string {
  return [
    // An outcome OMC does not write: the row says what the end line held (`unknown` alone would hide it).
    r.outcome === 'unknown'
      ? `outcome ${r.outcomeWritten === null ? 'missing' : JSON.stringify(r.outcomeWritten)}`
      : '',
    r.endedBy ? `ended by ${r.endedBy}` : '',
    r.reason ?? '',
    r.source === 'session-summary' ? 'summary' : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * A run's cost cell, the fleet row's rule (spendCell): "$0.42", "$0.42+sub…" while its session's subagent files
 * are still being read (a lower bound), "$0.42+…" while the rest of its transcript is, "$0.42+part" when part of it is never read, "unpriced", "…" (nothing yet, still reading), "—" (no transcript, or
 * nothing in the run's window).
 */
export function costCell(spend: RunSpent | null, reading: Reading | boolean = false): string {
  const e = spend?.estimate;
  return spendCell(e && e.priced.length > 0 ? e.usd : null, (e?.unpriced.length ?? 0) > 0, reading);
}

/** What a run's row shows, each cell whole: historyRowText cuts them to their columns, the `/` filter reads them. */
export function runCells(r: RunLine, spend: RunSpent | null, reading: Reading | boolean = false) {
  return {
    mode: r.mode,
    session: r.sessionId === null ? 'legacy' : r.sessionId,
    started: shortTime(r.startedMs),
    outcome: r.outcome,
    took: formatDuration(r.durationMs),
    closeout: closeoutText(r),
    iterations: r.iterations === null ? '—' : String(r.iterations),
    cost: costCell(spend, reading),
    tokens: formatTokens(spend ? spend.tokens : null),
    ended: shortTime(r.endedMs),
    note: runNote(r),
  };
}

export function historyRowText(
  r: RunLine,
  width: number,
  selected: boolean,
  spend: RunSpent | null,
  /** What of the run's session is still being read (stillReading; true: its subagent files). */
  reading: Reading | boolean = false,
): { marker: string; cells: string } {
  const c = historyColumns(width);
  const v = runCells(r, spend, reading);
  const cells = [
    cell(v.mode, c.mode),
    cell(r.sessionId === null ? v.session : v.session.slice(0, c.session - 1), c.session),
    // A narrow column has the time of day alone (the filter reads the date too).
    c.started ? cell(shortTime(r.startedMs, c.started), c.started) : '',
    cell(v.outcome, c.outcome),
    cell(v.took, c.duration),
    cell(v.closeout, c.closeout),
    cell(v.iterations, c.iterations),
    c.cost ? cell(v.cost, c.cost) : '',
    c.tokens ? cell(v.tokens, c.tokens) : '',
    c.ended ? cell(v.ended, c.ended) : '',
    c.note ? cell(v.note, c.note) : '',
  ].join('');
  return { marker: selected ? '▸ ' : '  ', cells };
}

export function historyHeader(width: number): string {
  const c = historyColumns(width);
  return (
    '  ' +
    fit('MODE', c.mode) +
    fit('SESSION', c.session) +
    (c.started ? fit(c.started >= 12 ? 'STARTED' : 'START', c.started) : '') +
    fit('OUTCOME', c.outcome) +
    fit('TOOK', c.duration) +
    fit('CLOSEOUT', c.closeout) +
    fit('ITER', c.iterations) +
    (c.cost ? fit('COST EST', c.cost) : '') +
    (c.tokens ? fit('TOKENS', c.tokens) : '') +
    (c.ended ? fit('ENDED', c.ended) : '') +
    (c.note ? fit('NOTE', c.note) : '')
  );
}
