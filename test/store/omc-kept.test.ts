/**
 * The last good OMC version under a running monitor: Claude's plugin registry caught torn or its settings.json left
 * unparsable does not say the plugin went, so the monitor keeps judging by the version it found (OMC 4.4.4 here,
 * whose real Stop hook enforces the keyword-started ultrawork that 5.5.0 retired), names the file, and says the version
 * is not re-checked until the file reads again. A file changed and still readable is followed as before.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { omcJson } from '../../src/feeds/omc-json.js';
import { detectOmcInstall, type OmcInstall } from '../../src/store/omc-install.js';
import { OmcRecheckTicker } from '../../src/store/omc-recheck.js';
import { collectDoctorReport } from '../../src/commands/doctor-checks.js';
import { omcLabel } from '../../src/store/omc-label.js';
import { keepLastGood } from '../../src/store/omc-kept.js';
import { OmcStore } from '../../src/store/store.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { headerFrame } from '../helpers/header-frame.js';
import { makeProject, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { OMC_PLUGIN_KEY, installPlugin, pluginWorld, writeRetiredUltrawork } from '../helpers/omc-plugin.js';
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

/**
 * A project with a keyword-started ultrawork, OMC 4.4.4 the user's enabled plugin, and a monitor on it. `ticker`: the
 * monitor looks at the files again only on its rounds (the test's), not every 100 ms.
 */
function monitored(ticker?: OmcRecheckTicker) {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-kept-'));
  const w = pluginWorld(tmp);
  installPlugin(w.config, OMC444);
  p = makeProject({ prefix: 'omc-top-kept-proj-' });
  writeRetiredUltrawork(p.root, SID);
  const env = { ...w.env, PATH: '' };
  // Every look's finding, as the monitor got it (the confirming look's too).
  const looks: OmcInstall[] = [];
  const detect = () => {
    const found = detectOmcInstall({ env, projectDir: (p as TempProject).dir, processes: false });
    looks.push(found);
    return found;
  };
  const said: Array<string | null> = [];
  const shown: string[] = [];
  const s = new OmcStore({
    root: p.root,
    projectDir: p.dir,
    omc: detect(),
    omcRedetect: detect,
    omcRecheckMs: 100,
    ...(ticker ? { omcRecheckTicker: ticker } : {}),
    watch: 'poll',
    claude: { live: false, env },
  });
  // What `watch --json` writes on its `omc` line: the message and the omc object.
  s.onOmcChange((words, next) => {
    said.push(words);
    shown.push(omcJson(next).source);
  });
  s.start();
  store = s;
  const registry = path.join(w.config, 'plugins', 'installed_plugins.json');
  const settings = path.join(w.config, 'settings.json');
  const problem = (file: string) => s.problems.getSnapshot().find((x) => x.path.endsWith(file))?.message ?? null;
  const verdict = () => s.sessions.getSnapshot().sessions.find((v) => v.id === SID)?.verdict ?? null;
  const realHook = (v: HookVersion) =>
    hookDecision(spawnStopHook(v, { cwd: (p as TempProject).dir, sessionId: SID, home: w.home, now: Date.now() }))
      .decision;
  // Every problem line the monitor showed, in order.
  const everShown: string[] = [];
  s.problems.subscribe(() => everShown.push(...s.problems.getSnapshot().map((x) => `${x.path}: ${x.message}`)));
  return { w, s, said, shown, registry, settings, problem, verdict, realHook, looks, everShown };
}

const WAIT = { timeoutMs: 15_000 };

