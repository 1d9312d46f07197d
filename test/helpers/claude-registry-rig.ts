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
import { writeRegistry, type RegistryFields } from './claude-files.js';
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

/**
 * A started store over `p` that polls the project, reads the registry in `claudeDir` and listens for permission
 * prompts (omc-top's hook hands them over), its state directory under `xdg`: the store the answering tests mount.
 */
export function answeringStore(
  { newStore, claudeDir }: Pick<Fixtures, 'newStore' | 'claudeDir'>,
  p: TempProject,
  xdg: string,
): OmcStore {
  const store = newStore({
    root: p.root,
    projectDir: p.dir,
    watch: 'poll',
    claude: { env: { CLAUDE_CONFIG_DIR: claudeDir }, live: false },
    answers: { stateDir: path.join(xdg, 'omc-top'), listen: true, live: true },
  });
  store.start();
  return store;
}

/**
 * The registry entry of A, the loop's own Claude of the two-Claudes scene (tmux window 1, proj-a, the older): its
 * status and any other field as given (Claude Code rewriting it).
 */
export function writeAskerEntry(
  claudeDir: string,
  pid: number,
  sessionId: string,
  p: TempProject,
  fields: Partial<RegistryFields> & Pick<RegistryFields, 'status'>,
): void {
  writeRegistry(claudeDir, pid, sessionId, {
    cwd: p.dir,
    tmux: 'ta-main:@1.%1',
    name: 'proj-a',
    startedAt: Date.now() - 120_000,
    ...fields,
  });
}

/**
 * Two Claudes on `sessionId` (the tester's scene): A, the loop's own and the older, waits on a permission prompt in
 * tmux window 1 (proj-a); B, `claude --resume` of the same session in window 2 and the newer, is idle (proj-b). B is
 * the process the session shows. `askerStatus`: A's entry as Claude Code has written it so far (`idle`: not yet
 * rewritten for the prompt it asked).
 */
export async function twoClaudesOneWaiting(
  pool: SleeperPool,
  claudeDir: string,
  p: TempProject,
  sessionId: string,
  askerStatus: 'waiting' | 'idle' = 'waiting',
): Promise<{ asker: number; resumed: number }> {
  const asker = (await pool.start()).pid as number;
  const resumed = (await pool.start()).pid as number;
  writeAskerEntry(claudeDir, asker, sessionId, p, {
    status: askerStatus,
    ...(askerStatus === 'waiting' ? { waitingFor: 'permission prompt' } : {}),
  });
  writeRegistry(claudeDir, resumed, sessionId, {
    status: 'idle',
    cwd: p.dir,
    tmux: 'ta-main:@2.%2',
    name: 'proj-b',
    startedAt: Date.now() - 60_000,
  });
  return { asker, resumed };
}

/**
 * A started store over `p` as a one-shot `--json` reads it (no watch, no timer), its Claude side in `cfg` and its
 * clock fixed at `now`: the cost tests' store.
 */
export function oneShotStore(newStore: Fixtures['newStore'], p: TempProject, cfg: string, now: number): OmcStore {
  const store = newStore({
    root: p.root,
    watch: 'none',
    projectDir: p.dir,
    clock: () => now,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
  });
  store.start();
  return store;
}
