/**
 * omc-top started in a directory that was removed (`rm -rf` of a scratch checkout in another pane): Node's
 * `process.cwd()` throws ENOENT, and a bundled library asks it as it loads, before any command can say anything.
 * So the bin asks first (src/entry.ts, before the bundles load): given a directory by hand (`--cwd DIR`,
 * `--root DIR`), omc-top moves there and runs as asked; asked for help or the version, or for the fleet, it moves
 * to `/` (none of those is about this directory); otherwise it says in one line what happened and what to do.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The line said (on stderr) when no directory was given. */
export const GONE_CWD_LINE = 'omc-top: the current directory no longer exists; cd to a project or pass --cwd DIR';

/** Exit status: as for "no .omc directory found" (a usage matter, docs/scripting.md). */
export const GONE_CWD_EXIT = 2;

/** Whether the working directory is gone (or unreadable): `process.cwd()` throws. */
export function cwdGone(cwd: () => string = () => process.cwd()): boolean {
  try {
    cwd();
    return false;
  } catch {
    return true;
  }
}

/** The flags before `--`. */
const flagsOf = (argv: readonly string[]): readonly string[] => {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
};

/** The directory `--cwd` / `--root` names (the last one given), when it is absolute: a relative one has no base now. */
export function givenDir(argv: readonly string[]): string | null {
  const flags = flagsOf(argv);
  let dir: string | null = null;
  for (let i = 0; i < flags.length; i++) {
    const a = flags[i] as string;
    let v: string | undefined;
    if (a === '--cwd' || a === '--root') v = flags[++i];
    else if (a.startsWith('--cwd=')) v = a.slice('--cwd='.length);
    else if (a.startsWith('--root=')) v = a.slice('--root='.length);
    else continue;
    dir = v !== undefined && path.isAbsolute(v) ? v : null;
  }
  return dir;
}

/** Help, the version, the fleet (`--all`, `--host`): answers that are not about the working directory. */
const needsNoProject = (argv: readonly string[]): boolean =>
  flagsOf(argv).some((a) => /^(--(all|host|help|version)(=|$)|-[hvV]$)/.test(a));

export type GoneCwdAnswer = { kind: 'ok' } | { kind: 'moved'; to: string } | { kind: 'refuse' };

/**
 * What to do when the working directory is gone: move into the directory given (a missing one: to `/`, and the
 * command then says it is missing as it always does), move to `/` when the answer needs no project, else refuse.
 */
export function answerGoneCwd(argv: readonly string[]): GoneCwdAnswer {
  if (!cwdGone()) return { kind: 'ok' };
  const given = givenDir(argv);
  const to = given ?? (needsNoProject(argv) ? '/' : null);
  if (to === null) return { kind: 'refuse' };
  // --root names the .omc directory (or a file's place); its nearest existing directory is as good a base.
  for (let dir = to; ; dir = path.dirname(dir)) {
    try {
      if (fs.statSync(dir).isDirectory()) {
        process.chdir(dir);
        return { kind: 'moved', to: dir };
      }
    } catch {
      // not there: its parent
    }
    if (dir === path.dirname(dir)) break;
  }
  return { kind: 'refuse' };
}

/** The bin's guard: run before anything that asks for the working directory. Exits when it must refuse. */
export function guardGoneCwd(argv: readonly string[]): void {
  if (answerGoneCwd(argv).kind !== 'refuse') return;
  try {
    fs.writeSync(2, `${GONE_CWD_LINE}\n`);
  } catch {
    // stderr closed: the status still says it
  }
  process.exit(GONE_CWD_EXIT);
}
