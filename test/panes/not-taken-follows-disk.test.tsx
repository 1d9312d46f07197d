/**
 * "not taken" is what omc-top's cancel came to while the loop it names runs on. Once the loop ends another way (OMC's
 * own /cancel removes the file, or the serve page's cancel, or the loop's end), the row follows the disk instead of
 * latching the outcome for its five minutes; the detail still says what omc-top's cancel came to. The clock is the
 * store's own, moved past the 30 s signal window; every wait is for a condition.
 */
import fs from 'node:fs';
import { describe, expect, it } from '../helpers/it.js';
import { NO_CLAUDE_DIR, waitFor } from '../helpers/fixtures.js';
import { rearmingLoop } from '../helpers/rearming-loop.js';

const SID = 'eeeeeeee-1111-4222-8333-000000000006';

describe('a cancel that did not take, then the loop ends another way', () => {
  it('the row leaves "not taken" for what the disk says; the detail keeps the outcome', async ({
    emptyProject: p,
    mount,
  }) => {
    const { clock, file: ralphFile, rearm, store } = rearmingLoop(p, SID, NO_CLAUDE_DIR);
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
    clock.now += 31_000;
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
