/**
 * The rig of the tests about a session's Claude processes as Claude Code's registry names them (killed, resumed,
 * exited, placed in tmux, two on one session): the session's live ralph loop, sleeping stand-ins for its Claudes,
 * a store that reads the registry as a one-shot `--json` does, and the environment the attention report reads.
 */
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import { sleeperPool, type SleeperPool } from './claude-stand-in.js';
import { writeLiveRalph, type TempProject } from './fixtures.js';
import type { Fixtures } from './it.js';

/**
 * A live ralph loop of `sessionId` in `p` (iteration 2 of `max`), and a pool of stand-ins for its Claudes (real
 * pids with real start times), all killed when the test finishes.
 */
export function loopWithClaudes(p: TempProject, sessionId: string, max = 10): SleeperPool {
  writeLiveRalph(p, { sessionId, iteration: 2, max, projectPath: p.dir });
  const pool = sleeperPool();
  onTestFinished(() => pool.killAll());
  return pool;
}

/**
 * A started store over `p` (made by the `newStore` fixture, so closed after the test) whose Claude side reads the
 * registry in `claudeDir` with no watch or timer: at its start and on each `store.claude.scan()` the test calls.
 * `more`: further options (they win).
 */
export function registryStore(
  { newStore, claudeDir }: Pick<Fixtures, 'newStore' | 'claudeDir'>,
  p: TempProject,
  more: Partial<OmcStoreOptions> = {},
): OmcStore {
  const store = newStore({
    root: p.root,
    projectDir: p.dir,
    watch: 'none',
    claude: { env: { CLAUDE_CONFIG_DIR: claudeDir }, live: false },
    ...more,
  });
  store.start();
  return store;
}

/** The environment `attentionReport` reads: Claude's registry in `claudeDir`, omc-top's state in a scratch dir. */
export function attentionEnv({ claudeDir, tempDir }: Pick<Fixtures, 'claudeDir' | 'tempDir'>): NodeJS.ProcessEnv {
  return { CLAUDE_CONFIG_DIR: claudeDir, XDG_STATE_HOME: path.join(tempDir(), 'xdg') };
}
