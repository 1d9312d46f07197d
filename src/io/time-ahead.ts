/**
 * When a time read from a file counts as ahead of the clock. One rule for every surface: the rows' AGE (`+3h`),
 * the detail (`in 3h`) and the problem line a state file stamped in the future gets ("clock skew?").
 */

/**
 * A timestamp this far ahead of the clock still reads as now: OMC's hooks stamp with the same clock, and two
 * clocks a second or two apart (a container, another host) are normal. Beyond it the time is said to be ahead.
 */
export const FUTURE_SLACK_MS = 5_000;

/** Is `ms` ahead of `now` by more than the slack (clock skew, or a stamp from a clock that was set wrong)? */
export function isFuture(ms: number | null, now: number): boolean {
  return ms !== null && ms - now > FUTURE_SLACK_MS;
}
