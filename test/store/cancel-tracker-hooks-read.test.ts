/**
 * The monitor's cancel tracker reads what the session's Stop hooks read, and judges a file by what the hooks in force
 * do with it: a loop's `~/.omc/state` copy the session owns (OMC 5.5.0 falls back to it once the session's own file
 * is gone) keeps the cancel from taking, as `omc-top cancel` says; an ultrawork re-armed after the cancel under OMC
 * 5.5.0, whose Stop hook no longer reads ultrawork, holds nothing. The real 5.5.0 (and 4.4.4) Stop hooks, run on the
 * same disk at the tracker's clock, agree.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cancelDialog, carryOutCancel, planCancelFor } from '../../src/feeds/answers/cancel-plan.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { liveRalph, makeProject, ralphStateFile, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, pluginWorld, writeRetiredUltrawork, type PluginWorld } from '../helpers/omc-plugin.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'bbbbbbbb-1111-4222-8333-444444444444';
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

let now = Date.now();

/** A project whose hooks OMC 5.5.0 runs (the user-scope plugin), and a store on it whose clock the test moves. */
function world(): { w: PluginWorld; project: TempProject; st: OmcStore } {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cancel-hooks-read-'));
  const w = pluginWorld(tmp);
  installPlugin(w.config, OMC55);
  const project = makeProject({ prefix: 'omc-top-cancel-hooks-read-proj-' });
  p = project;
  now = Date.now();
  const env = { ...w.env, PATH: '' };
  const st = new OmcStore({
    root: project.root,
    projectDir: project.dir,
    stateDir: path.join(tmp, 'omc-top-state'),
    omc: detectOmcInstall({ env, projectDir: project.dir, processes: false }),
    watch: 'none',
    clock: () => now,
    home: w.home,
    claude: { live: false, env },
  });
  store = st;
  st.start();
  expect(st.sessions.rules).toBe('5.5.0');
  return { w, project, st };
}

async function cancelSession(st: OmcStore) {
  const planned = planCancelFor(st, { sessionId: SID, mode: null, pauseOnly: false }, now, 'press c');
  if (!planned.ok) throw new Error(planned.message);
  const out = await carryOutCancel(st, planned.plan, { now: () => now });
  if (out.kind !== 'done') throw new Error(out.kind);
  return out.entry;
}

const REMEDY = "omc-top never changes files outside .omc: OMC's own /cancel ends it, or remove that file";

/** The `c` dialog's lines for the whole session, planned now. */
function dialogLines(st: OmcStore): string[] {
  const planned = planCancelFor(st, { sessionId: SID, mode: null, pauseOnly: false }, now, 'press c');
  if (!planned.ok) throw new Error(planned.message);
  return cancelDialog(st, planned.plan).lines;
}

/** What the real Stop hook of `v` decides on this disk at the tracker's clock, with `home` as the hook's HOME. */
const realHook = (v: HookVersion, home: string) =>
  hookDecision(spawnStopHook(v, { cwd: p?.dir ?? '', sessionId: SID, home, now })).decision;

describe("the cancel tracker reads the session's ~/.omc/state copy, as the hooks and omc-top cancel do", () => {
  it(
    'a ralph whose home copy the session owns is "cancel did not take" once the window is over',
    { timeout: scaled(60_000) },
    async () => {
      const { w, project, st } = world();
      const loop = liveRalph({
        sessionId: SID,
        projectPath: project.dir,
        prompt: 'ralph fix',
        startedAt: now - 60_000,
        checkedAt: now,
      });
      writeOmcJson(ralphStateFile(project.root, SID), loop);
      // The copy OMC 5.5.0's Stop hook falls back to once the session's own file is gone.
      writeOmcJson(path.join(w.home, '.omc', 'state', 'ralph-state.json'), loop);

      // The dialog names the copy it leaves, and what ends it.
      const left = `Left alone: ~/.omc/state/ralph-state.json: the copy in your home that OMC's hooks fall back to: it keeps ralph going once the cancel signal's 30 s are over; ${REMEDY}`;
      expect(dialogLines(st)).toContain(left);
      const entry = await cancelSession(st);
      expect(fs.existsSync(ralphStateFile(project.root, SID))).toBe(false);
      // Inside the window the signal lets the agent stop; the copy holds it after.
      expect(entry).toMatchObject({ phase: 'waiting', final: false });
      expect(entry.text).toMatch(/^not ended yet: ralph is still enforced \(/);

      now += 31_000;
      st.cancels.evaluate();
      const e = st.cancels.get(SID);
      expect(e).toMatchObject({ phase: 'not-taken', final: true });
      expect(e?.text).toBe(
        'cancel did not take: ralph is still enforced (~/.omc/state/ralph-state.json, the copy in the home the hooks fall back to: the Stop hook continues the loop)',
      );
      expect(e?.reason).toContain(REMEDY);
      // A second c on the row is the same plan (the copy, named), not "no active mode".
      expect(dialogLines(st)).toContain(left);
      // The real hook agrees, and it is the home copy that holds it: the same disk with an empty HOME lets it stop.
      expect(realHook('5.5.0', w.home)).toBe('block');
      const emptyHome = path.join(tmp ?? '', 'empty-home');
      fs.mkdirSync(emptyHome);
      expect(realHook('5.5.0', emptyHome)).toBe('stop');
    },
  );
});

describe('a re-armed file is judged by whether the Stop hook in force reads its mode', () => {
  it(
    'an ultrawork re-armed after the cancel under OMC 5.5.0 holds nothing: the cancel is not "did not take"',
    { timeout: scaled(60_000) },
    async () => {
      const { w, project, st } = world();
      writeOmcJson(
        ralphStateFile(project.root, SID),
        liveRalph({
          sessionId: SID,
          projectPath: project.dir,
          prompt: 'ralph fix',
          startedAt: now - 60_000,
          checkedAt: now,
        }),
      );
      writeRetiredUltrawork(project.root, SID);
      const rel = `state/sessions/${SID}/ultrawork-state.json`;
      const before = fs.readFileSync(path.join(project.root, rel), 'utf8');

      const entry = await cancelSession(st);
      expect(entry.text).toBe("ralph, ultrawork ended on disk · Claude's stop not observed");
      // A Stop event already under way (an OMC 4.x hook's) writes the loop back, as it was, a moment later.
      now += 1_000;
      fs.writeFileSync(path.join(project.root, rel), before);
      st.cancels.evaluate();
      const notRead = `${rel} was made active again after the cancel, but OMC 5.5.0's Stop hook does not read ultrawork (retired in OMC 5.5.0): it holds nothing`;
      expect(st.cancels.get(SID)).toMatchObject({
        phase: 'ended',
        text: "ralph, ultrawork ended on disk · Claude's stop not observed",
        reason: expect.stringContaining(notRead),
      });

      now += 30_000;
      st.cancels.evaluate();
      expect(st.cancels.get(SID)).toMatchObject({
        phase: 'unobserved',
        final: true,
        text: "ralph, ultrawork ended on disk · Claude's stop not observed",
        reason: expect.stringContaining(notRead),
      });
      // 5.5.0's real hook lets the agent stop past the window; 4.4.4's, which still reads ultrawork, would hold it.
      expect(realHook('5.5.0', w.home)).toBe('stop');
      expect(realHook('4.4.4', w.home)).toBe('block');
    },
  );
});
