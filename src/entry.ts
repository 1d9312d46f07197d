/**
 * The bin (dist/omc-top.mjs). tmux runs `omc-top status --tmux` every few
 * seconds all day, and scripts ask `--version`: those answer from here, with
 * only a few small modules loaded. A status line that must be computed from
 * the files (no monitor keeps it ready) loads the status bundle beside this
 * file (dist/omc-top-status.mjs: the store's readers, no React); everything
 * else loads the app bundle (dist/omc-top-app.mjs, built from cli.tsx), which
 * runs as if it had been started itself: compiled with V8's code cache from the
 * last start (io/code-cache.ts).
 */
// First: V8's code cache is only taken by a V8 with the flags it was made under, and the app sets this one.
import './terminal/young-gen.js';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { codeCacheDir, loadAppFunction } from './io/code-cache.js';
import { fastPlace, parseStatusArgs, printStatus, type StatusIo } from './commands/status-fast.js';
import { VERSION } from './version.js';
import { exitAfterFlush, printOut, processSink } from './io/output.js';
import { askTopLevelEarly, COMMON_DIR_ARGS, SUPERPROJECT_ARGS } from './io/git-early.js';
import { asksTopLevelFirst, hasRootFlag, rootProjectDir } from './commands/monitor-argv.js';
import { noColorAsked } from './commands/args.js';
import { precompileYoga } from './terminal/yoga-early.js';
import { lowerHelperThreads } from './terminal/helper-priority.js';
import { guardGoneCwd } from './commands/gone-cwd.js';
import path from 'node:path';

const APP = './omc-top-app.mjs';
const STATUS = './omc-top-status.mjs';

/** Exit once stdout has flushed (a pipe would otherwise lose the line); a failed write to stdout is said (io/output.ts). */
const exit = exitAfterFlush;

function cheap(argv: readonly string[]): number | null {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
    printOut(`omc-top ${VERSION}\n`);
    return 0;
  }
  if (argv[0] !== 'status') return null;
  const io: StatusIo = {
    ...processSink,
    cwd: process.cwd(),
    env: process.env,
  };
  try {
    const args = parseStatusArgs(argv.slice(1), io);
    if (typeof args === 'number') return args;
    // Pinned to a release: its root and book are found as --json finds them, in the status bundle.
    if (args.omcVersion !== undefined) return null;
    return printStatus(args, fastPlace(args, io), io);
  } catch {
    // A usage error (or anything else): the app says it the way it says every error.
    return null;
  }
}

/** Computed specifiers: the bundler leaves them to Node, which loads the bundle from beside this file. */
const beside = (file: string) => new URL(file, import.meta.url).href;

/** The app bundle's one function (scripts/build.mjs): given `require` and its URL, it runs omc-top. */
type AppFunction = (nodeRequire: NodeJS.Require, require: NodeJS.Require, url: string) => Promise<unknown>;

async function runApp(argv: readonly string[]): Promise<void> {
  // The main thread first when cores are short: V8's and libuv's helpers at the lowest priority (terminal/helper-priority.ts).
  lowerHelperThreads();
  // Started before the bundle compiles, git answers on the other core meanwhile (io/git-early.ts).
  if (asksTopLevelFirst(argv)) {
    const cwd = path.resolve(process.cwd());
    const project = rootProjectDir(argv, cwd);
    if (project === null) {
      // The root found from here: where Claude's settings are (the common dir) and OMC's anchor (the superproject).
      void askTopLevelEarly(cwd, hasRootFlag(argv) ? [] : [COMMON_DIR_ARGS, SUPERPROJECT_ARGS]);
    } else {
      // `--root <project>/.omc`: the start asks only about the project (its Claude settings), not the directory here.
      void askTopLevelEarly(project, [COMMON_DIR_ARGS]);
    }
  }
  const url = beside(APP);
  const req = createRequire(url);
  const cache = {
    dir: process.env.OMC_TOP_CODE_CACHE === '0' ? null : codeCacheDir(),
    write: !argv.includes('--readonly'),
    // Yoga's wasm compiled from these bytes, not decoded and compiled by its loader (terminal/yoga-early.ts).
    onBundle: precompileYoga,
  };
  const loaded = loadAppFunction<AppFunction>(fileURLToPath(url), cache);
  // Not readable as the script (a symlinked bundle, say): the same function, from Node's module loader.
  const app = loaded?.value ?? ((await import(url)) as { default: AppFunction }).default;
  await app(req, req, url);
}

const argv = process.argv.slice(2);
// Started in a directory that was removed: moved to the one given, or one line said, before anything asks for it.
guardGoneCwd(argv);
// A general option, for every command (commands/args.ts): set before any module reads the colour level.
if (noColorAsked(argv)) process.env.NO_COLOR = '1';
const code = cheap(argv);
if (code !== null) exit(code);
else if (argv[0] === 'status') {
  const m = (await import(beside(STATUS))) as { statusMain(argv: readonly string[]): number };
  exit(m.statusMain(argv.slice(1)));
} else await runApp(argv);
