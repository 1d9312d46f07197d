/** Script-facing subcommands: `omc-top cancel …`, `omc-top wiki …` and `omc-top doctor`. */
import { runAckCommand } from './ack.js';
import { runCancelCommand } from './cancel.js';
import { runDoctorCommand } from './doctor.js';
import { runServeCommand } from './serve/command.js';
import { runHooksCommand } from './hooks.js';
import { runSendCommand } from './send.js';
import { runStatusCommand } from './status.js';
import { runWatchCommand } from './watch.js';
import { runWikiCommand } from './wiki.js';

export async function runSubcommand(name: string, argv: readonly string[]): Promise<number> {
  if (name === 'ack') return runAckCommand(argv);
  if (name === 'cancel') return runCancelCommand(argv);
  if (name === 'doctor') return runDoctorCommand(argv);
  if (name === 'watch') return runWatchCommand(argv);
  if (name === 'serve') return runServeCommand(argv);
  if (name === 'status') return runStatusCommand(argv);
  if (name === 'hooks') return runHooksCommand(argv);
  if (name === 'send') return runSendCommand(argv);
  return runWikiCommand(argv);
}
