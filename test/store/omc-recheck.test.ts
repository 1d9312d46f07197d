/**
 * The OMC that runs the hooks, as a running monitor keeps judging by it: a plugin update under the monitor (the
 * registry rewritten to another package, as `claude plugin update` does) re-judges every session by the new
 * book, says so once, and the verdict is the real hook's; dotfiles-linked settings and CLAUDE.md are followed as
 * Claude Code follows them; a file that is there and refused (a FIFO, too big) is named, never a silent
 * "not found". The installs are the real OMC packages' manifests, the verdicts compared with their Stop hooks.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectOmcInstall, makeOmcInstall, type OmcReadMemo } from '../../src/store/omc-install.js';
import { OmcRecheck, OmcRecheckTicker } from '../../src/store/omc-recheck.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { writeRetiredUltrawork } from '../helpers/omc-plugin.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'aaaaaaaa-1111-4222-8333-444444444444';
let p: TempProject | null = null;
let tmp: string | null = null;
let store: OmcStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
  p?.cleanup();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  p = tmp = null;
});

/** A Claude config dir with the OMC plugin enabled for the user, its registry entry at `pkg`'s manifest. */
function world() {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-recheck-'));
  const home = path.join(tmp, 'home');
  const config = path.join(home, '.claude');
  fs.mkdirSync(path.join(config, 'plugins'), { recursive: true });
  p = makeProject({ prefix: 'omc-top-recheck-proj-' });
  writeRetiredUltrawork(p.root, SID);
  const env = { HOME: home, CLAUDE_CONFIG_DIR: config, PATH: '', NPM_CONFIG_PREFIX: path.join(tmp, 'npm') };
  return { home, config, env, project: p.dir };
}

/** The registry as `claude plugin install` / `update` writes it, pointing at one OMC package. */
function registry(config: string, pkg: string): void {
  const install = path.join(config, 'plugins', 'cache', 'omc', 'oh-my-claudecode', path.basename(pkg));
  fs.mkdirSync(install, { recursive: true });
  fs.copyFileSync(path.join(pkg, 'package.json'), path.join(install, 'package.json'));
  const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
  writeOmcJson(path.join(config, 'plugins', 'installed_plugins.json'), {
    version: 2,
    plugins: { 'oh-my-claudecode@omc': [{ scope: 'user', installPath: install, version }] },
  });
}

const enabled = JSON.stringify({ enabledPlugins: { 'oh-my-claudecode@omc': true } });

/** The real Stop hook's decision for the session. */
const realHook = (v: HookVersion, w: { home: string; project: string }) =>
  hookDecision(spawnStopHook(v, { cwd: w.project, sessionId: SID, home: w.home, now: Date.now() })).decision;

const verdictOf = (s: OmcStore) => s.sessions.getSnapshot().sessions.find((v) => v.id === SID)?.verdict ?? null;

describe('a plugin update under a running monitor', () => {
  it('re-judges every session by the new book, says it once, and agrees with the real hook', async () => {
    const w = world();
    fs.writeFileSync(path.join(w.config, 'settings.json'), enabled);
    registry(w.config, OMC444);
    const detect = () => detectOmcInstall({ env: w.env, projectDir: w.project, processes: false });
    const said: Array<string | null> = [];
    store = new OmcStore({
      root: (p as TempProject).root,
      projectDir: w.project,
      omc: detect(),
      omcRedetect: detect,
      omcRecheckMs: 100,
      watch: 'poll',
      claude: { live: false, env: w.env },
    });
    store.onOmcChange((words) => said.push(words));
    store.start();
    expect(store.omc?.version).toBe('4.4.4');
    expect(verdictOf(store)).toMatchObject({ rules: '4.4.4', decision: 'block', mode: 'ultrawork' });
    expect(realHook('4.4.4', w)).toBe('block');

    registry(w.config, OMC55); // `claude plugin update`
    const s = store;
    await waitFor(() => verdictOf(s)?.rules === '5.5.0', { timeoutMs: scaled(15_000), what: 'the 5.5.0 book' });
    expect(verdictOf(store)?.decision).toBe(realHook('5.5.0', w));
    expect(verdictOf(store)?.decision).toBe('stop');
    expect(store.omc?.version).toBe('5.5.0');
    expect(said).toEqual(['OMC 5.5.0 now (was 4.4.4): verdicts re-judged']);
  });
});

