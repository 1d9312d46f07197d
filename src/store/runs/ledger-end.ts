/**
 * omc-top's cancel writes the ledger's `end` line, as OMC 5.6's state_clear
 * does (upstream src/lib/runs-ledger.ts @ 839b3a5e, observeModeStateClear):
 * without it, OMC's next SessionStart reads a run cancelled from omc-top as a
 * start that never ended (a crash). Same line shape, plus `source:"omc-top"`
 * (extra keys are ignored by OMC's reader, which looks only at run, event,
 * sessionId, ts and closeoutWritten). Written only where the ledger directory
 * already exists (OMC ≥ 5.6 created it), append-only, one write, no lock,
 * no rotation (OMC rotates at its own next append). Never throws: like OMC,
 * a ledger failure must not fail the cancel. Like OMC, the end line does not
 * wait for a start line of that run (OMC writes its start once per process, so
 * a run started before the ledger existed, or by another process, has none);
 * the cancel's dialog, its CLI lines and `cancel --json` name the append.
 */
import { appendUnderSync, statSync } from '../../io/safe-fs/index.js';
import { WATCHED_RUN_MODES } from './ledger.js';

const STATE_FILE = /^state\/(?:sessions\/([^/]+)\/)?([a-z][a-z0-9-]*)-state\.json$/;
const WATCHED = new Set<string>(WATCHED_RUN_MODES);

/** OMC's closeout test: the mode's notepads/<mode>/problems.md or issues.md changed after the run started. */
export function closeoutWrittenFor(root: string, mode: string, startedAt: unknown): boolean {
  if (typeof startedAt !== 'string' || !Number.isFinite(Date.parse(startedAt))) return false;
  const started = Date.parse(startedAt);
  return ['problems.md', 'issues.md'].some((n) => {
    const st = statSync(root, `notepads/${mode}/${n}`);
    return st !== null && st.isFile() && st.mtimeMs > started;
  });
}

/** The ledger omc-top appends to, relative to the root. */
export const LEDGER_END_REL = 'state/runs/ledger.jsonl';

/**
 * The run whose end line a change to `stateRel` would append (OMC's own rule: a watched mode whose state was
 * active, whether or not the ledger holds its start: observeModeStateClear appends on the previous state alone),
 * or why none. The plan (what the dialog lists) and the write ask the same question.
 */
export function runEndOf(
  root: string,
  stateRel: string,
  previous: Record<string, unknown> | null,
): { mode: string; sessionId: string | null } | { why: string } {
  const m = STATE_FILE.exec(stateRel);
  const mode = m?.[2];
  if (!m || !mode || !WATCHED.has(mode)) return { why: 'not a watched run mode' };
  if (!previous || previous.active !== true) return { why: 'the state was not active' };
  const dir = statSync(root, 'state/runs');
  if (!dir || !dir.isDirectory()) return { why: 'no run ledger here (OMC before 5.6)' };
  return { mode, sessionId: m[1] ?? null };
}

/** `failed`: the ledger is there and the append failed (not merely "nothing to record here"). */
export type LedgerEndResult = { written: true; line: string } | { written: false; why: string; failed?: true };

/**
 * Appends the end edge for a state file omc-top just removed or set inactive.
 * `previous` is the state as it was before the change.
 */
export function recordRunEnd(
  root: string,
  stateRel: string,
  previous: Record<string, unknown> | null,
  nowMs: number,
): LedgerEndResult {
  const run = runEndOf(root, stateRel, previous);
  if ('why' in run) return { written: false, why: run.why };
  const { mode } = run;
  const phase = previous?.current_phase;
  const entry = {
    ts: new Date(nowMs).toISOString(),
    run: mode,
    ...(run.sessionId !== null ? { sessionId: run.sessionId } : {}),
    event: 'end',
    outcome: typeof phase === 'string' && /complete|done/i.test(phase) ? 'completed' : 'cancelled',
    closeoutWritten: closeoutWrittenFor(root, mode, previous?.started_at),
    source: 'omc-top',
  };
  const line = JSON.stringify(entry);
  try {
    appendUnderSync(root, LEDGER_END_REL, line + '\n');
    return { written: true, line };
  } catch (e) {
    return { written: false, why: (e as Error).message, failed: true };
  }
}
