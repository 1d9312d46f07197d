/**
 * A cancel asked for a loop that had already ended, in the same words wherever it is asked: the TUI's and the serve
 * page's confirm (a loop the dialog showed active, ended before "y" was carried out), and `omc-top cancel` (a loop
 * ended between its plan and its write, or already ended when it ran). Who ended it is said only when omc-top's own
 * cancel records tell (another monitor's cancel, another `omc-top cancel`); else it is OMC's /cancel or the loop's own
 * end, which omc-top cannot tell apart. Nothing was written in any of these.
 */
import type { CancelRecord } from './cancel-records.js';
import { SETTLED_SHOW_MS } from './settled.js';

const hms = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/**
 * The record of the omc-top cancel that ended `modes` a moment before `now`, or null: it ended every mode it
 * targeted, one of them is asked for here, and it is recent (within the minutes a settled cancel is said for: an
 * older record is not what ended the loop just now).
 */
export function endedByRecord(
  rec: CancelRecord | undefined,
  modes: readonly string[] | null,
  now: number,
): CancelRecord | null {
  if (rec === undefined || rec.notEnded.length > 0) return null;
  // A cancel whose write failed, or that the Stop hook undid (settled "not taken"), did not end the loop: whatever
  // ended it since is not omc-top's to name.
  if (rec.failed || rec.settled?.word === 'not-taken') return null;
  if (modes !== null && !rec.modes.some((m) => modes.includes(m))) return null;
  return now - rec.requestedMs < SETTLED_SHOW_MS ? rec : null;
}

/** The process a record names: a monitor or serve that followed its cancel, else an `omc-top cancel` run. */
const whoCancelled = (rec: CancelRecord) =>
  rec.followedBy ? `omc-top (pid ${rec.followedBy.pid})` : '`omc-top cancel`';

/**
 * The same fact as the words, for `omc-top cancel --json` (`ended_by`): the cancel its record names, or null when no
 * record does. `process` is what the words name: `omc-top` (a monitor or serve that followed its cancel: its pid) or
 * `omc-top cancel` (a command run, whose record names no process: pid null). `at` is when its signal was written.
 */
export function endedByJson(
  rec: CancelRecord | null,
): { process: 'omc-top' | 'omc-top cancel'; pid: number | null; at: string; modes: string[] } | null {
  if (rec === null) return null;
  return {
    process: rec.followedBy ? 'omc-top' : 'omc-top cancel',
    pid: rec.followedBy?.pid ?? null,
    at: new Date(rec.requestedMs).toISOString(),
    modes: [...rec.modes],
  };
}

/**
 * The words. `what` is the modes asked for, `label` the session (or "legacy"), `when` the asking surface's moment
 * ("while this dialog was open"), `why` what the fresh look at the disk found (said when no record explains it).
 */
export function alreadyEndedText(a: {
  rec: CancelRecord | null;
  what: string;
  label: string;
  when: string;
  why: string;
}): string {
  if (a.rec !== null)
    return `${a.what} in ${a.label} already ended: ${whoCancelled(a.rec)} cancelled it at ${hms(a.rec.requestedMs)} UTC, ${a.when}; nothing to cancel, nothing was written`;
  return `${a.what} in ${a.label} already ended ${a.when} (omc-top's cancel records name no other omc-top: OMC's /cancel or the loop's own end); nothing was written (${a.why})`;
}