describe('the files that decide the version, as Claude Code reads them', () => {
  it('a dotfiles-linked settings.json and CLAUDE.md are followed', () => {
    const w = world();
    registry(w.config, OMC444);
    const dots = path.join(tmp as string, 'dotfiles');
    fs.mkdirSync(dots);
    fs.writeFileSync(path.join(dots, 'claude-settings.json'), enabled);
    fs.symlinkSync(path.join(dots, 'claude-settings.json'), path.join(w.config, 'settings.json'));
    const r = detectOmcInstall({ env: w.env, projectDir: w.project, processes: false });
    expect(r).toMatchObject({ version: '4.4.4', rules: '4.4.4', assumed: false, refused: [] });
    expect(realHook('4.4.4', w)).toBe('block');

    // No plugin: the marker OMC's setup wrote, in a linked CLAUDE.md.
    fs.rmSync(path.join(w.config, 'settings.json'));
    fs.writeFileSync(path.join(dots, 'CLAUDE.md'), '# mine\n<!-- OMC:VERSION:4.4.4 -->\n');
    fs.symlinkSync(path.join(dots, 'CLAUDE.md'), path.join(w.config, 'CLAUDE.md'));
    const m = detectOmcInstall({ env: w.env, projectDir: w.project, processes: false });
    expect(m).toMatchObject({ version: '4.4.4', sourceTag: 'CLAUDE.md', refused: [] });
  });

  it('a FIFO settings.json is named as refused: a problem line, and the source says why', () => {
    const w = world();
    registry(w.config, OMC444);
    const dots = path.join(tmp as string, 'dotfiles');
    fs.mkdirSync(dots);
    fs.symlinkSync(path.join(dots, 'pipe'), path.join(w.config, 'settings.json'));
    execFileSync('mkfifo', [path.join(dots, 'pipe')]);
    // A registry grown past any real one (sparse: no disk spent) is refused by size, and named too.
    fs.truncateSync(path.join(w.config, 'plugins', 'installed_plugins.json'), 5 * 1024 * 1024);
    const omc = detectOmcInstall({ env: w.env, projectDir: w.project, processes: false });
    expect(omc).toMatchObject({ version: null, assumed: true });
    expect(omc.source).toMatch(/settings\.json: is a symlink to a FIFO/);
    store = new OmcStore({ root: (p as TempProject).root, projectDir: w.project, omc, watch: 'none' });
    store.start();
    const lines = store.problems.getSnapshot();
    expect(lines.find((x) => x.path.endsWith('settings.json'))?.message).toMatch(
      /FIFO.*the OMC version is found without it/,
    );
    expect(lines.find((x) => x.path.endsWith('installed_plugins.json'))?.message).toMatch(/over the 4\.0 MB limit/);
    expect(omc.source).toMatch(/installed_plugins\.json: file is 5\.0 MB/);
  });
});

describe('one timer for a process that watches many projects (the fleet, serve --all)', () => {
  it('a round reads the files the projects share once; the confirming look reads afresh', () => {
    const w = world();
    fs.writeFileSync(path.join(w.config, 'settings.json'), enabled);
    registry(w.config, OMC444);
    const other = path.join(tmp as string, 'other');
    fs.mkdirSync(other);
    const reads: OmcReadMemo = new Map();
    const first = detectOmcInstall({ env: w.env, projectDir: w.project, processes: false, reads });
    registry(w.config, OMC55); // rewritten between two projects' looks of one round
    const second = detectOmcInstall({ env: w.env, projectDir: other, processes: false, reads });
    expect([first.version, second.version]).toEqual(['4.4.4', '4.4.4']);
    expect(detectOmcInstall({ env: w.env, projectDir: other, processes: false }).version).toBe('5.5.0');
  });

  it('runs one interval for every project registered, and none once the last is gone', () => {
    vi.useFakeTimers();
    try {
      const ticker = new OmcRecheckTicker(1000);
      const looked: Array<OmcReadMemo | undefined> = [];
      const install = makeOmcInstall('4.4.4', 'test');
      const rechecks = [1, 2, 3].map(
        () =>
          new OmcRecheck({
            detect: (reads) => (looked.push(reads), install),
            current: () => install,
            apply: () => undefined,
            ticker,
          }),
      );
      for (const r of rechecks) r.start();
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(1000);
      expect(looked).toHaveLength(3);
      expect(new Set(looked).size).toBe(1); // one round, one set of shared reads
      expect(looked[0]).toBeInstanceOf(Map);
      for (const r of rechecks) r.stop();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
