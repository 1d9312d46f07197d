/**
 * Two OMC plugins enabled at once (two marketplaces' `oh-my-claudecode@…`, 5.5.0 and 4.4.4): Claude Code runs both
 * Stop hooks, and a block from either holds the agent. omc-top judges each session by both releases' rules, the block
 * winning and named, and warns on every surface (the problem line and `--json`'s problems, doctor). Checked with the
 * built bundle and both real hooks.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { writeRetiredUltrawork } from '../helpers/omc-plugin.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { collectDoctorReport } from '../../src/commands/doctor-checks.js';
import { scaled } from '../helpers/time-scale.js';
import { twoPlugins as twoPluginHome } from '../helpers/two-plugins.js';

const S = '3f3f3f3f-3333-4333-8333-333333333333';

let p: TempProject | null = null;
let base: string | null = null;
afterEach(() => {
  p?.cleanup();
  if (base) fs.rmSync(base, { recursive: true, force: true });
  p = base = null;
});

function twoPlugins(): { home: string; env: Record<string, string> } {
  const w = twoPluginHome();
  base = w.base;
  return w;
}

const hook = (home: string, v: HookVersion) =>
  hookDecision(spawnStopHook(v, { cwd: (p as TempProject).dir, sessionId: S, home, now: Date.now() }));

describe('two OMC plugins enabled at once', () => {
  it("a 4.4.4 ultrawork: 4.4.4's hook blocks, 5.5.0's would not; omc-top says it blocks, names 4.4.4, and warns", async () => {
    const w = twoPlugins();
    p = makeProject({ prefix: 'omc-top-2p-proj-' });
    writeRetiredUltrawork(p.root, S);
    // What Claude Code runs: both hooks; one block holds the agent.
    expect(hook(w.home, '4.4.4')).toMatchObject({ decision: 'block', mode: 'ultrawork' });
    expect(hook(w.home, '5.5.0').decision).toBe('stop');

    const env: NodeJS.ProcessEnv = { ...process.env, ...w.env, XDG_STATE_HOME: path.join(base as string, 'xdg') };
    const json = JSON.parse(
      execFileSync(process.execPath, [BUNDLE, '--json', '--cwd', p.dir], { env, encoding: 'utf8' }),
    ) as {
      problems: Array<{ message: string; severity: string }>;
      omc_version: { source: string };
      sessions: Array<{ id: string; status: string; verdict: { decision: string; mode: string }; omc: any }>;
    };
    const s = json.sessions.find((x) => x.id === S);
    expect(s?.verdict).toMatchObject({ decision: 'block', mode: 'ultrawork', rules: '4.4.4' });
    expect(s?.status).toBe('enforced');
    expect(s?.omc).toMatchObject({ version: '4.4.4', rules: '4.4.4' });
    expect(s?.omc.source).toContain('whose Stop hook blocks here');
    expect(json.omc_version.source).toContain('also enabled: plugin oh-my-claudecode@omc 4.4.4');
    expect(json.problems).toContainEqual(
      expect.objectContaining({ severity: 'warning', message: expect.stringContaining('2 OMC plugins are enabled') }),
    );

    const report = await collectDoctorReport({
      cwd: p.dir,
      env: w.env,
      poll: false,
      version: 'test',
      nodeVersion: process.version,
      terminal: { isTTY: true, columns: 120, rows: 40, colorDepth: 8 },
      watchTimeoutMs: scaled(60_000),
    });
    const check = report.checks.find((c) => c.id === 'omc');
    expect(check?.status).toBe('warn');
    expect(check?.summary).toContain('5.5.0 and 4.4.4 rules');
    expect(check?.details.some((d) => d.startsWith('warning: 2 OMC plugins are enabled at once'))).toBe(true);
  });
});
