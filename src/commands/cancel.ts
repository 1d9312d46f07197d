import { UsageError } from './args.js';

/** `omc-top cancel <session-id> [--mode M] [--signal-only] [--json]` (not built yet). */
export async function runCancelCommand(_argv: readonly string[]): Promise<number> {
  throw new UsageError('"cancel" is not available in this build yet');
}
