/**
 * What a run's cost and tokens cells are read from: the project's rollup (a run's spend is its window's) and the
 * Claude snapshot (what of its session is still being read). The view draws them and the `/` filter reads them.
 */
import type { OmcStore } from '../../store/store.js';
import type { RunLine } from '../../store/runs/history.js';
import type { ClaudeSnapshot } from '../../store/claude/model.js';
import { configuredPrices } from '../../store/claude/price-config.js';
import { costRollupMemo, runKey, type RunSpent } from '../../store/cost/rollup.js';
import { stillReading, type Reading } from '../../store/cost/spend.js';
import { sessionIndex } from '../../store/sessions/view-index.js';

/** The project's rollup (memoised on the snapshots and the minute): a run's spend is its window's. */
export function runSpends(store: OmcStore): Map<string, RunSpent> {
  const snapshot = store.sessions.getSnapshot();
  return costRollupMemo(
    snapshot.sessions,
    store.runs.runs(),
    store.claude.getSnapshot(),
    configuredPrices(),
    store.clock(),
    sessionIndex(snapshot),
    store.runs.seenWindows(),
  ).runs;
}

export interface RunCosts {
  spends: ReadonlyMap<string, RunSpent>;
  claude: ClaudeSnapshot;
}

export const runCosts = (store: OmcStore): RunCosts => ({
  spends: runSpends(store),
  claude: store.claude.getSnapshot(),
});

/** One run's spend and what of its session is still being read (the cost cell's `+sub…`, `+…`). */
export function costOf(c: RunCosts, r: RunLine): { spend: RunSpent | null; reading: Reading } {
  return { spend: c.spends.get(runKey(r)) ?? null, reading: stillReading(c.claude, r.sessionId) };
}
