/**
 * OMC_STATE_DIR written into the project's `.claude/settings.json` while the monitor runs (sweep11 §2): Claude Code
 * gives its hooks the new value at once, so OMC 5.5.0 writes under `$OMC_STATE_DIR/<project id>` from the next hook
 * on. The running monitor follows, as a fresh one would start there: said once, header and rows from the new root,
 * its status cache (what `status --tmux` answers from) kept for the new root. Taking the key out again moves it back
 * and says that a Claude started before keeps the old value until it restarts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveStatusCache } from '../../src/feeds/attention/status-cache.js';
import { makeProject, waitFor, writeLiveRalph, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, omc55Root, pluginWorld } from '../helpers/omc-plugin.js';
import { TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'aaaaaaaa-1111-4222-8333-444444444444';
const SID2 = 'bbbbbbbb-1111-4222-8333-444444444444';
let h: TerminalHarness | null = null;
let p: TempProject | null = null;
let tmp: string | null = null;
afterEach(() => {
  h?.dispose();
  p?.cleanup();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  h = p = tmp = null;
});

/** The session rows and the header: the screen without its message and footer lines. */
const body = (t: string) => t.split('\n').slice(0, -4).join('\n');

describe("OMC_STATE_DIR set in the project's Claude settings under a running monitor", () => {
  it(
    'the monitor follows it there, says so once, and back when it is taken out',
    { timeout: scaled(120_000) },
    async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-statedir-'));
      const w = pluginWorld(tmp);
      installPlugin(w.config, OMC55);
      p = makeProject({ prefix: 'omc-top-statedir-proj-' });
      writeLiveRalph(p, { sessionId: SID, iteration: 3, prompt: 'ralph in the project .omc' });
      const base = path.join(tmp, 'central');
      // Where OMC 5.5.0's own code keeps this project's state once its hooks get OMC_STATE_DIR, with a loop there.
      const central = omc55Root(p.dir, { ...w.env, OMC_STATE_DIR: base });
      expect(central.startsWith(base)).toBe(true);
      writeLiveRalph({ root: central }, { sessionId: SID2, iteration: 7, prompt: 'ralph in the central state' });
      const stateHome = path.join(tmp, 'xdg-state');
      h = new TerminalHarness({ cwd: p.dir, cols: 400, rows: 30, env: { ...w.env, XDG_STATE_HOME: stateHome } });
      const before = await h.waitForText('ralph in the project .omc', 30_000);
      expect(before.split('\n')[0]).toContain(p.root);
      expect(body(before)).not.toContain('central state');

      const settings = path.join(p.dir, '.claude', 'settings.json');
      writeOmcJson(settings, { env: { OMC_STATE_DIR: base } });
      const said = `OMC_STATE_DIR set in the project's .claude/settings.json: state read from ${central} now (was ${p.root})`;
      await h.waitForText(said, 30_000);
      const after = await h.waitForText('ralph in the central state', 15_000);
      expect(after.split('\n')[0]).toContain(central);
      expect(body(after)).not.toContain('ralph in the project .omc');
      // `status --tmux` answers from the monitor's cache: kept for the root the hooks write to now.
      const cacheDir = path.join(stateHome, 'omc-top');
      await waitFor(() => liveStatusCache(cacheDir, central).cache !== null, {
        what: 'the status cache of the new root',
        timeoutMs: 15_000,
      });

      writeOmcJson(settings, {});
      const back =
        `OMC_STATE_DIR no longer set in Claude's settings: state read from ${p.root} now (was ${central}); ` +
        `a Claude started before the change keeps writing under ${central} until it restarts`;
      await h.waitForText(back, 30_000);
      const again = await h.waitForText('ralph in the project .omc', 15_000);
      expect(again.split('\n')[0]).toContain(p.root);
      // Each move said once: the message log (M) holds every message shown.
      h.write('M');
      const log = await h.waitForText(/Messages \(\d+, newest last\)/);
      expect(log.match(/^\d\d:\d\d:\d\d · OMC_STATE_DIR set in /gm)).toHaveLength(1);
      expect(log.match(/^\d\d:\d\d:\d\d · OMC_STATE_DIR no longer set in /gm)).toHaveLength(1);
    },
  );
});
