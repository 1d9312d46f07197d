/**
 * The plan quota on the JSON surfaces (`--json`'s `quota`, `watch --json`'s `quota` line, the serve stream): the
 * header's words (store/cost/quota-words.ts) and the end of a limit, the same fact the monitor's header shows.
 */
import type { QuotaSnapshot } from '../store/cost/quota-domain.js';
import { quotaLine } from '../store/cost/quota-words.js';

export interface QuotaJson {
  /** The monitor's header words at that moment ("5h 100% until 13:11 · wk 83% ↻2d23h"). */
  text: string;
  /**
   * The narrow header's words: no countdown below a limit ("5h 100% until 13:11 · wk 83%"), what a reader shows later
   * (the fleet's `--host` group line): `text`'s countdowns are as of the moment it was written.
   */
  short: string;
  /** The plan is rate-limited until then (OMC's wait daemon, else a window at 100 %), ISO time; null when not. */
  limited_until: string | null;
}

/** Null when OMC keeps no usage cache here (the header shows none). */
export function quotaJson(q: QuotaSnapshot | null, now: number): QuotaJson | null {
  const line = quotaLine(q, now);
  if (!line) return null;
  return {
    text: line.text,
    short: line.short,
    limited_until: line.limitedUntilMs === null ? null : new Date(line.limitedUntilMs).toISOString(),
  };
}
