/**
 * An OMC newer than every release omc-top knows (asked with --omc-version, or found on disk) is judged by the newest
 * rules omc-top has, which is a guess: every surface that shows which rules judge says so in one line, the same
 * words (store/omc-books.ts newerThanKnownWords): the monitor's message line and the session's detail, `--json`'s
 * `omc_version.newer_than_known`, `watch --json`'s `ready` (and `omc` lines, whose message says it too). A release
 * omc-top knows (5.6.2, 5.5.0) is not said to be newer.
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { newerThanKnownWords } from '../../src/store/omc-books.js';
import { makeOmcInstall, omcChangeWords } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { NO_CLAUDE_DIR, READERS_CAPTURED_AT, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { describe, expect, it, KEY, onTestFinished } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';

const SAID =
  "OMC 9.9.9 is newer than any release omc-top knows (newest 5.6.x): judged by 5.6.x's rules (the 5.5.0 book, approx.)";

describe('an OMC newer than any release omc-top knows', () => {
  it('is said in one line of the same words; a known release is not', () => {
    expect(newerThanKnownWords('9.9.9')).toBe(SAID);
    expect(newerThanKnownWords('5.7.0')).toMatch(/^OMC 5\.7\.0 is newer than any release omc-top knows/);
    for (const known of ['5.6.2', '5.6.9', '5.5.0', '4.4.4', null]) expect(newerThanKnownWords(known)).toBeNull();
    // A plugin update to it, under a running monitor or watch: the update's words say it too.
    const was = makeOmcInstall('5.5.0', 'plugin');
    expect(omcChangeWords(makeOmcInstall('9.9.9', 'plugin'), was)).toBe(
      `OMC 9.9.9 now (was 5.5.0): verdicts re-judged; ${SAID}`,
    );
  });

  it('--json says it in omc_version.newer_than_known, asked with --omc-version or found on disk', ({
    project: p,
    tempDir,
  }) => {
    const env = {
      ...process.env,
      CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude'),
      CLAUDE_PLUGIN_ROOT: '',
      XDG_STATE_HOME: path.join(p.dir, 'xdg'),
    };
    const json = (args: string[], more: Record<string, string> = {}) =>
      JSON.parse(
        execFileSync(process.execPath, [BIN, '--json', '--root', p.root, ...args], {
          cwd: p.dir,
          env: { ...env, ...more },
          encoding: 'utf8',
        }),
      ).omc_version as Record<string, unknown>;
    expect(json(['--omc-version', '9.9.9'])).toEqual({
      version: '9.9.9',
      source: '--omc-version',
      assumed: false,
      rules: '5.5.0',
      newer_than_known: SAID,
    });
    expect(json(['--omc-version', '5.6.2']).newer_than_known).toBeNull();
    // Found on disk: the hook's own plugin root (CLAUDE_PLUGIN_ROOT) holds an OMC 9.9.9.
    const plugin = tempDir('omc-top-omc-999-');
    writeOmcJson(path.join(plugin, '.claude-plugin', 'plugin.json'), { name: 'oh-my-claudecode', version: '9.9.9' });
    expect(json([], { CLAUDE_PLUGIN_ROOT: plugin })).toMatchObject({ version: '9.9.9', newer_than_known: SAID });
  });

  it('watch --json says it on its ready line', async ({ project: p }) => {
    const c = spawn(
      process.execPath,
      [BIN, 'watch', '--json', '--snapshot', '--omc-version', '9.9.9', '--root', p.root],
      {
        cwd: p.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR, XDG_STATE_HOME: path.join(p.dir, 'xdg') },
      },
    );
    const exited = new Promise((resolve) => c.once('exit', resolve));
    onTestFinished(async () => {
      if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await exited;
    });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const ready = await waitFor(
      () =>
        out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.type === 'ready'),
      { timeoutMs: 30_000, what: 'the ready line' },
    );
    // Stopped as a script stops it, and gone before the project is removed (its status cache lives under it).
    c.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(ready.omc).toEqual({
      version: '9.9.9',
      source: '--omc-version',
      assumed: false,
      rules: '5.5.0',
      newer_than_known: SAID,
    });
  });

  it("the monitor says it on its message line at start, and the session's detail says it", async ({
    project: p,
    pty,
    mount,
  }) => {
    const h = pty({ cwd: p.dir, cols: 200, rows: 30, args: ['--omc-version', '9.9.9', '--root', p.root] });
    await h.waitForText(SAID);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);

    const store = new OmcStore({
      root: p.root,
      watch: 'none',
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
      omc: makeOmcInstall('9.9.9', '--omc-version'),
      clock: () => READERS_CAPTURED_AT,
    });
    store.start();
    const a = mount(store, { columns: 200, rows: 40, clock: () => READERS_CAPTURED_AT });
    await a.ready;
    await a.waitForText('ralph 3/10');
    await a.press(KEY.enter);
    expect(await a.waitForText('fields:')).toContain(`  ${SAID}`);
  });
});
