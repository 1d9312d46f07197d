import { UsageError } from './args.js';

/** `omc-top wiki search QUERY [--limit N] [--json]` (not built yet). */
export async function runWikiCommand(_argv: readonly string[]): Promise<number> {
  throw new UsageError('"wiki" is not available in this build yet');
}
