/**
 * Whether omc-top's own state directory (io/state-dir.ts) can hold its files, in the words and the shape every
 * surface uses: doctor's "state directory" line, the problem line of the monitor and `--json`, `--json`'s
 * `state_dir`, `watch --json`'s `state-dir` line and the `status` line's mark. One look (safe-fs `ownDirFault`:
 * a stat or two, an access and a statfs), nothing written. Light on purpose: the bin's cheap `status --tmux` path
 * loads it.
 */
import { ownDirFault, type OwnDirError } from '../../io/safe-fs/index.js';
import type { Problem } from '../types.js';

/** What stops working when the state directory cannot be written: every user of it, by what the user sees. */
export const STATE_DIR_USERS =
  'acknowledgements (a), cancel records ("cancel did not take" in other omc-tops), the push lease, the permission listener (prompts stay in Claude’s terminal) and the status cache (status --tmux)';

/** The `status` line's mark (its `{state}`): short, since a tmux status line has little room. */
export const STATE_DIR_MARK = 'state dir unusable';

/** `--json`'s `state_dir`, and the `stateDir` of `watch --json`'s `state-dir` line. */
export interface StateDirHealth {
  /** The state directory omc-top uses (raw, as `--json` keeps its paths). */
  path: string;
  ok: boolean;
  /** Why not: the errno, the path it is about (the file in the way, say) and the one line doctor says. */
  problem: { code: string; path: string; message: string } | null;
}

/** The state directory as `--json` says it; `fault` as ownDirFault found it (null: usable). */
export function stateDirHealth(dir: string, fault: OwnDirError | null = ownDirFault(dir)): StateDirHealth {
  return {
    path: dir,
    ok: fault === null,
    problem: fault && { code: fault.code, path: fault.path, message: fault.message },
  };
}

/** The same fact, equal when nothing a surface shows differs. */
export const sameHealth = (a: StateDirHealth, b: StateDirHealth): boolean =>
  a.path === b.path &&
  a.ok === b.ok &&
  a.problem?.code === b.problem?.code &&
  a.problem?.path === b.problem?.path &&
  a.problem?.message === b.problem?.message;

/** The problem line (the monitor's problems, `--json`'s `problems`, `watch --json`'s `problem` facts). */
export function stateDirProblem(fault: OwnDirError): Problem {
  // The path apart from its reason, as every problem line shows a file; what is not kept, in doctor's words.
  return { path: fault.path, message: `${fault.reason}; not kept: ${STATE_DIR_USERS}`, severity: 'error' };
}

/** The `status` line's `{state}`: empty while the directory is usable. */
export const stateDirMark = (dir: string): string => (ownDirFault(dir) === null ? '' : STATE_DIR_MARK);
