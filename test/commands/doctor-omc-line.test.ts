/** doctor's OMC line when no OMC install is found: it says it assumes once, and which book. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectDoctorReport } from '../../src/commands/doctor-checks.js';
import { formatDoctorReport } from '../../src/commands/doctor.js';
import { makeProject } from '../helpers/fixtures.js';
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
