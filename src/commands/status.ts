/**
 * `omc-top status [--tmux] [--format F]`: one short line for tmux
 * `status-right` (or any prompt): running loops with progress and the
 * needs-you count. One read of the sessions and teams state, no watcher, no
 * write, so tmux can call it every few seconds.
 *
 * Exit codes: 0 printed; 2 usage or no .omc found (then the line is empty,
 * so a status bar shows nothing rather than an error).
 */
import path from 'node:path';
import { statusValues, checkFormat, DEFAULT_FORMAT, renderStatus } from '../feeds/status-line.js';
import { resolveOmcRoot } from '../store/root.js';
import { OmcStore } from '../store/store.js';
import { processSink } from '../io/output.js';
import { parseArgs, UsageError } from './args.js';

const FLAGS = { tmux: 'bool', format: 'value', cwd: 'value', root: 'value', help: 'bool' } as const;

export const STATUS_USAGE = `Usage: omc-top status [--tmux] [--format FORMAT] [--cwd DIR | --root DIR]

One line: the running loops with their progress and how many things need you.
  --format   fields {loops} {active} {needs} {project}; default "${DEFAULT_FORMAT}"
  --tmux     for status-right: "#" doubled so tmux prints it as is
Exit: 0 printed, 2 usage or no .omc.`;

export interface StatusIo {
  out(s: string): void;
  err(s: string): void;
  cwd: string;
}

const defaultIo: StatusIo = { ...processSink, cwd: process.cwd() };

export function runStatusCommand(argv: readonly string[], io: StatusIo = defaultIo): number {
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
  const res = resolveOmcRoot({ cwd, rootOverride: args.flags.get('root') as string | undefined });
  if (!res.exists) {
    io.err(`omc-top status: no .omc directory found (${res.explain})\n`);
    return 2;
  }
  const store = new OmcStore({
    root: res.root,
    readonly: true,
    watch: 'none',
    projectDir: res.projectDir,
    rootRule: res.rule,
  });
  // Only what the line needs: sessions, then teams (it reads the sessions parse). No notepad, memory or wiki.
  store.sessions.scan();
  store.teams.scan();
  const input = {
    sessions: store.sessions.getSnapshot(),
    teams: store.teams.getSnapshot(),
    cancels: store.cancels.getSnapshot(),
    problems: [...store.sessions.problems(), ...store.teams.problems()],
  };
  const project = path.basename(res.projectDir ?? path.dirname(res.root));
  io.out(renderStatus(format, statusValues(input, project), args.flags.has('tmux')) + '\n');
  void store.close();
  return 0;
}
