/** `npm run demo` shows a newcomer every process cell: its Claude simulator's files in the real App. */
import { afterEach, describe, it } from 'vitest';
// @ts-expect-error plain ESM without types
import { makeContext } from '../../demo/lib.mjs';
// @ts-expect-error plain ESM without types
import { start as startSessions } from '../../demo/sim/sessions.mjs';
// @ts-expect-error plain ESM without types
import { demoConfigDir, start as startClaude } from '../../demo/sim/claude.mjs';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { mountStore, type MountedApp } from '../helpers/mount-app.js';

let p: TempProject | null = null;
let app: MountedApp | null = null;
const stops: Array<() => void> = [];
afterEach(async () => {
  await app?.unmount();
  app = null;
  stops.splice(0).forEach((s) => s());
  p?.cleanup();
  p = null;
});

describe('the demo on screen', () => {
  it('rows with a gone CLI behind an orphaned loop, live CLIs and a session without an entry', async () => {
    p = makeProject();
    const ctx = makeContext(p.root, p.dir);
    stops.push(startSessions(ctx), startClaude(ctx));
    const store = new OmcStore({
      root: p.root,
      watch: 'poll',
      projectDir: p.dir,
      claude: { env: { CLAUDE_CONFIG_DIR: demoConfigDir(p.dir) as string } },
    });
    store.start();
    const a = mountStore(store, { columns: 120, rows: 40 });
    app = a;
    await a.ready;
    // The simulator turns its live CLIs busy and waiting over time: wait for each cell, not for a moment.
    await a.waitForText(/ !gone \d+[smh]$/m, 'an orphaned loop with its CLI gone');
    await a.waitForText(/ (busy|!waiting|idle|!idle) \d+[smh]$/m, 'a live CLI');
    await a.waitForText(/ unknown$/m, 'a session without a registry entry');
  });
});
