/**
 * Loop analytics from the transcript's Stop-hook timeline: how long each ralph
 * iteration took, when the loop would reach max_iterations at that pace, and
 * two stall badges. Pure functions of facts and the mode's state.
 */
import { tokenTotal, type IterationFacts, type TranscriptFacts } from './transcript-facts.js';

export interface LoopAnalytics {
  /** Seconds between consecutive iteration starts, oldest first (the last 12), for a sparkline. */
  secondsPerIteration: number[];
  /** Estimated epoch ms at which `max` is reached at the recent pace; null when unknown. */
  etaMs: number | null;
  /** The last 3 iterations wrote no file. */
  noFileIn3: boolean;
  /** The same error text 3 times in a row (the text), or null. */
  sameError3: string | null;
  /** Tokens per minute over the last 10 minutes of API responses; null with fewer than 2. */
  burnPerMin: number | null;
}

export const BURN_WINDOW_MS = 10 * 60 * 1000;

export function burnRate(facts: TranscriptFacts, now: number): number | null {
  const recent = facts.usageSamples.window(now - BURN_WINDOW_MS, now + 60_000);
  if (recent.count < 2 || recent.firstMs === null) return null;
  const span = Math.max(60_000, now - recent.firstMs);
  return Math.round((recent.tokens / span) * 60_000);
}

/**
 * `dead`: no process runs the session any more (gone, exited): it burns nothing and reaches nothing, so
 * there is no burn rate and no ETA, whatever its last ten minutes looked like.
 */
export function loopAnalytics(
  facts: TranscriptFacts,
  loop: { iteration: number | null; max: number | null } | null,
  now: number,
  dead = false,
): LoopAnalytics {
  const starts = facts.iterations.filter((i) => i.iteration !== null && i.startedMs !== null);
  const secs: number[] = [];
  for (let i = 1; i < starts.length; i++) {
    const d = ((starts[i]?.startedMs as number) - (starts[i - 1]?.startedMs as number)) / 1000;
    if (d >= 0) secs.push(Math.round(d * 10) / 10);
  }
  const recent = secs.slice(-5);
  let etaMs: number | null = null;
  if (!dead && loop?.iteration != null && loop.max != null && recent.length > 0 && loop.max >= loop.iteration) {
    const mean = recent.reduce((a, b) => a + b, 0) / recent.length;
    etaMs = Math.round(now + mean * 1000 * (loop.max - loop.iteration));
  }
  const last3 = facts.iterations.slice(-3);
  const errs = facts.recentErrors.slice(-3);
  return {
    secondsPerIteration: secs.slice(-12),
    etaMs,
    noFileIn3: last3.length === 3 && last3.every((i) => i.filesWritten === 0),
    sameError3: errs.length === 3 && errs.every((e) => e === errs[0]) ? (errs[0] as string) : null,
    burnPerMin: dead ? null : burnRate(facts, now),
  };
}

/** Tokens spent in each recent iteration (total of all four kinds). */
export function tokensPerIteration(facts: TranscriptFacts): { iteration: number | null; tokens: number }[] {
  return facts.iterations.map((i) => ({ iteration: i.iteration, tokens: tokenTotal(i.tokens) }));
}

/**
 * The iterations with OMC's numbers: before any Stop-hook block the transcript cannot number the work, but
 * a loop whose state says iteration 1 is in its first iteration (OMC's ralph starts at 1; its first block
 * says "ITERATION 2"). Once a block arrived the transcript numbers the work before it itself.
 */
export function numberedIterations(
  facts: TranscriptFacts,
  loop: { iteration: number | null } | null,
): IterationFacts[] {
  const its = facts.iterations;
  const first = its[0];
  if (its.length === 1 && first && first.iteration === null && loop?.iteration === 1)
    return [{ ...first, iteration: 1 }];
  return its;
}
