/**
 * `omc-top hooks install | uninstall | status [--cwd DIR] [--json]`: the opt-in permission hook
 * (docs/answering.md). Nothing of Claude Code's settings is touched unless `install` or `uninstall` is run.
 */
import { fitHelp } from './help-width.js';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAnswersConfig } from '../config/answers-config.js';
import { cleanLine, terminalSafeJson } from '../io/sanitize.js';
import { DEFAULT_WAIT_SECONDS, stateDir } from '../store/permissions/protocol.js';
import {
  hookStatus,
  hooksOffWords,
  installHook,
  notLoadedWords,
  alsoInWords,
  uninstallHook,
  uninstallOlder,
} from '../store/permissions/settings-hook.js';
import { claudeProjectDir } from '../store/claude/settings-sources.js';
import { resolveOmcRoot } from '../store/root.js';
import { parseArgs, UsageError } from './args.js';
import { processSink } from '../io/output.js';
import { shownArg } from '../io/shown-arg.js';
import { docPath } from '../io/doc-path.js';

export const HOOKS_USAGE = `Usage: omc-top hooks install | uninstall | status [--cwd DIR] [--json]

Answer Claude Code's permission prompts from omc-top (opt-in, reversible):
  install    add one PermissionRequest hook to <project>/.claude/settings.local.json
             (your other hooks and permissions are kept)
  uninstall  remove exactly what install added
  status     say whether it is installed, and what it runs
The hook asks a running omc-top and waits at most answers.permissionWaitSeconds
(config file; default ${DEFAULT_WAIT_SECONDS} s). With no answer, or no omc-top running, Claude shows
its own prompt as always. See ${docPath('answering.md')}.`;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = { cwd: 'value', json: 'bool', help: 'bool' } as const;

/** dist/omc-top-hook.mjs: next to the running bundle, or the repository's build when run from source. */
export function hookScriptPath(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const c of [path.join(here, 'omc-top-hook.mjs'), path.resolve(here, '..', '..', 'dist', 'omc-top-hook.mjs')])
    if (fs.existsSync(c)) return c;
  return null;
}

export interface HooksIo {
  out(s: string): void;
  err(s: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  script?: string | null;
}

const defaultIo = (): HooksIo => ({
  ...processSink,
  cwd: process.cwd(),
  env: process.env,
});

export function runHooksCommand(argv: readonly string[], io: HooksIo = defaultIo()): number {
  const args = parseArgs(argv, FLAGS);
  const verb = args.positionals[0];
  if (args.flags.has('help') || verb === undefined) {
    io.out(fitHelp(HOOKS_USAGE) + '\n');
    return verb === undefined && !args.flags.has('help') ? 2 : 0;
  }
  if (args.positionals.length > 1) throw new UsageError(`unexpected argument ${shownArg(args.positionals[1]!)}`);
  if (verb !== 'install' && verb !== 'uninstall' && verb !== 'status')
    throw new UsageError(`hooks: unknown action ${shownArg(verb)} (install, uninstall or status)`);
  const cwd = path.resolve((args.flags.get('cwd') as string | undefined) ?? io.cwd);
  const res = resolveOmcRoot({ cwd, env: io.env });
  const dir = stateDir(io.env);
  const say = (ok: boolean, message: string, extra: Record<string, unknown> = {}, code = ok ? 0 : 1) => {
    if (args.flags.has('json')) io.out(terminalSafeJson({ ok, message, ...extra }) + '\n');
    else (ok ? io.out : io.err)(`omc-top hooks: ${cleanLine(message)}\n`);
    return code;
  };
  // A --cwd that names no directory is a usage slip, said as every other command says it (exit 2), not a failed
  // write into a directory that is not there.
  if (res.rule === 'unusable-path') return say(false, `${res.explain}; nothing was changed`, {}, 2);
  // The settings file Claude Code reads when run here, not OMC's state anchor (a submodule's own, not its
  // superproject's): store/claude/settings-sources.ts.
  const projectDir = claudeProjectDir(cwd);
  if (verb === 'status') {
    const st = hookStatus({ cwd }, io.env);
    const main = st.installed
      ? `installed in ${st.settingsPath}${st.problem ? `, but ${st.problem}` : ''}`
      : `not installed in ${st.settingsPath}${st.problem ? ` (${st.problem})` : ''}`;
    const message = st.alsoIn.length > 0 ? `${main}; ${alsoInWords(st.alsoIn)}` : main;
    const code = say(st.problem === null, message, { status: st });
    // What it runs, as doctor says it, on a line of its own (plain output; --json has `status.command`).
    if (st.installed && st.command !== null && !args.flags.has('json'))
      (st.problem === null ? io.out : io.err)(
        `  runs: ${cleanLine(st.command)} (waits ${st.waitSeconds} s for omc-top, Claude's timeout ${st.timeout ?? '?'} s)\n`,
      );
    return code;
  }
  if (verb === 'uninstall') {
    const r = uninstallHook(projectDir, dir);
    // What an older omc-top wrote in the superproject's or this directory's settings files goes too.
    const older = uninstallOlder(cwd, dir);
    const ok = r.ok && older.ok;
    const words = older.messages.length > 0 && /: nothing to remove$/.test(r.message) ? [] : [r.message];
    const message = [...words, ...older.messages].join('; ');
    return say(ok, message, {}, r.code ?? older.code ?? (ok ? 0 : 1));
  }
  const script = io.script === undefined ? hookScriptPath() : io.script;
  if (!script)
    return say(false, 'the hook script (dist/omc-top-hook.mjs) is missing from this install; nothing was changed');
  const waitSeconds = readAnswersConfig(io.env).permissionWaitSeconds ?? DEFAULT_WAIT_SECONDS;
  const r = installHook({ projectDir, script, node: process.execPath, waitSeconds }, dir);
  if (!r.ok) return say(false, r.message, {}, r.code ?? 1);
  // Installed, but Claude Code runs no hook here, or does not load the file it is in: said now, not only by
  // `status` and `doctor`.
  const st = hookStatus({ cwd }, io.env);
  const dropped = st.settingsNotLoaded.find((u) => u.path === st.settingsPath);
  const but = st.hooksDisabledIn
    ? hooksOffWords(st.hooksDisabledIn)
    : dropped
      ? notLoadedWords(dropped.path, dropped.value, true)
      : null;
  return say(true, but ? `${r.message}; but ${but}` : r.message);
}
