/**
 * The real App over what a real Claude Code run wrote: a store on the run's
 * project and config dir, mounted on the one rig (test/helpers/mount-app.tsx),
 * with a way to bring one session's row under the cursor (the filter, so no
 * key races a frame).
 */
import path from 'node:path';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import type { OmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { KEY, mountStore, type MountedApp } from '../helpers/mount-app.js';
import type { Run } from './harness.js';

export async function mountOnRun(run: Run, size = { columns: 200, rows: 50 }, omc?: OmcInstall): Promise<MountedApp> {
  const store = new OmcStore({
    omc,
    root: path.join(run.project, '.omc'),
    watch: 'none',
    projectDir: run.project,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: run.configDir } },
  });
  store.start();
  // The attention layer too: the inbox (!) lists what the attention model says needs you.
  const monitor = new AttentionMonitor(store);
  const notifier = { isEnabled: () => true, setEnabled: () => undefined };
  const app = mountStore(store, { ...size, attention: { monitor, notifier } });
  await app.ready;
  await app.waitForText('CLAUDE');
  const unmount = app.unmount;
  return { ...app, unmount: async () => (monitor.dispose(), await unmount()) };
}

/** Filters the list to one session and returns its (selected) row. */
export async function showSession(app: MountedApp, sid: string): Promise<string> {
  await app.press('/', sid.slice(0, 8), KEY.enter);
  await app.waitForText(new RegExp(`▸ .*${sid.slice(0, 8)}`));
  return app.lines().find((l) => l.startsWith('▸')) ?? '';
}

export const thousands = (v: number) => v.toLocaleString('en-US');