describe('a file that decides the OMC version goes bad under a running monitor', () => {
  it('a torn registry keeps OMC 4.4.4 (not re-checked, the file named) until it reads again', async () => {
    const m = monitored();
    expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin)');
    expect(m.verdict()).toMatchObject({ rules: '4.4.4', decision: 'block' });
    expect(m.realHook('4.4.4')).toBe('block');

    const good = fs.readFileSync(m.registry, 'utf8');
    fs.writeFileSync(m.registry, good.slice(0, 60)); // caught torn
    const line = await waitFor(() => m.problem('installed_plugins.json'), { ...WAIT, what: 'the registry named' });
    expect(line).toMatch(/^truncated JSON .*; OMC 4\.4\.4 as found before is kept .*not re-checked until/);
    expect(m.s.omc).toMatchObject({ version: '4.4.4', assumed: false, rules: '4.4.4' });
    expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin · not re-checked)');
    // The header says so, and keeps saying so where the label has to be shortened for a long root path.
    const header = (root: string) => headerFrame({ sessions: m.s.sessions.getSnapshot(), omc: m.s.omc!, root });
    expect(header('/p/.omc')).toMatch(/OMC 4\.4\.4 \(plugin · not re-checked\) {2}00:00 UTC$/);
    expect(header(`/${'a-long-directory/'.repeat(3)}.omc`)).toMatch(/ OMC 4\.4\.4 \(not re-checked\)$/);
    // Still judged as 4.4.4's hook judges it: enforced, not "retired".
    expect(m.verdict()).toMatchObject({ rules: '4.4.4', decision: 'block' });
    expect(m.verdict()?.decision).toBe(m.realHook('4.4.4'));
    // No "OMC ? now" message; what --json's omc object says names the file and why the version is kept.
    expect(m.said).toEqual([null]);
    expect(m.shown[0]).toMatch(/installed_plugins\.json: truncated JSON.*not re-checked until the file can be read/);

    fs.writeFileSync(m.registry, good); // fixed
    await waitFor(() => m.problem('installed_plugins.json') === null && m.s.omc?.keptFrom === undefined, {
      ...WAIT,
      what: 'the registry read again',
    });
    expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin)');
    expect(m.said).toEqual([null, null]);
  });

  it('a broken settings.json keeps it too; an update made meanwhile is taken once the file reads again', async () => {
    const m = monitored();
    const enabled = fs.readFileSync(m.settings, 'utf8');
    fs.writeFileSync(m.settings, `{"enabledPlugins":{"${OMC_PLUGIN_KEY}":tr`); // a hand edit half done
    const line = await waitFor(() => m.problem('settings.json'), { ...WAIT, what: 'settings.json named' });
    expect(line).toMatch(/JSON .*OMC 4\.4\.4 as found before is kept/);
    expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin · not re-checked)');
    expect(m.verdict()).toMatchObject({ rules: '4.4.4', decision: 'block' });

    installPlugin(m.w.config, OMC55); // `claude plugin update` while settings.json cannot be read: not seen yet
    fs.writeFileSync(m.settings, enabled);
    await waitFor(() => m.verdict()?.rules === '5.5.0', { ...WAIT, what: 'the 5.5.0 book' });
    expect(m.s.omc).toMatchObject({ version: '5.5.0', refused: [] });
    expect(m.s.omc?.keptFrom).toBeUndefined();
    expect(m.verdict()?.decision).toBe(m.realHook('5.5.0'));
    expect(m.said).toEqual([null, 'OMC 5.5.0 now (was 4.4.4): verdicts re-judged']);
  });

  it('a registry rewritten whole without the plugin is followed: nothing is kept', async () => {
    const m = monitored();
    writeOmcJson(m.registry, { version: 2, plugins: {} }); // `claude plugin uninstall`
    await waitFor(() => m.s.omc?.assumed, { ...WAIT, what: 'the plugin gone' });
    expect(m.s.omc?.keptFrom).toBeUndefined();
    expect(m.verdict()).toMatchObject({ rules: '5.5.0' });
    expect(m.said).toEqual(['OMC ? (5.5.0 rules assumed) now (was 4.4.4): verdicts re-judged']);
  });
});

describe('a file that decides the OMC version holds JSON that is not an object', () => {
  // `null`, `[]`, `42`, `"x"`: no plugin can be read from any of them; refused like broken JSON, not read as "none".
  for (const file of ['installed_plugins.json', 'settings.json'] as const) {
    it(`${file} as null, [], 42 or "x" keeps OMC 4.4.4 (not re-checked) and says what was found`, async () => {
      const m = monitored();
      const at = file === 'settings.json' ? m.settings : m.registry;
      const good = fs.readFileSync(at, 'utf8');
      for (const [text, found] of [
        ['null', 'null'],
        ['[]', 'an array'],
        ['42', 'a number'],
        ['"x"', 'a string'],
      ] as const) {
        fs.writeFileSync(at, text);
        const line = await waitFor(() => m.problem(file)?.startsWith(`expected a JSON object, found ${found}`), {
          ...WAIT,
          what: `${file} as ${text} named`,
        }).then(() => m.problem(file));
        expect(line).toMatch(/; OMC 4\.4\.4 as found before is kept .*not re-checked until/);
        expect(m.s.omc).toMatchObject({ version: '4.4.4', assumed: false, rules: '4.4.4' });
        expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin · not re-checked)');
        expect(m.verdict()).toMatchObject({ rules: '4.4.4', decision: 'block' });
      }
      // No "OMC ? now" message at any step: each new reason only updates what is kept and why.
      expect(m.said.filter((w) => w !== null)).toEqual([]);
      fs.writeFileSync(at, good);
      await waitFor(() => m.problem(file) === null && m.s.omc?.keptFrom === undefined, {
        ...WAIT,
        what: `${file} read again`,
      });
      expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin)');
    });
  }
});

