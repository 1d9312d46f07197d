/**
 * A session resumed after a kill, whose resumed Claude then exits cleanly: Claude Code removes the resumed process's
 * registry file and leaves the killed one's. The session must read as the resumed process that exited (its pid, its
 * tmux pane, "exited HH:MM"), never fall back to the older killed process the stale file names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEAD_PID, writeRegistry } from '../../helpers/claude-files.js';
import { loopWithClaudes, registryStore } from '../../helpers/claude-registry-rig.js';
import { describe, expect, it } from '../../helpers/it.js';
import { lifeOf } from '../../../src/store/claude/life.js';

const S = 'eeeeeeee-1111-4222-8333-444444444444';

describe('a resumed Claude that exits cleanly beside the killed one it replaced', () => {
  it('the session shows the resumed process exited, not the killed one', async ({
    emptyProject: p,
    claudeDir,
    newStore,
  }) => {
    const pool = loopWithClaudes(p, S);
    const resumed = (await pool.start()).pid as number;
    // The killed process's file, left behind (its pid runs nothing), and the resume started after it.
    writeRegistry(claudeDir, DEAD_PID, S, {
      status: 'idle',
      cwd: p.dir,
      startedAt: Date.now() - 600_000,
      statusUpdatedAt: Date.now() - 500_000,
      tmux: 'main:@0.%0',
      name: 'proj-old',
    });
    writeRegistry(claudeDir, resumed, S, { status: 'idle', cwd: p.dir, tmux: 'main:@3.%7', name: 'proj-new' });
    const store = registryStore({ newStore, claudeDir }, p);
    const view = () => store.claude.getSnapshot().bySession.get(S);
    expect(view()?.process).toMatchObject({ pid: resumed, status: 'idle' });

    // /exit: the CLI removes its own file; the killed one's stays.
    fs.rmSync(path.join(claudeDir, 'sessions', `${resumed}.json`));
    store.claude.scan();
    expect(view()?.process).toMatchObject({ pid: resumed, status: 'exited', tmux: 'main:@3.%7', name: 'proj-new' });
    expect(lifeOf(view()).status).toBe('exited');
  });
});
