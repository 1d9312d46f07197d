/**
 * What a session's Stop hooks read when a cancel is checked, read fresh from disk: the project's .omc tree together
 * with the user's ~/.omc (OMC 4.15 and 5.5 fall back to `~/.omc/state/<mode>-state.json` for a loop the session owns,
 * research/omc-contract.md §1.5, omc-contract-5.5.md §1.5), and the directory the session's hooks run in. `omc-top
 * cancel` and the monitor's cancel tracker both build it here, so both judge a cancel on the same files.
 */
import { readJsonSync } from '../../io/safe-fs/index.js';
import { diskTree } from '../verdict/disk-tree.js';
import type { HookTree } from '../verdict/index.js';

export interface HookLook {
  tree: HookTree;
  /** The session's working directory (its session-started.json), else the project's. */
  cwd: string;
}

/**
 * @param where.home the user's home, whose ~/.omc the hooks fall back to (null: not read, as in tests that must never
 *   see a developer's own ~/.omc).
 */
export function hookLook(
  root: string,
  sessionId: string,
  where: { projectDir: string; home: string | null },
): HookLook {
  const started = readJsonSync(root, `state/sessions/${sessionId}/session-started.json`);
  const said = started.ok ? (started.value as Record<string, unknown> | null)?.cwd : undefined;
  return {
    tree: diskTree(root, { home: where.home }),
    cwd: typeof said === 'string' ? said : where.projectDir,
  };
}
