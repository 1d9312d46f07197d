/**
 * The entry of dist/omc-top-status.mjs: `status` when the line must be
 * computed from the files (no live monitor keeps it ready). Errors are said
 * the way the app says them: a usage error as usage, anything else as one line
 * (internal-error.ts), inside this call or outside it (a timer, a promise).
 */
import { exitAfterFlush, printErr, processSink } from '../io/output.js';
import { UsageError } from './args.js';
import { endUncaughtAsInternal, reportInternalError, tryHelpLine } from './internal-error.js';
import { runStatusCommand } from './status.js';
import { faultForTest } from './test-fault.js';

export function statusMain(argv: readonly string[]): number {
  endUncaughtAsInternal(processSink, 'status', false, exitAfterFlush);
  try {
    // Only the fault inside this call: the line is printed and the process gone before a later one could fire.
    if (process.env.OMC_TOP_TEST_FAULT === 'status') void faultForTest('status');
    return runStatusCommand(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      printErr(`omc-top: ${err.message}\n${tryHelpLine('status')}\n`);
      return 2;
    }
    reportInternalError(processSink, 'status', false, err);
    return 1;
  }
}
