/**
 * An empty settings layer is named only where its contents could change which OMC runs the hooks. A `touch`ed
 * .claude/settings.local.json with no OMC plugin installed reads as a missing one on every one-shot surface (--json,
 * doctor --json): no problem line, no "not read", not named in omc_version.source. With OMC installed it could
 * disable it, so it is named, beside the version found.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC444 } from '../helpers/omc-packages.mjs';
import { installPlugin, pluginWorld, type PluginWorld } from '../helpers/omc-plugin.js';

let p: TempProject | null = null;
let tmp: string | null = null;
afterEach(() => {
  p?.cleanup();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  p = tmp = null;
});

interface Seen {
  omc: { version: string | null; source: string; assumed: boolean };
  problems: Array<{ path: string; message: string }>;
  /** doctor --json's "OMC install" check. */
  doctor: { status: string; summary: string; details: string[] };
}

/** What a fresh `--json` and `doctor --json` say of the project, as a user runs them. */
function lookFresh(w: PluginWorld, dir: string): Seen {
  const env = { ...process.env, ...w.env, PATH: '', XDG_STATE_HOME: path.join(tmp as string, 'xdg') };
  const run = (args: string[]) => {
    try {
      return execFileSync(process.execPath, [BUNDLE, ...args, '--cwd', dir], { env, encoding: 'utf8' });
    } catch (e) {
      // doctor exits non-zero when a check warns; its --json is on stdout all the same.
      return String((e as { stdout?: unknown }).stdout ?? '');
    }
  };
  const json = JSON.parse(run(['--json'])) as { omc_version: Seen['omc']; problems: Seen['problems'] };
  const doc = JSON.parse(run(['doctor', '--json'])) as { checks: Array<Seen['doctor'] & { id: string }> };
  const doctor = doc.checks.find((c) => c.id === 'omc');
  if (!doctor) throw new Error('doctor --json has no OMC install check');
  return { omc: json.omc_version, problems: json.problems, doctor };
}

/** A world where Claude's user settings enable nothing, no plugin is installed, and a project beside it. */
function world(): { w: PluginWorld; local: string } {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-empty-layer-'));
  const w = pluginWorld(tmp);
  writeOmcJson(path.join(w.config, 'settings.json'), {});
  p = makeProject({ prefix: 'omc-top-empty-layer-proj-' });
  const local = path.join(p.dir, '.claude', 'settings.local.json');
  fs.mkdirSync(path.dirname(local), { recursive: true });
  return { w, local };
}

describe('an empty project settings.local.json', () => {
  it('with no OMC plugin installed reads as a missing one: no warning, not named in the source', () => {
    const { w, local } = world();
    const dir = (p as TempProject).dir;
    const absent = lookFresh(w, dir);
    fs.writeFileSync(local, ''); // `touch .claude/settings.local.json`
    const empty = lookFresh(w, dir);
    expect(empty.omc).toEqual({ ...absent.omc });
    expect(empty.omc).toMatchObject({ version: null, assumed: true, source: 'not found: assuming the newest rules' });
    expect(empty.problems.filter((x) => x.path.endsWith('settings.local.json'))).toEqual([]);
    expect(empty.doctor.summary).toBe('not found: assuming the newest rules (OMC 5.5.0)');
    expect(empty.doctor.details.filter((d) => d.includes('settings.local.json'))).toEqual([]);
    expect(empty.doctor.details).toEqual(absent.doctor.details);
  });

  it('with OMC 4.4.4 installed and enabled it is named (it could disable it), the version found beside it', () => {
    const { w, local } = world();
    installPlugin(w.config, OMC444);
    writeOmcJson(path.join(w.config, 'settings.json'), { enabledPlugins: { 'oh-my-claudecode@omc': true } });
    fs.writeFileSync(local, '');
    const seen = lookFresh(w, (p as TempProject).dir);
    expect(seen.omc).toMatchObject({ version: '4.4.4', assumed: false });
    expect(seen.omc.source).not.toContain('settings.local.json');
    const line = seen.problems.find((x) => x.path.endsWith('settings.local.json'));
    expect(line?.message).toMatch(/^is empty \(0 bytes\): .*; the OMC version is found without it \(OMC 4\.4\.4, /);
    expect(seen.doctor.status).toBe('warn');
    expect(seen.doctor.details).toContainEqual(
      expect.stringMatching(/^not read: .*settings\.local\.json: is empty \(0 bytes\)/),
    );
  });

  it('an empty plugin registry with no OMC plugin enabled is named, but not given as why no OMC is found', () => {
    const { w } = world();
    fs.writeFileSync(path.join(w.config, 'plugins', 'installed_plugins.json'), '');
    const seen = lookFresh(w, (p as TempProject).dir);
    // Nothing enables an OMC plugin: the registry's contents would not give a version, so it is not the reason.
    expect(seen.omc).toMatchObject({ version: null, assumed: true, source: 'not found: assuming the newest rules' });
    // Claude's own registry is never left empty by Claude: still named, as a file that could say which OMC runs.
    const line = seen.problems.find((x) => x.path.endsWith('installed_plugins.json'));
    expect(line?.message).toMatch(/^is empty \(0 bytes\): .*; the OMC version is found without it \(not found/);
    expect(seen.doctor.details).toContainEqual(
      expect.stringMatching(/^not read: .*installed_plugins\.json: is empty \(0 bytes\)/),
    );
  });
});
