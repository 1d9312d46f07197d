/**
 * The entry of dist/omc-top-status.mjs: `status` when the line must be
 * computed from the files (no live monitor keeps it ready). Errors are said
 * the way the app says them.
 */
import { printErr, processSink } from '../io/output.js';
import { reportInternalError } from './internal-error.js';
import { UsageError } from './args.js';
import { runStatusCommand } from './status.js';

export function statusMain(argv: readonly string[]): number {
  try {
    return runStatusCommand(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      printErr(`omc-top: ${err.message}\nTry omc-top --help.\n`);
      return 2;
    }
    reportInternalError(processSink, 'status', false, err);
    return 1;
  }
}
