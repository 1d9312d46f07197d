/**
 * The real Claude Code CLI as the referee of store/claude/hook-env.ts: a SessionStart hook records the OMC_*
 * variables it was started with, under user, project and local settings that each set some, and a shell
 * environment that sets others; omc-top's resolver, given that shell environment as its own, must name the same
 * value for every variable (and a settings file as the source wherever a settings file gave it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HookEnv } from '../../src/store/claude/hook-env.js';
import { resolveRootAndOmc } from '../../src/store/omc-root.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { skipReason, startRun, type Run } from './harness.js';

const reason = skipReason();
if (reason) console.warn(`[real Claude Code suite skipped] ${reason}`);

const runs: Run[] = [];
afterEach(async () => {
  for (const r of runs.splice(0)) await r.close();
});

const writeJson = (file: string, value: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
};

describe.skipIf(reason !== null)('OMC variables: omc-top names what the real CLI gives its hooks', () => {
  it('settings env (local > project > user) over the shell; the shell where no settings file sets one', async () => {
    const run = await startRun('hook-env');
    runs.push(run);
    const out = path.join(run.dir, 'hook-env.txt');
    writeJson(path.join(run.configDir, 'settings.json'), {
      env: { OMC_STALE_RUN_HOURS: '8', OMC_RUN_BUDGET_TOKENS: '500', OMC_BUDGET_ENFORCE: 'off' },
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `env > ${JSON.stringify(out)}` }] }] },
    });
    writeJson(path.join(run.project, '.claude', 'settings.json'), {
      env: { OMC_RUN_BUDGET_TOKENS: '700', OMC_BUDGET_ENFORCE: 'shadow' },
    });
    writeJson(path.join(run.project, '.claude', 'settings.local.json'), { env: { OMC_BUDGET_ENFORCE: 'active' } });
    const shell = { OMC_STALE_RUN_HOURS: '3', OMC_TEAM_HEARTBEAT_STALE_MS: '9000' };
    const child = run.spawnInNs('claude', ['-p', 'hello'], { env: shell });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);

    const seen = new Map<string, string>();
    for (const line of fs.readFileSync(out, 'utf8').split('\n')) {
      const eq = line.indexOf('=');
      if (line.startsWith('OMC_') && eq > 0) seen.set(line.slice(0, eq), line.slice(eq + 1));
    }
    const ours = new HookEnv({
      env: { ...run.env, ...shell },
      projectDir: run.project,
      managedDir: path.join(run.dir, 'no-managed-settings'),
      processes: false,
    });
    const names = [
      'OMC_STALE_RUN_HOURS',
      'OMC_RUN_BUDGET_TOKENS',
      'OMC_BUDGET_ENFORCE',
      'OMC_TEAM_HEARTBEAT_STALE_MS',
      'OMC_GIT_GUARDRAILS',
    ];
    expect(Object.fromEntries(names.map((n) => [n, ours.get(n).value]))).toEqual(
      Object.fromEntries(names.map((n) => [n, seen.get(n) ?? null])),
    );
    expect(seen.get('OMC_STALE_RUN_HOURS')).toBe('8');
    expect(ours.get('OMC_STALE_RUN_HOURS').source).toBe('~/.claude/settings.json');
    expect(ours.get('OMC_BUDGET_ENFORCE').source).toBe("the project's .claude/settings.local.json");
    expect(ours.get('OMC_TEAM_HEARTBEAT_STALE_MS').source).toBe("omc-top's environment");
  });

  it("OMC_STATE_DIR in the user's settings: omc-top's root is where the real OMC's getOmcRoot puts state in Claude's hook", async () => {
    const run = await startRun('hook-env-root');
    runs.push(run);
    const central = path.join(run.dir, 'central');
    const out = path.join(run.dir, 'omc-root.txt');
    // OMC's own root finding, run by a SessionStart hook with the environment Claude gives its hooks.
    const probe = path.join(run.dir, 'omc-root.mjs');
    fs.writeFileSync(
      probe,
      `const m = await import(${JSON.stringify(path.join(OMC55, 'dist', 'lib', 'worktree-paths.js'))});\n` +
        `(await import('node:fs')).writeFileSync(${JSON.stringify(out)}, m.getOmcRoot(process.cwd()));\n`,
    );
    writeJson(path.join(run.configDir, 'settings.json'), {
      env: { OMC_STATE_DIR: central },
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: `${process.execPath} ${JSON.stringify(probe)}` }] }],
      },
    });
    const child = run.spawnInNs('claude', ['-p', 'hello']);
    expect(await new Promise<number | null>((resolve) => child.on('close', resolve))).toBe(0);
    const omc = fs.readFileSync(out, 'utf8');
    expect(omc.startsWith(central + path.sep)).toBe(true);
    // omc-top run in the project without OMC_STATE_DIR in its own environment.
    const res = resolveRootAndOmc({ cwd: run.project, env: run.env, processes: false, override: '5.5.0' }).res;
    expect(res.root).toBe(omc);
    expect(res.explain).toMatch(/\(set in ~\/\.claude\/settings\.json\)$/);
  });
});
