/**
 * The cheap half of `omc-top status`: argument parsing, root resolution and
 * the live monitor's status cache, with nothing else loaded (no store, no
 * React), so the bin answers tmux's every-few-seconds call from one small
 * file while a monitor runs. `printStatus` returns null when the line must be
 * computed from the files (status.ts, in the full bundle).
 */
import path from 'node:path';
import { liveStatusCache } from '../feeds/attention/status-cache.js';
import { checkFormat, DEFAULT_FORMAT, renderStatus, type StatusValues } from '../feeds/status-line.js';
import { ownStateDir } from '../io/state-dir.js';
import { noRootMessage, resolveOmcRoot, type RootResolution } from '../store/root.js';
import { parseArgs, UsageError } from './args.js';
import { shownBasename } from '../io/safe-fs/byte-paths.js';

const FLAGS = {
  tmux: 'bool',
  format: 'value',
  cwd: 'value',
  root: 'value',
  fresh: 'bool',
  help: 'bool',
} as const;

export const STATUS_USAGE = `Usage: omc-top status [--tmux] [--format FORMAT] [--fresh] [--cwd DIR | --root DIR]

One line: the running loops with their progress and how many things need you
(the monitor's "needs you" count: what is acknowledged is left out).
  --format   fields {loops} {active} {needs} {project}; default "${DEFAULT_FORMAT}"
  --tmux     for status-right: "#" doubled so tmux prints it as is
  --fresh    read the files even while a monitor keeps the line ready
Exit: 0 printed, 2 usage or no .omc.`;

export interface StatusIo {
  out(s: string): void;
  err(s: string): void;
  cwd: string;
  /** Where omc-top's state directory is found (XDG_STATE_HOME) and Claude Code's config dir. */
  env: NodeJS.ProcessEnv;
}

export interface StatusArgs {
  res: RootResolution;
  project: string;
  fresh: boolean;
  render(values: StatusValues): string;
}

/** The parsed arguments, or the exit code when there is nothing more to do (help printed). */
export function parseStatusArgs(argv: readonly string[], io: StatusIo): StatusArgs | number {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    io.out(STATUS_USAGE + '\n');
    return 0;
  }
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const format = (args.flags.get('format') as string | undefined) ?? DEFAULT_FORMAT;
  const bad = checkFormat(format);
  if (bad) throw new UsageError(bad);
  const cwd = (args.flags.get('cwd') as string | undefined) ?? io.cwd;
  const res = resolveOmcRoot({ cwd, env: io.env, rootOverride: args.flags.get('root') as string | undefined });
  const tmux = args.flags.has('tmux');
  return {
    res,
    project: shownBasename(res.projectDir ?? path.dirname(res.root)),
    fresh: args.flags.has('fresh'),
    render: (v) => renderStatus(format, v, tmux),
  };
}

/** Prints the line when it needs no read of the tree (a live monitor's cache, or no .omc); null otherwise. */
export function printStatus(args: StatusArgs, io: StatusIo): number | null {
  if (!args.res.exists) {
    io.err(`omc-top status: ${noRootMessage(args.res)}\n`);
    return 2;
  }
  if (args.fresh) return null;
  const live = liveStatusCache(ownStateDir(io.env), args.res.root);
  if (!live.cache) return null;
  // The project is named as this call resolved it (a monitor started elsewhere may name it otherwise).
  io.out(args.render({ ...live.cache.values, project: args.project }) + '\n');
  return 0;
}
