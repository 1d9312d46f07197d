/**
 * doctor's OMC line when no OMC install is found: it says it assumes once, and which book; when the plugin registry
 * names a directory that is not there, it warns and names it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectDoctorReport } from '../../src/commands/doctor-checks.js';
import { formatDoctorReport } from '../../src/commands/doctor.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, pluginWorld } from '../helpers/omc-plugin.js';
import { scaled } from '../helpers/time-scale.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const temp = (prefix: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(d, { recursive: true, force: true }));
  return d;
};

describe('doctor: OMC not found', { timeout: scaled(120_000) }, () => {
  it('says "assuming" once, with the book it assumes', async () => {
    const p = makeProject({ prefix: 'omc-top-doctor-omc-' });
    cleanups.push(p.cleanup);
    const home = temp('omc-top-doctor-omc-home-');
    const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: temp('omc-top-doctor-omc-xdg-') };
    const report = await collectDoctorReport({
      cwd: p.dir,
      env,
      poll: false,
      version: 'test',
      nodeVersion: process.version,
      terminal: { isTTY: true, columns: 120, rows: 40, colorDepth: 8 },
      watchTimeoutMs: 60_000,
    });
    const omc = report.checks.find((c) => c.id === 'omc');
    expect(omc?.status).toBe('warn');
    expect(omc?.summary).toBe('not found: assuming the newest rules (OMC 5.5.0)');
    const line = formatDoctorReport(report)
      .split('\n')
      .find((l) => l.includes('OMC install'));
    expect(line?.match(/assum/g)).toHaveLength(1);
  });
});

describe('doctor: the registry names a plugin directory that is not there', { timeout: scaled(120_000) }, () => {
  it('warns naming it, the found line says it is not there; a reinstall clears it', async () => {
    const p = makeProject({ prefix: 'omc-top-doctor-gone-' });
    cleanups.push(p.cleanup);
    const w = pluginWorld(temp('omc-top-doctor-gone-'));
    const dir = installPlugin(w.config, OMC55);
    fs.rmSync(dir, { recursive: true }); // the plugin cache cleared; the registry still names it
    const env = { PATH: process.env.PATH, ...w.env, XDG_CONFIG_HOME: temp('omc-top-doctor-gone-xdg-') };
    const check = async () =>
      (
        await collectDoctorReport({
          cwd: p.dir,
          env,
          poll: false,
          version: 'test',
          nodeVersion: process.version,
          terminal: { isTTY: true, columns: 120, rows: 40, colorDepth: 8 },
          watchTimeoutMs: 60_000,
        })
      ).checks.find((c) => c.id === 'omc');
    const gone = await check();
    expect(gone?.status).toBe('warn');
    expect(gone?.details).toContain(`found: 5.5.0 named for ${dir} (not there) (${gone?.data?.source as string})`);
    const warning = gone?.details.find((d) => d.startsWith('warning: '));
    expect(warning).toContain(`registry names ${dir} for OMC, and it does not exist`);
    expect(warning).toContain('not known to omc-top');
    // The monitor's problem line says the same.
    const store = new OmcStore({
      root: p.root,
      projectDir: p.dir,
      omc: detectOmcInstall({ env: w.env, projectDir: p.dir, processes: false }),
      watch: 'none',
    });
    store.start();
    const lines = store.problems.getSnapshot().map((x) => x.message);
    await store.close();
    expect(lines).toContain(warning?.slice('warning: '.length));

    installPlugin(w.config, OMC55); // reinstalled
    const back = await check();
    expect(back?.status).toBe('ok');
    expect(back?.details).toContain(`found: 5.5.0 at ${dir} (${back?.data?.source as string})`);
    expect(back?.details.some((d) => d.startsWith('warning: '))).toBe(false);
  });
});
