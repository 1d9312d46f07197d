/**
 * `.omc` moved away under a running monitor: its loops went out of sight with it. OMC's hooks find no state there,
 * so an orphaned (or idle) loop under it needs nobody meanwhile, and the fleet and `status --tmux` see no `.omc`:
 * the count and the view drop what lived under the root while it is away. Moved back unchanged, the same item
 * counts again, with no transition (nothing happened to the loop, only to the root).
 */
import fs from 'node:fs';
import path from 'node:path';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import type { Transition } from '../../src/feeds/attention/engine.js';
import { DEAD_PID, writeRegistry } from '../helpers/claude-files.js';
import { waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';

const SID = 'cccccccc-2222-4333-8444-555555555555';

describe('needs while .omc is away', () => {
  it('an orphaned loop counts, not while its .omc is moved away, and again once it is back, with no transition', async ({
    emptyProject: p,
    claudeDir,
    newStore,
  }) => {
    const now = Date.now();
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), {
      active: true,
      session_id: SID,
      iteration: 2,
      max_iterations: 10,
      started_at: new Date(now - 60_000).toISOString(),
      last_checked_at: new Date(now - 5_000).toISOString(),
      prompt: 'ralph: do it',
    });
    // Its Claude was killed: the loop is orphaned, one item that needs the user.
    writeRegistry(claudeDir, DEAD_PID, SID, { status: 'busy', cwd: p.dir, procStart: '12345', statusUpdatedAt: now });
    const store = newStore({
      root: p.root,
      projectDir: p.dir,
      claude: { env: { CLAUDE_CONFIG_DIR: claudeDir }, live: false },
    });
    store.start();
    const monitor = new AttentionMonitor(store);
    const batches: Transition[][] = [];
    monitor.onTransitions((b) => batches.push([...b]));
    const open = () => monitor.view.getSnapshot().open.map((n) => n.kind);
    await waitFor(() => monitor.count.getSnapshot() === 1, { what: `the orphaned loop counted (${open()})` });
    expect(open()).toEqual(['orphaned']);

    const away = path.join(p.dir, 'omc-away');
    fs.renameSync(p.root, away);
    await waitFor(() => (store.status.getSnapshot().rootAbsence ?? null) !== null, { what: 'the root seen away' });
    await waitFor(() => monitor.count.getSnapshot() === 0, { what: `nothing counted while away (${open()})` });
    expect(open()).toEqual([]);

    fs.renameSync(away, p.root);
    await waitFor(() => monitor.count.getSnapshot() === 1, { what: `counted again once back (${open()})` });
    expect(open()).toEqual(['orphaned']);
    expect(batches.flat().filter((t) => t.needs !== null)).toEqual([]);
    monitor.dispose();
  });
});
