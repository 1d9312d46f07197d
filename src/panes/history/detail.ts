/**
 * The lines of a run's detail view: everything the history knows about it,
 * where each fact came from, and what OMC 5.6 will say about it at the next
 * session start (with the fix). All text is already cleaned by the store.
 */
import type { ClaudeSnapshot } from '../../store/claude/model.js';
import { tokenTotal } from '../../store/claude/transcript-facts.js';
import { explainOmc56Path } from '../../store/omc56/known-files.js';
import type { NextSessionFact } from '../../store/omc56/next-session.js';
import type { BudgetReading } from '../../store/omc56/budget-log.js';
import type { RunLine, RunOutcome } from '../../store/runs/history.js';
import { END_OUTCOMES } from '../../store/runs/ledger.js';
import type { RunSpent } from '../../store/cost/rollup.js';
import { estimateText } from '../../store/claude/prices.js';
import { readingMark, readingWhy, stillBeingRead, stillReading, unreadOf } from '../../store/cost/spend.js';
import { formatTimestamp, wrapText } from '../../ui/format.js';
import type { ToneLine } from '../../ui/scroll-lines.js';
import { closeoutText, formatDuration, formatTokens, sessionTokens } from './rows.js';
import { groupDigits } from '../../io/group-digits.js';

const OUTCOME_MEANS: Record<Exclude<RunOutcome, 'unknown'>, string> = {
  running: 'started, no end line yet, and its state file is still active',
  completed: 'the run ended itself as completed (ledger end line)',
  cancelled: 'the run was cancelled (ledger end line)',
  failed: 'the run ended as failed (ledger end line)',
  crashed: 'a start with no end line and its state is no longer active: OMC 5.6 sees this as a crash',
  ended: 'the Claude Code session ended (OMC session summary; no run ledger before 5.6)',
};

/** What the outcome means; an `unknown` says what the end line held instead, by every character. */
function outcomeMeans(r: RunLine): string {
  if (r.outcome !== 'unknown') return OUTCOME_MEANS[r.outcome];
  const said = r.outcomeWritten === null ? 'has no "outcome"' : `says "outcome": ${JSON.stringify(r.outcomeWritten)}`;
  return `the ledger end line ${said}, not one of OMC's outcomes (${END_OUTCOMES.join(', ')}): how the run ended is not known`;
}

export interface RunDetailInputs {
  claude: ClaudeSnapshot | null;
  /** What OMC 5.6 will say next session about this run's mode and session. */
  facts: readonly NextSessionFact[];
  budget: BudgetReading | null;
  /** What the run's window spent (store/cost/rollup.ts); null without a transcript. */
  spend?: RunSpent | null;
}

export function runDetailLines(r: RunLine, width: number, inputs: RunDetailInputs): ToneLine[] {
  const w = Math.max(20, width);
  const out: ToneLine[] = [];
  const push = (text: string, tone?: string) => {
    for (const line of wrapText(text, w)) out.push({ text: line, tone });
  };
  push(`${r.mode} run · ${r.sessionId === null ? 'legacy (session-less) state' : `session ${r.sessionId}`}`, 'title');
  push(
    `outcome: ${r.outcome} — ${outcomeMeans(r)}`,
    r.outcome === 'crashed' || r.outcome === 'unknown' ? 'warn' : undefined,
  );
  push(`started: ${formatTimestamp(r.startedMs)}   ended: ${formatTimestamp(r.endedMs)}`);
  push(`duration: ${formatDuration(r.durationMs)}   iterations reached: ${r.iterations ?? '—'}`);
  if (r.startedMs !== null && r.endedMs !== null && r.endedMs < r.startedMs)
    push(
      'the end is dated before the start (the clock moved back between them): how long it took is not known',
      'warn',
    );
  push(
    `closeout: ${closeoutText(r)}${r.closeoutWritten === false ? ` (no notepads/${r.mode}/ note newer than the run's start)` : ''}`,
    r.closeoutWritten === false ? 'warn' : undefined,
  );
  const t = sessionTokens(inputs.claude, r);
  // The session's transcript or subagent files still being read (a live monitor reads most of them after
  // start-up): every figure below is what was read so far, said as the session's detail says it.
  const reading = inputs.claude !== null ? stillReading(inputs.claude, r.sessionId) : null;
  const mark = readingMark(reading);
  const why = readingWhy(reading, r.sessionId === null ? null : unreadOf(inputs.claude?.bySession.get(r.sessionId)));
  push(
    t
      ? `tokens (the whole Claude Code session): ${formatTokens(tokenTotal(t))}${mark} — in ${formatTokens(t.input)}, out ${formatTokens(t.output)}, cache read ${formatTokens(t.cacheRead)}, cache write ${formatTokens(t.cacheWrite)}`
      : 'tokens: unknown (no Claude Code transcript found for this session)',
    t ? undefined : 'dim',
  );
  if (inputs.spend) {
    const res = Math.round(inputs.spend.resolutionMs / 60_000);
    push(
      `spent in the run's window: ${estimateText(inputs.spend.estimate)}${why} · ${formatTokens(inputs.spend.tokens)} tokens, subagents ${reading === 'subagents' ? 'read so far' : 'included'} (exact to ${res} minute${res === 1 ? '' : 's'} at each end)`,
      reading ? 'warn' : undefined,
    );
    for (const u of inputs.spend.estimate.unpriced)
      push(
        `  ${u.model}: ${formatTokens(u.tokens)} tokens unpriced (add it under "prices" in the config file)`,
        'warn',
      );
  } else if (stillBeingRead(reading)) push(`spent in the run's window: nothing read yet${why}`, 'warn');
  // The run's window may lie in the part of the transcript never read: nothing counted is not "$0" then.
  else if (reading === 'unread') push(`spent in the run's window: nothing counted${why}`, 'warn');
  if (inputs.budget)
    push(
      `budget guard (state/enforcement/shadow.jsonl, ${formatTimestamp(inputs.budget.tsMs)}): ~${groupDigits(inputs.budget.spend)}/${groupDigits(inputs.budget.budget)} tokens (${inputs.budget.pct}%)${inputs.budget.outcome ? `, ${inputs.budget.outcome}` : ''}`,
      inputs.budget.pct >= 100 ? 'warn' : undefined,
    );
  if (r.endedBy) push(`end line written by: ${r.endedBy}`, 'dim');
  if (r.reason) push(`session end reason: ${r.reason}`, 'dim');
  for (const f of inputs.facts) {
    push('');
    push(`next session: ${f.message}`, 'warn');
    push(`  file: ${f.path}`, 'dim');
    push(`  fix: ${f.action}`);
  }
  push('');
  push(`from (${r.source === 'ledger' ? 'the run ledger' : 'the ended-session summary'}):`, 'label');
  for (const where of r.where) push(`  ${where}`, 'dim');
  const known = r.source === 'ledger' ? explainOmc56Path('state/runs/ledger.jsonl') : null;
  if (known) push(`  ${known.what}`, 'dim');
  return out;
}
