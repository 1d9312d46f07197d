/**
 * A plugin update under the running monitor, in a real terminal: `claude plugin update` moves the registry to
 * another OMC package, and the screen says so once on the message line and shows the session re-judged by the
 * new book (OMC 4.4.4 enforces a keyword-started ultrawork; 5.5.0 retired it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, writeLiveRalph, type TempProject } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, omc55Root, pluginWorld, writeRetiredUltrawork } from '../helpers/omc-plugin.js';
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

/** The session rows and the header, for the assertions: the screen without its message and footer lines. */
const body = (t: string) => t.split('\n').slice(0, -4).join('\n');

describe('an OMC plugin update under the monitor, on screen', () => {
  it('the message line says it once and the row is re-judged', { timeout: scaled(90_000) }, async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-upgrade-'));
    const w = pluginWorld(tmp);
    installPlugin(w.config, OMC444);
    p = makeProject({ prefix: 'omc-top-upgrade-proj-' });
    writeRetiredUltrawork(p.root, SID);
    h = new TerminalHarness({ cwd: p.dir, cols: 140, rows: 30, env: w.env });
    const row = /^▸ (\S.*?)\s{2,}aaaaaaaa-1111-4222-8\s+ultrawork 2\/50( \(retired\))?/m;
    const before = await h.waitForText(row, 30_000);
    expect(row.exec(before)?.slice(1)).toEqual(['enforced', undefined]);
    // The rule names the release that found the root.
    expect(before.split('\n')[0]).toContain('git top-level (OMC 4.4.4)');

    installPlugin(w.config, OMC55); // `claude plugin update`
    const after = await h.waitForText('OMC 5.5.0 now (was 4.4.4): verdicts re-judged', 30_000);
    const rejudged = await h.waitForText(
      /^▸ not enforced\s+aaaaaaaa-1111-4222-8\s+ultrawork 2\/50 \(retired\)/m,
      5_000,
    );
    // How the root was found is the new release's (5.5 reads OMC_STATE_DIR; 4.x did not), and said once.
    expect(rejudged.split('\n')[0]).not.toContain('(OMC 4.4.4)');
    expect(after).toContain('OMC 5.5.0 now');
    // Said once: the message log (M) holds every message shown.
    h.write('M');
    const log = await h.waitForText(/Messages \(\d+, newest last\)/);
    expect(log.match(/^\d\d:\d\d:\d\d · OMC 5\.5\.0 now \(was 4\.4\.4\): verdicts re-judged$/gm)).toHaveLength(1);
  });

  it(
    'an upgrade that moves the state (OMC_STATE_DIR: 4.4.4 ignores it, 5.5.0 keeps state there) is followed',
    {
      timeout: scaled(90_000),
    },
    async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-upgrade-'));
      const w = pluginWorld(tmp);
      installPlugin(w.config, OMC444);
      p = makeProject({ prefix: 'omc-top-upgrade-proj-' });
      writeRetiredUltrawork(p.root, SID);
      const env = { ...w.env, OMC_STATE_DIR: path.join(tmp, 'central') };
      // Where OMC 5.5.0's own code keeps this project's state, with a ralph loop its hooks left there.
      const central = omc55Root(p.dir, env);
      expect(central.startsWith(path.join(tmp, 'central'))).toBe(true);
      writeLiveRalph({ root: central }, { sessionId: SID2, iteration: 3, prompt: 'ralph in the central state' });
      h = new TerminalHarness({ cwd: p.dir, cols: 240, rows: 30, env });
      const before = await h.waitForText('refactor the parser module', 30_000);
      expect(before.split('\n')[0]).toContain(p.root);
      expect(before).not.toContain('central state');

      installPlugin(w.config, OMC55);
      const said = `OMC 5.5.0 now (was 4.4.4): verdicts re-judged; state read from ${central} now (was ${p.root})`;
      await h.waitForText(said, 30_000);
      const after = await h.waitForText('ralph in the central state', 15_000);
      expect(after.split('\n')[0]).toContain(central);
      expect(body(after)).not.toContain('refactor the parser module');
    },
  );
});
