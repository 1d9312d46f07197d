/**
 * The cheap half of `omc-top status`: argument parsing, root resolution and
 * the live monitor's status cache, with nothing else loaded (no store, no
 * React), so the bin answers tmux's every-few-seconds call from one small
 * file while a monitor runs. `printStatus` returns null when the line must be
 * computed from the files (status.ts, in the full bundle). A call pinned to a
 * release (`--omc-version X`) is left to status.ts: its root and book are found
 * as --json finds them (store/omc-root.ts), which this path does not load.
 */
import { fitHelp } from './help-width.js';
import { forLocale } from '../io/glyphs.js';
import { liveStatusCache } from '../feeds/attention/status-cache.js';
import { checkFormat, DEFAULT_FORMAT, renderStatus, type StatusLineValues } from '../feeds/status-line.js';
import { ownStateDir } from '../io/state-dir.js';
import { stateDirMark } from '../store/state-dir/health.js';
import { noRootMessage, projectNameOf, resolveOmcRoot, type RootResolution } from '../store/root.js';
import { parseArgs, UsageError, rootFlag } from './args.js';
import { checkOmcVersionFlag } from './omc-version-flag.js';
import { shownName } from '../io/shown-path.js';
import { shownArg } from '../io/shown-arg.js';

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = {
  tmux: 'bool',
  format: 'value',
  cwd: 'value',
  root: 'value',
  fresh: 'bool',
  'omc-version': 'value',
  help: 'bool',
} as const;

export const STATUS_USAGE = `Usage: omc-top status [--tmux] [--format FORMAT] [--fresh] [--cwd DIR | --root DIR]
                      [--omc-version X]

One line: the running loops with their progress and how many things need you
(the monitor's "needs you" count: what is acknowledged is left out).
  --format   fields {loops} {active} {needs} {project} {state}; default "${DEFAULT_FORMAT}"
             ({state}: "state dir unusable" when omc-top cannot keep its files, else
             empty; added at the end as " · state dir unusable" when not placed)
  --tmux     for status-right: "#" doubled so tmux prints it as is
  --fresh    read the files even while a monitor keeps the line ready
  --omc-version X  judge with OMC X's Stop-hook rules, as the monitor and --json do
             (a monitor's line is taken only when it judged by the same rules)
Exit: 0 printed, 2 usage or no .omc.`;

export interface StatusIo {
  out(s: string): void;
  err(s: string): void;
  cwd: string;
  /** Where omc-top's state directory is found (XDG_STATE_HOME) and Claude Code's config dir. */
  env: NodeJS.ProcessEnv;
}

export interface StatusArgs {
  cwd: string;
  rootOverride: string | undefined;
  /** --omc-version: judged by that release's book, its root found by that release's rules (status.ts). */
  omcVersion: string | undefined;
  fresh: boolean;
  render(values: StatusLineValues): string;
}

/** Which root the line is for, and its project as this call names it. */
export interface StatusPlace {
  res: RootResolution;
  project: string;
}

export const placeOf = (res: RootResolution): StatusPlace => ({
  res,
  project: projectNameOf(res, shownName),
});

/** The root found without asking which OMC runs the hooks: all the bin's path can afford. */
export function fastPlace(args: StatusArgs, io: StatusIo): StatusPlace {
  return placeOf(resolveOmcRoot({ cwd: args.cwd, env: io.env, rootOverride: args.rootOverride }));
}

/** The parsed arguments, or the exit code when there is nothing more to do (help printed). */
export function parseStatusArgs(argv: readonly string[], io: StatusIo): StatusArgs | number {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    io.out(fitHelp(STATUS_USAGE) + '\n');
    return 0;
  }
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${shownArg(args.positionals[0]!)}`);
  const format = (args.flags.get('format') as string | undefined) ?? DEFAULT_FORMAT;
  const bad = checkFormat(format);
  if (bad) throw new UsageError(bad);
  const tmux = args.flags.has('tmux');
  const shown = forLocale(io.env);
  return {
    cwd: (args.flags.get('cwd') as string | undefined) ?? io.cwd,
    rootOverride: rootFlag(args),
    omcVersion: checkOmcVersionFlag(args.flags.get('omc-version') as string | undefined),
    fresh: args.flags.has('fresh'),
    // As the monitor draws it (io/glyphs.ts): ASCII where the locale is not UTF-8.
    render: (v) => shown(renderStatus(format, v, tmux)),
  };
}

/**
 * Prints the line when it needs no read of the tree (a live monitor's cache, or no .omc); null otherwise.
 * `book`: the rule book this call judges with (--omc-version); a cache judged by another book, or not saying
 * which, is not this call's answer; nor is, for an unpinned call, the cache of a monitor pinned to a release.
 */
export function printStatus(args: StatusArgs, place: StatusPlace, io: StatusIo, book?: string): number | null {
  if (!place.res.exists) {
    io.err(`omc-top status: ${noRootMessage(place.res)}\n`);
    return 2;
  }
  if (args.fresh) return null;
  const dir = ownStateDir(io.env);
  const live = liveStatusCache(dir, place.res.root);
  if (!live.cache) return null;
  if (book !== undefined && live.cache.book !== book) return null;
  // A monitor pinned to another release shows a what-if: this call asks what the OMC running the hooks does.
  if (book === undefined && live.cache.pinned) return null;
  // The project is named as this call resolved it (a monitor started elsewhere may name it otherwise); the state
  // directory is looked at now (a few system calls): it may have turned unusable under a monitor still beating.
  noteNoOmcState(place, io);
  io.out(args.render({ ...live.cache.values, project: place.project, state: stateDirMark(dir) }) + '\n');
  return 0;
}

/** A root given by hand that holds nothing of OMC's: "no loops" there says nothing about OMC (stderr: one line). */
export function noteNoOmcState(place: StatusPlace, io: StatusIo): void {
  if (place.res.noOmcState) io.err(`omc-top status: note: ${place.res.noOmcState}\n`);
}
