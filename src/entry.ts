/**
 * The bin (dist/omc-top.mjs). tmux runs `omc-top status --tmux` every few
 * seconds all day, and scripts ask `--version`: those answer from here, with
 * only a few small modules loaded. Everything else (and a status line that
 * must be computed from the files because no monitor keeps it ready) loads
 * the app bundle beside this file (dist/omc-top-app.mjs, built from cli.tsx),
 * which runs as if it had been started itself.
 */
import { parseStatusArgs, printStatus, type StatusIo } from './commands/status-fast.js';
import { VERSION } from './version.js';

const APP = './omc-top-app.mjs';

/** Exit once stdout has flushed (a pipe would otherwise lose the line). */
const exit = (code: number) => process.stdout.write('', () => process.exit(code));

function cheap(argv: readonly string[]): number | null {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
    process.stdout.write(`omc-top ${VERSION}\n`);
    return 0;
  }
  if (argv[0] !== 'status') return null;
  const io: StatusIo = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    cwd: process.cwd(),
    env: process.env,
  };
  try {
    const args = parseStatusArgs(argv.slice(1), io);
    return typeof args === 'number' ? args : printStatus(args, io);
  } catch {
    // A usage error (or anything else): the app says it the way it says every error.
    return null;
  }
}

const code = cheap(process.argv.slice(2));
if (code !== null) exit(code);
// A computed specifier: the bundler leaves it to Node, which loads the app bundle from beside this file.
else await import(new URL(APP, import.meta.url).href);
