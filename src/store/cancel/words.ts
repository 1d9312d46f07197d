/**
 * The words for a cancel omc-top could only partly write (the signal landed and a mode file was not removed or
 * set inactive, a lock could not be made, …): one module, so the row, the detail, the message log, the attention
 * item every surface counts (title, `status`, `--json`, `watch --json`, `serve`) and the one-shot `cancel` say it
 * alike, next to the other cancel words (`cancelling`, `paused`, `not taken`, `cancel did not take`).
 */
/** What this module reads of a cancel's step (execute.ts StepResult), named here so the two do not import each other. */
interface Step {
  rel: string;
  ok: boolean;
  word: string;
  detail: string;
  writeFailed?: boolean;
}

/**
 * A cancel made on disk whose record for other omc-top processes could not be written (cancel-records.ts), after the
 * cancel's own message: the monitor's and the serve page's.
 */
export const unrecordedText = (why: string): string =>
  `its cancel record was not written (${why}): other omc-tops will not say if it does not take`;

/** The status word and the attention reason. */
export const CANCEL_FAILED = 'cancel failed';

/**
 * What was and was not written, the reason first (a message line is cut to the terminal's width):
 * "disk full (ENOSPC): written: <signal>; not written: <file>".
 */
export function failedWritesText(signalRel: string, steps: readonly Step[]): string | null {
  const failed = steps.filter((s) => s.writeFailed === true);
  if (failed.length === 0) return null;
  const reasons = [...new Set(failed.map((s) => s.detail))];
  // What this cancel changed on disk: the signal, then each file it removed or set inactive (not one found so).
  const changed = steps.filter(
    (s) => s.ok && (s.word === 'removed' || (s.word === 'inactive' && !/^already/.test(s.detail))),
  );
  const written = [signalRel, ...changed.map((s) => s.rel)];
  return `${reasons.join('; ')}: written: ${written.join(', ')}; not written: ${failed.map((s) => s.rel).join(', ')}`;
}

/**
 * A loop that wrote its next iteration while the dialog was open (execute.ts movedOn), in the words the message and
 * the detail both use: that write came before the cancel, and the cancel ended the loop as it then was. A write
 * after the cancel is another event, and the verdict says it as one ("rewritten after the cancel").
 */
export const movedOnText = (movedOn: string): string =>
  `before the cancel, it moved on while you confirmed (${movedOn}); the cancel ended it as it then was`;
