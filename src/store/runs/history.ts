/**
 * The run history model: one line per run of a watched unattended mode.
 *
 * From the ledger: a `start` opens a run for (mode, session); the next `end`
 * for the same key closes it with the end's outcome. A repeated `start` while
 * open is the same run (OMC's MCP server forgets what it logged when it
 * restarts). A start never ended is `running` while its state file is still
 * `active: true`, otherwise `crashed` — exactly what OMC 5.6's reconciliation
 * sees. An `end` whose start rotated away still makes a line (started unknown).
 * An `end` whose outcome is not one OMC writes is `unknown` (what it said is
 * kept in `outcomeWritten`), never taken for a cancel.
 * Sessions with no ledger lines (OMC before 5.6) come from their ended-session
 * summary: one line per mode it used, outcome `ended` with OMC's reason.
 */
import type { LedgerEntry } from './ledger.js';
import type { SessionSummary } from './summaries.js';

export type RunOutcome = 'running' | 'completed' | 'cancelled' | 'failed' | 'crashed' | 'ended' | 'unknown';

export interface RunLine {
  mode: string;
  /** null = session-less (legacy) state. */
  sessionId: string | null;
  startedMs: number | null;
  endedMs: number | null;
  durationMs: number | null;
  outcome: RunOutcome;
  /** The end line's `outcome` as written (every character shown); null without an end line or an outcome. */
  outcomeWritten: string | null;
  /** From the ledger's end line (OMC's notepads/<mode>/ mtime test); null when unknown. */
  closeoutWritten: boolean | null;
  /** Highest iteration seen (live state or omc-top's own samples); null when unknown. */
  iterations: number | null;
  source: 'ledger' | 'session-summary';
  /** "omc-top" when omc-top's cancel wrote the end line. */
  endedBy: string | null;
  /** Session-end reason from the summary (clear, logout, prompt_input_exit, …). */
  reason: string | null;
  /** file:line of the lines this run came from. */
  where: string[];
}

export interface HistoryInputs {
  ledger: readonly LedgerEntry[];
  summaries: readonly SessionSummary[];
  /** Is this mode's state for this session still `active: true` on disk? */
  isActive(mode: string, sessionId: string | null): boolean;
  /** Iterations reached, from the live state or omc-top's samples. */
  iterationsOf?(mode: string, sessionId: string | null, startedMs: number | null): number | null;
}

const keyOf = (mode: string, sid: string | null) => `${mode}\u0000${sid ?? ''}`;

/**
 * How long a run took; null when not known, and when its end is dated before its start (the clock moved back
 * between OMC's two lines): `0s` there would be a measurement nobody made.
 */
function spanMs(startedMs: number | null, endedMs: number | null): number | null {
  return startedMs === null || endedMs === null || endedMs < startedMs ? null : endedMs - startedMs;
}

export function deriveRuns(input: HistoryInputs): RunLine[] {
  const open = new Map<string, RunLine>();
  const out: RunLine[] = [];
  const ledgerSessions = new Set<string>();
  for (const e of input.ledger) {
    if (e.sessionId) ledgerSessions.add(e.sessionId);
    const k = keyOf(e.run, e.sessionId);
    const cur = open.get(k);
    if (e.event === 'start') {
      if (cur) cur.where.push(e.where);
      else open.set(k, blank(e));
      continue;
    }
    const run = cur ?? { ...blank(e), startedMs: null };
    if (cur) {
      open.delete(k);
      run.where.push(e.where);
    }
    run.endedMs = e.tsMs;
    run.outcome =
      e.outcome === 'completed' || e.outcome === 'failed' || e.outcome === 'cancelled' ? e.outcome : 'unknown';
    run.outcomeWritten = e.outcomeWritten;
    run.closeoutWritten = e.closeoutWritten;
    run.endedBy = e.source;
    run.durationMs = spanMs(run.startedMs, run.endedMs);
    out.push(run);
  }
  for (const run of open.values()) {
    run.outcome = input.isActive(run.mode, run.sessionId) ? 'running' : 'crashed';
    out.push(run);
  }
  for (const s of input.summaries) {
    if (ledgerSessions.has(s.sessionId)) continue;
    for (const mode of s.modesUsed) {
      out.push({
        mode,
        sessionId: s.sessionId,
        startedMs: s.startedMs,
        endedMs: s.endedMs,
        durationMs: s.durationMs !== null && s.durationMs >= 0 ? s.durationMs : spanMs(s.startedMs, s.endedMs),
        outcome: 'ended',
        outcomeWritten: null,
        closeoutWritten: null,
        iterations: null,
        source: 'session-summary',
        endedBy: null,
        reason: s.reason,
        where: [s.path],
      });
    }
  }
  if (input.iterationsOf) for (const r of out) r.iterations = input.iterationsOf(r.mode, r.sessionId, r.startedMs);
  // Newest first: by end (or start, for open runs).
  return out.sort((a, b) => (b.endedMs ?? b.startedMs ?? 0) - (a.endedMs ?? a.startedMs ?? 0));
}

function blank(e: LedgerEntry): RunLine {
  return {
    mode: e.run,
    sessionId: e.sessionId,
    startedMs: e.tsMs,
    endedMs: null,
    durationMs: null,
    outcome: 'running',
    outcomeWritten: null,
    closeoutWritten: null,
    iterations: null,
    source: 'ledger',
    endedBy: null,
    reason: null,
    where: [e.where],
  };
}

export interface RunFilter {
  mode?: string | null;
  outcome?: RunOutcome | null;
}

export function filterRuns(runs: readonly RunLine[], f: RunFilter): RunLine[] {
  return runs.filter((r) => (!f.mode || r.mode === f.mode) && (!f.outcome || r.outcome === f.outcome));
}

/** The filter values the History pane can cycle through, from the runs present. */
export function filterChoices(runs: readonly RunLine[]): { modes: string[]; outcomes: RunOutcome[] } {
  const modes = [...new Set(runs.map((r) => r.mode))].sort();
  const order: RunOutcome[] = ['running', 'completed', 'cancelled', 'failed', 'crashed', 'ended', 'unknown'];
  const present = new Set(runs.map((r) => r.outcome));
  return { modes, outcomes: order.filter((o) => present.has(o)) };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The `--json` "runs" entries. */
export function runsJson(runs: readonly RunLine[]): Record<string, unknown>[] {
  return runs.map((r) => ({
    mode: r.mode,
    session: r.sessionId,
    started_at: iso(r.startedMs),
    ended_at: iso(r.endedMs),
    duration_ms: r.durationMs,
    outcome: r.outcome,
    // What the end line said, so a script can tell an `unknown` apart (and see OMC's own word for the others).
    ledger_outcome: r.outcomeWritten,
    closeout_written: r.closeoutWritten,
    iterations: r.iterations,
    source: r.source,
    ended_by: r.endedBy,
    reason: r.reason,
  }));
}
