/**
 * A plugin update under the running monitor, in a real terminal: `claude plugin update` moves the registry to
 * another OMC package, and the screen says so once on the message line and shows the session re-judged by the
 * new book (OMC 4.4.4 enforces a keyword-started ultrawork; 5.5.0 retired it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, waitFor, writeLiveRalph, type TempProject } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, omc55Root, omcInPlace, pluginWorld, writeRetiredUltrawork } from '../helpers/omc-plugin.js';
import { writeRegistry } from '../helpers/claude-files.js';
import { BIN, TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'aaaaaaaa-1111-4222-8333-444444444444';
const SID2 = 'bbbbbbbb-1111-4222-8333-444444444444';
let h: TerminalHarness | null = null;
let p: TempProject | null = null;
let tmp: string | null = null;
let claude: ChildProcess | null = null;
afterEach(() => {
  h?.dispose();
  claude?.kill('SIGKILL');
  claude = null;
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

  it(
    "OMC upgraded in place in a running Claude's --plugin-dir: the header, the row, the message line and status --tmux follow",
    { timeout: scaled(120_000) },
    async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-upgrade-'));
      const w = pluginWorld(tmp); // the plugin is enabled but none installed: only the --plugin-dir names an OMC
      const env = { ...w.env, XDG_STATE_HOME: path.join(tmp, 'state') };
      const omc = path.join(tmp, 'omc');
      omcInPlace(omc, OMC444);
      p = makeProject({ prefix: 'omc-top-upgrade-proj-' });
      writeLiveRalph(p, { sessionId: SID, iteration: 4, max: 100, projectPath: p.dir, prompt: 'build the widget' });
      writeRetiredUltrawork(p.root, SID);
      // `claude --plugin-dir <omc>` working on that session: a process whose command line says so, in the registry.
      const script = path.join(tmp, 'claude.js');
      fs.writeFileSync(script, 'setInterval(() => {}, 1 << 30);\n');
      const c = spawn(process.execPath, [script, '--plugin-dir', omc], { cwd: p.dir, env: { ...process.env, ...env } });
      claude = c;
      await new Promise((resolve, reject) => c.once('spawn', resolve).once('error', reject));
      writeRegistry(w.config, c.pid as number, SID, { status: 'busy', cwd: p.dir });
      const status = () =>
        spawnSync(process.execPath, [BIN, 'status', '--tmux'], { cwd: p?.dir, env: { ...process.env, ...env } })
          .stdout.toString()
          .trim();

      h = new TerminalHarness({ cwd: p.dir, cols: 160, rows: 30, env });
      const row = /^▸ (\S.*?)\s{2,}aaaaaaaa-1111-4222-8\S*\s+ralph 4\/100 · ultrawork 2\/50( \(retired\))?/m;
      // Joined to its Claude ("busy"): the pass that joins it reads the Claude's command line.
      const before = await h.waitForText(new RegExp(`${row.source}.*busy`, 'm'), 30_000);
      expect(row.exec(before)?.slice(1)).toEqual(['enforced', undefined]);
      expect(before.split('\n')[0]).toContain('OMC 4.4.4 (--plugin-dir)');
      // The monitor's line, from its cache: the ultrawork counts under 4.4.4.
      await waitFor(() => status() === 'ralph 4/100 +1 · needs you: 0', { what: `4.4.4's line (${status()})` });

      omcInPlace(omc, OMC55); // the same directory, now 5.5.0 (its next Stop runs 5.5.0's scripts)
      const said = 'OMC 5.5.0 (--plugin-dir) now (was 4.4.4 (--plugin-dir)): verdicts re-judged';
      await h.waitForText(said, 30_000);
      // One frame: the header's label and the row re-judged by 5.5.0's book (a frame is written in pieces: waited whole).
      const after = await h.waitForText(
        /^omc-top .*OMC 5\.5\.0 .*\n(?:.*\n)*▸ \S.*ralph 4\/100 · ultrawork 2\/50 \(retired\)/,
        5_000,
      );
      expect(after.split('\n')[0]).toMatch(/running {2}OMC 5\.5\.0 \(--plugin-dir\) {2}\d\d:\d\d/);
      expect(after.split('\n')[0]).not.toContain('4.4.4');
      await waitFor(() => status() === 'ralph 4/100 · needs you: 0', { what: `5.5.0's line (${status()})` });
      // Said once: the message log (M) holds every message shown.
      h.write('M');
      const log = await h.waitForText(/Messages \(\d+, newest last\)/);
      expect(log.split('\n').filter((l) => /^\d\d:\d\d:\d\d · /.test(l) && l.endsWith(said))).toHaveLength(1);
    },
  );
});
