/** Script-facing subcommands: `omc-top cancel …` and `omc-top wiki …`. */
import { runCancelCommand } from './cancel.js';
import { runWikiCommand } from './wiki.js';

export async function runSubcommand(name: string, argv: readonly string[]): Promise<number> {
  if (name === 'cancel') return runCancelCommand(argv);
  return runWikiCommand(argv);
}
