/**
 * A test seam: `OMC_TOP_TEST_FAULT=<command>` makes that command fail as a bug in it would (test/commands/
 * internal-error.test.ts), so the way an unforeseen failure ends (internal-error.ts) is proven on the real bundle.
 * `<command>:uncaught` throws from a timer and `<command>:rejection` leaves a promise rejected with no one awaiting
 * it: the failures outside the command's promise. `<command>` is a subcommand's name, `--json` or `the monitor`
 * (internal-error.ts commandOf); `status` (its own bundle, status-main.ts) takes only the fault inside the command.
 * Unset, or another command: nothing happens. Only tests set it.
 */
const FAULT_VAR = 'OMC_TOP_TEST_FAULT';

/** The error each fault throws: a control sequence in it proves the line is cleaned. */
const faultError = (command: string) => new Error(`test fault in ${command} requested by ${FAULT_VAR}\u001b[31m`);

/** Fails as asked (throws, or returns a command that never settles while its fault fires); else null. */
export function faultForTest(command: string, env: NodeJS.ProcessEnv = process.env): Promise<number> | null {
  const asked = env[FAULT_VAR];
  if (asked === undefined || asked === '') return null;
  if (asked === command) throw faultError(command);
  if (asked === `${command}:uncaught`)
    return new Promise(() => {
      setTimeout(() => {
        throw faultError(command);
      }, 0);
    });
  if (asked === `${command}:rejection`)
    return new Promise(() => {
      setTimeout(() => void Promise.reject(faultError(command)), 0);
    });
  return null;
}
