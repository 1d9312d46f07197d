/**
 * A ralph loop that OMC keeps going, on a clock the test moves: what a cancel that does not take meets. `rearm()`
 * writes the state back, fresh and owned, as OMC's hooks do when a Stop event already under way re-arms it; the
 * store reads on a poll with the same clock, so a test steps past the 30 s signal window with `clock.now += …`.
 */
import path from 'node:path';
import { OmcStore } from '../../src/store/store.js';
import { liveRalph, writeOmcJson, type TempProject } from './fixtures.js';

export function rearmingLoop(
  p: Pick<TempProject, 'root' | 'dir'>,
  sessionId: string,
  claudeConfigDir: string,
): { clock: { now: number }; file: string; rearm(): void; store: OmcStore } {
  const clock = { now: Date.now() };
  const file = path.join(p.root, 'state', 'sessions', sessionId, 'ralph-state.json');
  let iteration = 3;
  const rearm = () =>
    writeOmcJson(
      file,
      liveRalph({
        sessionId,
        iteration: iteration++,
        max: 10,
        startedAt: clock.now - 60_000,
        checkedAt: clock.now,
        projectPath: p.dir,
      }),
    );
  rearm();
  const store = new OmcStore({
    root: p.root,
    watch: 'poll',
    projectDir: p.dir,
    clock: () => clock.now,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: claudeConfigDir } },
  });
  return { clock, file, rearm, store };
}
