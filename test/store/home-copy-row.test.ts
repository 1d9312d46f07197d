/**
 * A loop held only by the session's `~/.omc/state` copy (OMC 5.5.0 falls back to it for a loop the session owns):
 * the row, the header's counts, `--json` and `status` say that loop, as the verdict and the real Stop hook do, and
 * the copy's path says where it is. The watch of `~/.omc/state` brings its removal to the row.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { loopValues } from '../../src/feeds/status-line.js';
import { computeStatus } from '../../src/commands/status.js';
import { modesText } from '../../src/panes/sessions/rows.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { liveRalph, makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, pluginWorld, type PluginWorld } from '../helpers/omc-plugin.js';
import { hookDecision, spawnStopHook } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'cccccccc-1111-4222-8333-444444444444';
const HOME_COPY = '~/.omc/state/ralph-state.json';
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

/** OMC 5.5.0 as the user-scope plugin, a session directory with no loop of its own, its ralph in the home. */
function world(): { w: PluginWorld; project: TempProject; copy: string } {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-home-copy-'));
  const w = pluginWorld(tmp);
  installPlugin(w.config, OMC55);
  const project = makeProject({ prefix: 'omc-top-home-copy-proj-' });
  p = project;
  fs.mkdirSync(path.join(project.root, 'state', 'sessions', SID), { recursive: true });
  const now = Date.now();
  const copy = path.join(w.home, '.omc', 'state', 'ralph-state.json');
  writeOmcJson(
    copy,
    liveRalph({ sessionId: SID, projectPath: project.dir, iteration: 3, max: 10, startedAt: now, checkedAt: now }),
  );
  return { w, project, copy };
}

function open(w: PluginWorld, project: TempProject, watch: 'none' | 'auto'): OmcStore {
  const env = { ...w.env, PATH: '' };
  const st = new OmcStore({
    root: project.root,
    projectDir: project.dir,
    stateDir: path.join(tmp ?? '', 'omc-top-state'),
    omc: detectOmcInstall({ env, projectDir: project.dir, processes: false }),
    watch,
    home: w.home,
    claude: { live: false, env },
  });
  store = st;
  st.start();
  expect(st.sessions.rules).toBe('5.5.0');
  return st;
}

const realHook = (w: PluginWorld) =>
  hookDecision(spawnStopHook('5.5.0', { cwd: p?.dir ?? '', sessionId: SID, home: w.home, now: Date.now() })).decision;

const rowOf = (st: OmcStore) => st.sessions.getSnapshot().sessions.find((s) => s.id === SID);

describe("a loop held by the session's ~/.omc/state copy", () => {
  it('reads as that loop on the row, the counts, --json and status, with the copy named', () => {
    const { w, project } = world();
    const st = open(w, project, 'none');
    const row = rowOf(st)!;
    expect(row.verdict).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(row.status).toBe('enforced');
    expect(modesText(row, 120)).toBe('ralph 3/10');
    expect(row.modes.map((m) => m.path)).toEqual([HOME_COPY]);
    expect(st.sessions.getSnapshot().counts).toMatchObject({ running: 1, loops: 1 });
    expect(loopValues(st.sessions.getSnapshot()).loops).toBe('ralph 3/10');
    const doc = JSON.parse(
      JSON.stringify(
        buildJsonReport({ root: project.root, rootRule: 't', notices: [], sessions: st.sessions.getSnapshot() }),
      ),
    ) as { sessions: { id: string; status: string; modes: { mode: string; path: string; enforced: boolean }[] }[] };
    expect(doc.sessions.find((s) => s.id === SID)).toMatchObject({
      status: 'enforced',
      modes: [{ mode: 'ralph', path: HOME_COPY, enforced: true }],
    });
    // `omc-top status` (no monitor running) reads the same home.
    const res = { root: project.root, projectDir: project.dir, rule: 'git' as const };
    expect(computeStatus(res, 'proj', { ...w.env, PATH: '' }, st.sessions.omc).loops).toBe('ralph 3/10');
    // The real 5.5.0 Stop hook holds the agent for it.
    expect(realHook(w)).toBe('block');
  });

  it(
    'goes from the row when the copy is removed from the home, seen by the watch',
    { timeout: scaled(30_000) },
    async () => {
      const { w, project, copy } = world();
      const st = open(w, project, 'auto');
      expect(rowOf(st)?.status).toBe('enforced');
      fs.rmSync(copy);
      const deadline = Date.now() + scaled(10_000);
      while (rowOf(st)?.status !== 'idle' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(rowOf(st)).toMatchObject({ status: 'idle', modes: [] });
      expect(st.sessions.getSnapshot().counts).toMatchObject({ running: 0, loops: 0 });
      expect(realHook(w)).toBe('stop');
    },
  );
});