describe('a file that decides the OMC version is emptied under a running monitor', () => {
  // Empty and staying so: a fact, said as such, the last good version kept as for a file that cannot be read.
  for (const file of ['installed_plugins.json', 'settings.json'] as const) {
    it(`an empty ${file} that stays empty keeps OMC 4.4.4 (not re-checked) and says the file is empty`, async () => {
      const m = monitored();
      expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin)');
      const at = file === 'settings.json' ? m.settings : m.registry;
      const good = fs.readFileSync(at, 'utf8');
      fs.writeFileSync(at, ''); // truncated, and nothing written after
      const line = await waitFor(() => m.problem(file), { ...WAIT, what: `the empty ${file} named` });
      expect(line).toMatch(
        /^is empty \(0 bytes\): what Claude Code makes of an empty file here is not known to omc-top; OMC 4\.4\.4 as found before is kept .*not re-checked until/,
      );
      expect(m.s.omc).toMatchObject({ version: '4.4.4', assumed: false, rules: '4.4.4' });
      expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin · not re-checked)');
      // Judged as the real 4.4.4 hook judges it (the registry is no input of the hook's), not by the 5.5.0 book.
      expect(m.verdict()).toMatchObject({ rules: '4.4.4', decision: 'block' });
      expect(m.verdict()?.decision).toBe(m.realHook('4.4.4'));
      // watch --json's omc line: no "OMC ? now"; its source names the empty file.
      expect(m.said).toEqual([null]);
      expect(m.shown[0]).toContain(`${file}: is empty (0 bytes)`);
      expect(m.shown[0]).toMatch(/not re-checked until the file can be read again/);

      // A fresh process (doctor) has no version before it: it names the empty file and warns.
      const report = await collectDoctorReport({
        cwd: (p as TempProject).dir,
        env: { ...m.w.env, PATH: '' },
        poll: false,
        version: 'test',
        nodeVersion: process.version,
        terminal: { isTTY: true, columns: 120, rows: 40, colorDepth: 8 },
        watchTimeoutMs: scaled(60_000),
      });
      const check = report.checks.find((c) => c.id === 'omc');
      expect(check?.status).toBe('warn');
      expect(check?.details).toContainEqual(
        expect.stringMatching(new RegExp(`^not read: .*${file}: is empty \\(0 bytes\\)`)),
      );

      fs.writeFileSync(at, good); // written again
      await waitFor(() => m.problem(file) === null && m.s.omc?.keptFrom === undefined, {
        ...WAIT,
        what: `${file} read again`,
      });
      expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin)');
      expect(m.said).toEqual([null, null]);
    });
  }

  it('a fresh --json with the registry empty names the file in its problems and its source, and assumes', () => {
    const m = monitored(); // its world; what the monitor shows plays no part here
    fs.writeFileSync(m.registry, '');
    const env = { ...process.env, ...m.w.env, PATH: '', XDG_STATE_HOME: path.join(tmp as string, 'xdg') };
    const out = execFileSync(process.execPath, [BUNDLE, '--json', '--cwd', (p as TempProject).dir], {
      env,
      encoding: 'utf8',
    });
    const json = JSON.parse(out) as {
      omc_version: { version: string | null; source: string; assumed: boolean };
      problems: Array<{ path: string; message: string }>;
    };
    // No version before it to keep: the newest rules, assumed, and the empty file is why.
    expect(json.omc_version).toMatchObject({ version: null, assumed: true });
    expect(json.omc_version.source).toMatch(/^not found \(.*installed_plugins\.json: is empty \(0 bytes\): /);
    const line = json.problems.find((x) => x.path.endsWith('installed_plugins.json'));
    expect(line?.message).toMatch(/^is empty \(0 bytes\): .*; the OMC version is found without it \(not found/);
  });

  it('while a monitor keeps OMC 4.4.4 for an empty settings.json, a fresh --json and doctor say such a monitor keeps it', async () => {
    const m = monitored();
    fs.writeFileSync(m.settings, '');
    await waitFor(() => m.problem('settings.json'), { ...WAIT, what: 'the empty settings.json named' });
    // On the monitor's screen: 4.4.4 kept, the session held as the real 4.4.4 hook holds it.
    expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin · not re-checked)');
    expect(m.verdict()).toMatchObject({ rules: '4.4.4', decision: 'block' });
    expect(m.realHook('4.4.4')).toBe('block');

    // A fresh --json has no version before it: the newest rules, as the real 5.5.0 hook reads the session; its
    // source says the file is why, and that a monitor running from before keeps the version it found then.
    const env = { ...process.env, ...m.w.env, PATH: '', XDG_STATE_HOME: path.join(tmp as string, 'xdg') };
    const run = (args: string[]) => {
      try {
        return execFileSync(process.execPath, [BUNDLE, ...args, '--cwd', (p as TempProject).dir], {
          env,
          encoding: 'utf8',
        });
      } catch (e) {
        return String((e as { stdout?: unknown }).stdout ?? ''); // doctor exits non-zero on a warning
      }
    };
    const json = JSON.parse(run(['--json'])) as {
      omc_version: { version: string | null; source: string; assumed: boolean };
      sessions: Array<{ id: string; verdict: { rules: string; decision: string } | null }>;
    };
    expect(json.omc_version).toMatchObject({ version: null, assumed: true });
    expect(json.sessions.find((x) => x.id === SID)?.verdict).toMatchObject({ rules: '5.5.0', decision: 'stop' });
    expect(m.realHook('5.5.0')).toBe('stop');
    const why =
      /^not found \(.*settings\.json: is empty \(0 bytes\): .*; an omc-top monitor running since before the file became so keeps judging by the OMC version it found then, until the file reads again\): assuming the newest rules$/;
    expect(json.omc_version.source).toMatch(why);
    // doctor says the same words.
    const doctor = (JSON.parse(run(['doctor', '--json'])) as { checks: Array<{ id: string; summary: string }> }).checks;
    expect(doctor.find((c) => c.id === 'omc')?.summary).toBe(`${json.omc_version.source} (OMC 5.5.0)`);
  });

  it('a registry emptied and written again before the confirming look is no problem and no change', async () => {
    const ticker = new OmcRecheckTicker(3_600_000); // rounds only when the test calls them
    const m = monitored(ticker);
    const good = fs.readFileSync(m.registry, 'utf8');
    const before = m.looks.length;
    fs.writeFileSync(m.registry, ''); // a writer that truncates first…
    ticker.round();
    // The look was made while the file was empty, and saw it so.
    expect(m.looks.length).toBe(before + 1);
    expect(m.looks.at(-1)?.refused.map((r) => r.why)).toEqual([expect.stringMatching(/^is empty \(0 bytes\)/)]);
    fs.writeFileSync(m.registry, good); // …then writes, within the confirming window
    const seen = m.looks.length;
    await waitFor(() => m.looks.length > seen, { ...WAIT, what: 'the confirming look' });
    expect(m.looks.at(-1)?.refused).toEqual([]);
    // Nothing was taken from the empty moment: no problem line ever, no change said, the label as before.
    expect(m.everShown.filter((x) => x.includes('installed_plugins.json'))).toEqual([]);
    expect(m.said).toEqual([]);
    expect(omcLabel(m.s.omc!)).toBe('OMC 4.4.4 (plugin)');
    expect(m.verdict()).toMatchObject({ rules: '4.4.4', decision: 'block' });
  });
});

describe('the last good version and a live --plugin-dir', () => {
  it('a look that finds a live Claude with --plugin-dir takes it, even while a settings file is refused', () => {
    type Install = Parameters<typeof keepLastGood>[0];
    const good = {
      version: '4.4.4',
      assumed: false,
      source: 'OMC 4.4.4 from plugin oh-my-claudecode@omc (enabled in user settings)',
      sourceTag: 'plugin',
      refused: [],
    } as unknown as Install;
    const refused = [{ path: '/home/u/.claude/settings.json', why: 'is not JSON' }];
    const fromProcess = {
      version: '5.5.0',
      assumed: false,
      source: 'OMC 5.5.0 from claude --plugin-dir /src/omc (pid 77)',
      sourceTag: '--plugin-dir',
      process: { pid: 77, dir: '/src/omc' },
      refused,
    } as unknown as Install;
    expect(keepLastGood(fromProcess, good)).toBe(fromProcess);
    // The same look with no process decides by the files: the refused one keeps the last good answer.
    const fromFiles = { ...fromProcess, sourceTag: 'none', process: undefined, version: null, assumed: true };
    expect(keepLastGood(fromFiles as Install, good).version).toBe('4.4.4');
  });
});
