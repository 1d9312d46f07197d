/**
 * The entry of dist/omc-top-status.mjs: `status` when the line must be
 * computed from the files (no live monitor keeps it ready). Errors are said
 * the way the app says them.
 */
import { printErr } from '../io/output.js';
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
    printErr(`omc-top: ${(err as Error)?.stack ?? String(err)}\n`);
    return 1;
  }
}
