/**
 * `omc-top cancel` on a session whose ralph the Stop hook also holds from its `~/.omc/state` copy (OMC 5.5.0 falls
 * back to it once the session's own file is gone). omc-top never changes files outside .omc, so every run says the
 * same: not taken (exit 1), the copy named as what holds the loop once the signal's window is over, what ends it,
 * and `still_active` listing it; a second run is never "already ended". The real 5.5.0 Stop hook agrees.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { liveRalph, makeProject, ralphStateFile, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, pluginWorld, type PluginWorld } from '../helpers/omc-plugin.js';
import { hookDecision, spawnStopHook } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'dddddddd-1111-4222-8333-444444444444';
const HOME_COPY = '~/.omc/state/ralph-state.json';
const REMEDY = "omc-top never changes files outside .omc: OMC's own /cancel ends it, or remove that file";
let p: TempProject | null = null;
let tmp: string | null = null;
afterEach(() => {
  p?.cleanup();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  p = tmp = null;
});

function world(): { w: PluginWorld; project: TempProject; copy: string; now: number } {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cancel-home-copy-'));
  const w = pluginWorld(tmp);
  installPlugin(w.config, OMC55);
  const project = makeProject({ prefix: 'omc-top-cancel-home-copy-proj-' });
  p = project;
  const now = Date.now();
  const loop = liveRalph({ sessionId: SID, projectPath: project.dir, startedAt: now - 60_000, checkedAt: now });
  writeOmcJson(ralphStateFile(project.root, SID), loop);
  const copy = path.join(w.home, '.omc', 'state', 'ralph-state.json');
  writeOmcJson(copy, loop);
  return { w, project, copy, now };
}

async function cancel(w: PluginWorld, project: TempProject, at: number, ...args: string[]) {
  let out = '';
  const code = await runCancelCommand([SID, ...args], {
    out: (t) => void (out += t),
    err: (t) => void (out += t),
    cwd: project.dir,
    now: () => at,
    env: { ...w.env, XDG_STATE_HOME: path.join(tmp ?? '', 'xdg-state'), PATH: '' },
  });
  return { code, out };
}

const realHook = (w: PluginWorld, at: number) =>
  hookDecision(spawnStopHook('5.5.0', { cwd: p?.dir ?? '', sessionId: SID, home: w.home, now: at })).decision;

describe('omc-top cancel on a loop its ~/.omc/state copy holds', () => {
  it(
    'says not taken, names the copy and what ends it, on the first run and every one after',
    { timeout: scaled(60_000) },
    async () => {
      const { w, project, copy, now } = world();
      const first = await cancel(w, project, now);
      expect(first.code).toBe(1);
      expect(fs.existsSync(ralphStateFile(project.root, SID))).toBe(false);
      // Never touched: it is outside .omc.
      expect(fs.existsSync(copy)).toBe(true);
      const lines = first.out.split('\n');
      expect(lines[0]).toBe(
        `omc-top cancel: cancel did not take: ${HOME_COPY}: the copy in your home that OMC's hooks fall back to holds ralph once the cancel signal's window is over (${new Date(now + 30_000).toISOString().slice(11, 19)} UTC); ${REMEDY}`,
      );
      expect(first.out).toContain(`  skipped  ${HOME_COPY}: the copy in your home that OMC's hooks fall back to`);
      // The hook line says the stop is for the signal's window only, and what holds after it: no contradiction.
      expect(lines.find((l) => l.startsWith('  Stop hook'))).toMatch(
        new RegExp(
          `^  Stop hook \\(OMC 5\\.5\\.0 rules\\): lets the agent stop while the cancel signal is in force \\(.*\\); after that it blocks for ralph \\(${HOME_COPY.replace(/[.~]/g, '\\$&')}\\)$`,
        ),
      );
      expect(first.out).not.toContain('no targeted mode is active');

      // A second run a second later, inside the window: the same answer, never "already ended".
      const second = await cancel(w, project, now + 1_000, '--json');
      expect(second.code).toBe(1);
      const j = JSON.parse(second.out) as Record<string, any>;
      expect(j).toMatchObject({ ok: false, session: SID, modes: ['ralph'], steps: [] });
      expect(j.error).toBeUndefined();
      expect(j.still_active).toEqual([
        {
          rel: HOME_COPY,
          mode: 'ralph',
          why: `the copy in your home that OMC's hooks fall back to holds ralph once the cancel signal's window is over (${new Date(now + 31_000).toISOString().slice(11, 19)} UTC); ${REMEDY}`,
        },
      ]);
      expect(j.skipped).toContainEqual(expect.objectContaining({ rel: HOME_COPY }));

      // Past the window: the real 5.5.0 Stop hook holds the agent from the copy, and omc-top cancel still says so.
      const later = now + 40_000;
      expect(realHook(w, later)).toBe('block');
      const third = await cancel(w, project, later, '--json');
      expect(third.code).toBe(1);
      expect((JSON.parse(third.out) as Record<string, any>).still_active).toEqual([
        expect.objectContaining({ rel: HOME_COPY, mode: 'ralph' }),
      ]);

      // Removed as the words say: the next cancel has nothing to cancel, and the real hook lets the agent stop.
      fs.rmSync(copy);
      expect(realHook(w, later + 40_000)).toBe('stop');
      expect((await cancel(w, project, later + 40_000)).code).toBe(4);
    },
  );
});
