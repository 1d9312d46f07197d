/** Script-facing subcommands: `omc-top cancel …` and `omc-top wiki search …`. */
import { UsageError } from './args.js';

export async function runSubcommand(name: string, _argv: readonly string[]): Promise<number> {
  throw new UsageError(`"${name}" is not available in this build yet`);
}
