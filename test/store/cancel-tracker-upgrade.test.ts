/**
 * OMC upgraded in place inside a cancel's window (`claude plugin update` moves the registry from the real 4.4.4
 * package to 5.5.0 while the monitor watches the cancel): the session's next Stop runs 5.5.0's hook, so the tracker
 * judges by 5.5.0's book from then on, not by the 4.4.4 book the cancel was planned with, and its detail says the
 * books changed. What it concludes is what the real 5.5.0 Stop hook does on the same disk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { carryOutCancel, planCancelFor } from '../../src/feeds/answers/cancel-plan.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import {
  liveRalph,
  makeProject,
  ralphStateFile,
  waitFor,
  writeOmcJson,
  type TempProject,
} from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { OMC_PLUGIN_KEY, installPlugin, pluginWorld, writeRetiredUltrawork } from '../helpers/omc-plugin.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'aaaaaaaa-1111-4222-8333-444444444444';
let p: TempProject | null = null;
let tmp: string | null = null;
let store: OmcStore | null = null;
afterEach(async () => {
  store?.cancels.dispose();
  await store?.close();
  store = null;
  p?.cleanup();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  p = tmp = null;
});

const CHANGED = "judged by OMC 5.5.0's rules, which run the hooks now: OMC 4.4.4 ran them when the cancel was made";

/**
 * A store watching a project whose session runs a ralph loop with the ultrawork 4.4.4's keyword hook writes beside it
 * (both end with the session's cancel), OMC 4.4.4 installed as the user's plugin and looked at again every 100 ms.
 */
function watchedCancel(prefix: string): { w: ReturnType<typeof pluginWorld>; st: OmcStore } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  tmp = base;
  const w = pluginWorld(base);
  installPlugin(w.config, OMC444);
  const proj = makeProject({ prefix: `${prefix}-proj-` });
  p = proj;
  writeOmcJson(
    ralphStateFile(proj.root, SID),
    liveRalph({ sessionId: SID, projectPath: proj.dir, prompt: 'ralph fix' }),
  );
  writeRetiredUltrawork(proj.root, SID);
  const env = { ...w.env, PATH: '' };
  const detect = () => detectOmcInstall({ env, projectDir: proj.dir, processes: false });
  const st = new OmcStore({
    root: proj.root,
    projectDir: proj.dir,
    stateDir: path.join(base, 'omc-top-state'),
    omc: detect(),
    omcRedetect: detect,
    omcRecheckMs: 100,
    watch: 'poll',
    claude: { live: false, env },
  });
  store = st;
  st.start();
  return { w, st };
}

describe('a cancel whose OMC is upgraded in place inside its window', () => {
  it(
    'is judged by the book in force when the tracker looks, and says the books changed',
    { timeout: scaled(60_000) },
    async () => {
      const { w, st } = watchedCancel('omc-top-cancel-upgrade');
      expect(st.sessions.rules).toBe('4.4.4');

      const planned = planCancelFor(st, { sessionId: SID, mode: null, pauseOnly: false }, Date.now(), 'press c');
      if (!planned.ok) throw new Error(planned.message);
      expect(planned.plan.books).toEqual(['4.4.4']);
      const out = await carryOutCancel(st, planned.plan, { now: Date.now });
      if (out.kind !== 'done') throw new Error(out.kind);
      // Judged by the book it was planned with while that OMC runs the hooks: nothing to say of a change.
      expect(out.entry.reason).not.toContain('judged by');

      installPlugin(w.config, OMC55); // `claude plugin update`, inside the 30 s window
      await waitFor(() => st.sessions.rules === '5.5.0', { timeoutMs: 15_000, what: 'the 5.5.0 book' });
      // Re-judged on the sessions' re-judging the upgrade brings (the tracker follows the sessions domain), in the window.
      const e = await waitFor(
        () => {
          const t = st.cancels.get(SID);
          return t?.reason.includes(CHANGED) ? t : null;
        },
        { timeoutMs: 15_000, what: "the tracker's verdict by the 5.5.0 book" },
      );
      // Ended on disk by 5.5.0's rules, as 5.5.0's own Stop hook, run on the same disk, lets the agent stop.
      expect(e.text).toBe("ralph, ultrawork ended on disk · Claude's stop not observed");
      expect(e.reason).toMatch(/^ended on disk/);
      const real = (v: HookVersion) =>
        hookDecision(spawnStopHook(v, { cwd: p?.dir ?? '', sessionId: SID, home: w.home, now: Date.now() })).decision;
      expect(real('5.5.0')).toBe('stop');
    },
  );
  it(
    'keeps the book it was planned with when no OMC is found any more, and says so',
    { timeout: scaled(60_000) },
    async () => {
      const { w, st } = watchedCancel('omc-top-cancel-gone');
      const planned = planCancelFor(st, { sessionId: SID, mode: null, pauseOnly: false }, Date.now(), 'press c');
      if (!planned.ok) throw new Error(planned.message);
      expect(planned.plan.books).toEqual(['4.4.4']);
      const out = await carryOutCancel(st, planned.plan, { now: Date.now });
      if (out.kind !== 'done') throw new Error(out.kind);

      // `claude plugin disable` inside the window: no OMC is found, and the newest book is only assumed.
      writeOmcJson(path.join(w.config, 'settings.json'), { enabledPlugins: { [OMC_PLUGIN_KEY]: false } });
      const e = await waitFor(
        () => {
          const t = st.cancels.get(SID);
          return t?.reason.includes('no OMC is found now') ? t : null;
        },
        { timeoutMs: 15_000, what: "the tracker's words once no OMC is found" },
      );
      // Judged by the book the cancel was made by, not by the assumed newest one said to "run the hooks now".
      expect(e.reason).toContain("judged by OMC 4.4.4's rules, which ran the hooks when the cancel was made");
      expect(e.reason).not.toContain(CHANGED);
      expect(e.text).toBe("ralph, ultrawork ended on disk · Claude's stop not observed");
    },
  );
});
