/** `npm run demo` shows a newcomer every process cell: its Claude simulator's files in the real App. */
import { afterEach } from 'vitest';
import { describe, it } from '../helpers/it.js';
// @ts-expect-error plain ESM without types
import { makeContext } from '../../demo/lib.mjs';
// @ts-expect-error plain ESM without types
import { start as startSessions } from '../../demo/sim/sessions.mjs';
// @ts-expect-error plain ESM without types
import { demoConfigDir, start as startClaude } from '../../demo/sim/claude.mjs';
import { OmcStore } from '../../src/store/store.js';

const stops: Array<() => void> = [];
afterEach(async () => {
  stops.splice(0).forEach((s) => s());
});

describe('the demo on screen', () => {
  it('rows with a gone CLI behind an orphaned loop, live CLIs and a session without an entry', async ({
    emptyProject: p,
    mount,
  }) => {
    const ctx = makeContext(p.root, p.dir);
    stops.push(startSessions(ctx), startClaude(ctx));
    const store = new OmcStore({
      root: p.root,
      watch: 'poll',
      projectDir: p.dir,
      claude: { env: { CLAUDE_CONFIG_DIR: demoConfigDir(p.dir) as string } },
    });
    store.start();
    const a = mount(store, { columns: 120, rows: 40 });
    await a.ready;
    // The simulator turns its live CLIs busy and waiting over time: wait for each cell, not for a moment.
    await a.waitForText(/ !gone \d+[smh]$/m, 'an orphaned loop with its CLI gone');
    await a.waitForText(/ (busy|!waiting|idle|!idle) \d+[smh]$/m, 'a live CLI');
    await a.waitForText(/ unknown$/m, 'a session without a registry entry');
  });
});
