/**
 * The entry of dist/omc-top-status.mjs: `status` when the line must be
 * computed from the files (no live monitor keeps it ready). Errors are said
 * the way the app says them.
 */
import { cleanBlock } from '../io/sanitize.js';
import { UsageError } from './args.js';
import { runStatusCommand } from './status.js';

export function statusMain(argv: readonly string[]): number {
  try {
    return runStatusCommand(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`omc-top: ${cleanBlock(err.message)}\nTry omc-top --help.\n`);
      return 2;
    }
    process.stderr.write(`omc-top: ${cleanBlock((err as Error)?.stack ?? String(err))}\n`);
    return 1;
  }
}
