/**
 * "not taken" is what omc-top's cancel came to while the loop it names runs on. Once the loop ends another way (OMC's
 * own /cancel removes the file, or the serve page's cancel, or the loop's end), the row follows the disk instead of
 * latching the outcome for its five minutes; the detail still says what omc-top's cancel came to. The clock is the
 * store's own, moved past the 30 s signal window; every wait is for a condition.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { OmcStore } from '../../src/store/store.js';
import { liveRalph, NO_CLAUDE_DIR, waitFor, writeOmcJson } from '../helpers/fixtures.js';

const SID = 'eeeeeeee-1111-4222-8333-000000000006';

describe('a cancel that did not take, then the loop ends another way', () => {
  it('the row leaves "not taken" for what the disk says; the detail keeps the outcome', async ({
    emptyProject: p,
    mount,
  }) => {
    let now = Date.now();
    const ralphFile = path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json');
    let iteration = 3;
    // What OMC's hooks do in a loop that keeps going: write ralph back, fresh and owned.
    const rearm = () =>
      writeOmcJson(
        ralphFile,
        liveRalph({
          sessionId: SID,
          iteration: iteration++,
          max: 10,
          startedAt: now - 60_000,
          checkedAt: now,
          projectPath: p.dir,
        }),
      );
    rearm();
    const store = new OmcStore({
      root: p.root,
      watch: 'poll',
      projectDir: p.dir,
      clock: () => now,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    });
    store.start();
    const a = mount(store, { columns: 120, rows: 30 });
    await a.ready;
    await a.waitForText(/▸ enforced\s+eeeeeeee\S* ralph 3\/10/);
    await a.press('c');
    await a.waitForText('y: cancel the loop');
    await a.press('y');
    await a.waitForText(/ended on disk|not ended yet/);
    rearm();
    await a.waitForText('not ended yet: ralph active again');
    now += 31_000;
    rearm();
    await waitFor(() => a.ui.getSnapshot().log.some((l) => l.text.startsWith('cancel did not take:')), {
      what: 'the cancel judged not taken',
    });
    await a.waitForText(/▸ not taken\s+eeeeeeee/);

    // OMC's own /cancel removes the state: nothing holds the agent any more.
    fs.rmSync(ralphFile);
    await a.waitForText(/▸ idle\s+eeeeeeee/);
    expect(a.text()).not.toMatch(/not taken\s+eeeeeeee/);
    await a.press('\r');
    await a.waitForText('cancel did not take');
  });
});
