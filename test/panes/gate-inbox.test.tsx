/**
 * An OMC 5.5.0 gate waiting (made by OMC's own runtime, test/helpers/omc-graph.mjs) in the real App: the header and
 * the inbox's title count it with what else needs you, and the inbox lists it once, under To answer.
 */
import path from 'node:path';
import fs from 'node:fs';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { AckFile } from '../../src/feeds/attention/acks.js';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { Notifier } from '../../src/feeds/notify/notifier.js';
import { decideGate } from '../../src/store/graph/decide.js';
import { OmcStore } from '../../src/store/store.js';
import { NO_CLAUDE_DIR, waitFor } from '../helpers/fixtures.js';
import { startTwoGateRun } from '../helpers/omc-graph.mjs';

let monitor: AttentionMonitor | null = null;
afterEach(() => {
  monitor?.dispose();
  monitor = null;
});

describe.skipIf(process.platform !== 'linux')('an OMC gate in the App', () => {
  it('counts in the header and the inbox title, listed once to answer', async ({ project: p, mount }) => {
    const run = startTwoGateRun({ runsRoot: path.join(p.root, 'graph-runs'), runId: 'app-gate' });
    await waitFor(() => fs.existsSync(run.pendingPath('gate-deploy-act0')), { timeoutMs: 20_000 });
    const store = new OmcStore({
      root: p.root,
      watch: 'none',
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
      // The fixture team's worker pids are the generator's: none is alive here (its stall is the other item).
      teams: { pidAlive: () => false },
    });
    store.start();
    monitor = new AttentionMonitor(store, { acks: new AckFile(path.join(p.dir, 'xdg-state', 'omc-top'), store.root) });
    const notifier = new Notifier({ channels: ['bell'], project: 'proj', write: () => undefined });
    const a = mount(store, { columns: 120, rows: 30, attention: { monitor, notifier } });
    await a.ready;
    await a.waitForText('needs you: 2');
    await a.press('!');
    await a.waitForText('Inbox · needs you: 2 ');
    expect(a.text()).toMatch(/To answer \(1, listed first\)/);
    expect(a.text()).toMatch(/Needs you \(1, besides the 1 to answer above\)/);
    expect(a.text().match(/Deploy the build to staging\? — run app-gate/g)).toHaveLength(1);
    // Denied (the run then ends as failed): the count is the team's alone.
    await decideGate({
      root: p.root,
      runId: 'app-gate',
      activationId: 'gate-deploy-act0',
      decision: 'denied',
      omcCli: null,
    });
    await run.done;
    store.graph.scan();
    await a.waitForText('Inbox · needs you: 1 ');
  }, 60_000);
});
