/**
 * OMC's variables as its hooks see them (store/claude/hook-env.ts): Claude Code's settings `env` in its order
 * (managed drop-ins, managed, project local, project, user), over the environment of the Claude that runs the hooks
 * (a real process here, read from /proc), over omc-top's own; each value says where it came from. The order itself
 * is checked against the real CLI in test/agent/hook-env.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';
import { HookEnv, hookSettingWords } from '../../src/store/claude/hook-env.js';

const writeJson = (file: string, value: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
};

function world(tempDir: (p?: string) => string) {
  const tmp = tempDir('omc-top-hookenv-');
  const home = path.join(tmp, 'home');
  const project = path.join(tmp, 'proj');
  const managed = path.join(tmp, 'etc-claude-code');
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.mkdirSync(project);
  return { tmp, home, project, managed, claudeEnv: { HOME: home } };
}

describe('OMC variables as the hooks see them', () => {
  it('settings in Claude Code’s order, then omc-top’s environment; each says its source', ({ tempDir }) => {
    const w = world(tempDir);
    writeJson(path.join(w.home, '.claude', 'settings.json'), {
      env: { A: 'user', B: 'user', C: 'user', D: 'user', E: 'user', N: 8 },
    });
    writeJson(path.join(w.project, '.claude', 'settings.json'), { env: { B: 'project', C: 'project', D: 'project' } });
    writeJson(path.join(w.project, '.claude', 'settings.local.json'), { env: { C: 'local', D: 'local' } });
    writeJson(path.join(w.managed, 'managed-settings.json'), { env: { D: 'managed', E: 'managed' } });
    writeJson(path.join(w.managed, 'managed-settings.d', '10-a.json'), { env: { E: 'drop-in 10' } });
    writeJson(path.join(w.managed, 'managed-settings.d', '20-b.json'), { env: { E: 'drop-in 20' } });
    const env = new HookEnv({
      env: { A: 'omc-top', F: 'omc-top' },
      claudeEnv: w.claudeEnv,
      projectDir: w.project,
      managedDir: w.managed,
      liveClaudes: () => [],
    });
    const said = (n: string) => hookSettingWords(env.get(n));
    expect(said('A')).toBe('A=user from ~/.claude/settings.json');
    expect(said('B')).toBe("B=project from the project's .claude/settings.json");
    expect(said('C')).toBe("C=local from the project's .claude/settings.local.json");
    expect(said('D')).toBe(`D=managed from managed settings ${path.join(w.managed, 'managed-settings.json')}`);
    expect(said('E')).toBe(
      `E=drop-in 20 from managed settings ${path.join(w.managed, 'managed-settings.d', '20-b.json')}`,
    );
    expect(said('F')).toBe("F=omc-top from omc-top's environment");
    expect(said('N')).toBe('N=8 from ~/.claude/settings.json');
    expect(env.get('G')).toMatchObject({ value: null });

    // Read again: a change is a change, the same files are not.
    expect(env.refresh()).toBe(false);
    writeJson(path.join(w.home, '.claude', 'settings.json'), { env: { A: 'user2' } });
    expect(env.refresh()).toBe(true);
    expect(said('A')).toBe('A=user2 from ~/.claude/settings.json');
  });

  it('a live Claude’s own environment stands in for omc-top’s: what it lacks, its hooks lack', async ({ tempDir }) => {
    const w = world(tempDir);
    writeJson(path.join(w.home, '.claude', 'settings.json'), { env: { A: 'user' } });
    // A process started with its own environment, as a Claude started from another shell would be.
    const child = spawn('sleep', ['600'], { env: { PATH: process.env.PATH, A: 'shell', B: 'shell' }, stdio: 'ignore' });
    onTestFinished(() => void child.kill('SIGKILL'));
    const pid = child.pid as number;
    const env = new HookEnv({
      env: { B: 'omc-top', C: 'omc-top' },
      claudeEnv: w.claudeEnv,
      projectDir: w.project,
      managedDir: w.managed,
      liveClaudes: () => [{ pid, startedAt: Date.now(), procStart: null }],
    });
    expect(hookSettingWords(env.get('A'))).toBe('A=user from ~/.claude/settings.json');
    expect(hookSettingWords(env.get('B'))).toBe(`B=shell from Claude pid ${pid}'s environment`);
    expect(env.get('C')).toMatchObject({ value: null });
    expect(hookSettingWords(env.get('C'))).toContain(`Claude pid ${pid}'s environment`);
  });

  it('one process’s hooks: the settings’ env, else that process’s own environment, else not known (never another’s)', async ({
    tempDir,
  }) => {
    const w = world(tempDir);
    writeJson(path.join(w.home, '.claude', 'settings.json'), { env: { A: 'user' } });
    const started = (env: Record<string, string>) => {
      const c = spawn('sleep', ['600'], { env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
      onTestFinished(() => void c.kill('SIGKILL'));
      return { pid: c.pid as number, startedAt: Date.now(), procStart: null };
    };
    const mine = started({ A: 'shell', B: 'mine' });
    const newer = started({ B: 'newer' });
    const env = new HookEnv({
      env: { B: 'omc-top' },
      claudeEnv: w.claudeEnv,
      projectDir: w.project,
      managedDir: w.managed,
      liveClaudes: () => [mine, newer],
    });
    await waitFor(() => fs.readFileSync(`/proc/${String(mine.pid)}/environ`, 'utf8').includes('B=mine'));
    expect(env.forProcess('A', mine)).toMatchObject({ value: 'user', unknown: null });
    expect(env.forProcess('B', mine)).toMatchObject({
      value: 'mine',
      source: `Claude pid ${String(mine.pid)}'s environment`,
      unknown: null,
    });
    expect(env.forProcess('C', mine)).toMatchObject({ value: null, unknown: null });
    expect(env.forProcess('B', null)).toMatchObject({ value: null });
    expect(env.forProcess('B', null).unknown).toMatch(/^no Claude process of this session runs: B in the environment/);
    // A process whose environment cannot be read here: not known, and why.
    const gone = env.forProcess('B', { pid: 4194303, startedAt: null, procStart: null });
    expect(gone.value).toBeNull();
    expect(gone.unknown).toMatch(
      /^Claude pid 4194303's environment could not be read here \(.+\): its B is not known$/,
    );
  });

  it('a store judges team workers by the heartbeat window the worker hook gets (the project settings env)', ({
    emptyProject,
    newStore,
  }) => {
    fs.mkdirSync(path.join(emptyProject.dir, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(emptyProject.dir, '.claude', 'settings.json'),
      JSON.stringify({ env: { OMC_TEAM_HEARTBEAT_STALE_MS: '9000' } }),
    );
    const store = newStore({
      root: emptyProject.root,
      projectDir: emptyProject.dir,
      watch: 'none',
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: path.join(emptyProject.dir, 'no-claude') } },
      runs: { env: { OMC_TEAM_HEARTBEAT_STALE_MS: '60000' } },
    });
    expect(store.teams.heartbeatStaleMs).toBe(9000);
    expect(hookSettingWords(store.hookEnv.get('OMC_TEAM_HEARTBEAT_STALE_MS'))).toBe(
      "OMC_TEAM_HEARTBEAT_STALE_MS=9000 from the project's .claude/settings.json",
    );
  });

  it('a watching store takes a settings change (outside the watched root) and re-judges the stale runs', async ({
    emptyProject,
    newStore,
  }) => {
    const rel = path.join('state', 'sessions', 'eeee-5555', 'ralph-state.json');
    writeJson(path.join(emptyProject.root, rel), { active: true, iteration: 3, max_iterations: 10 });
    const old = new Date(Date.now() - 3 * 3_600_000);
    fs.utimesSync(path.join(emptyProject.root, rel), old, old);
    writeJson(path.join(emptyProject.dir, '.claude', 'settings.json'), { env: { OMC_STALE_RUN_HOURS: '8' } });
    const store = newStore({
      root: emptyProject.root,
      projectDir: emptyProject.dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: path.join(emptyProject.dir, 'no-claude') } },
      runs: { env: {} },
    });
    store.start();
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'the watch', timeoutMs: 20_000 });
    expect(store.runs.nextSession()).toEqual([]);
    writeJson(path.join(emptyProject.dir, '.claude', 'settings.local.json'), { env: { OMC_STALE_RUN_HOURS: '1' } });
    const [fact] = await waitFor(() => (store.runs.nextSession().length > 0 ? store.runs.nextSession() : null), {
      what: 'the stale run judged by the new setting',
      timeoutMs: 30_000,
    });
    expect(fact?.message).toContain("(OMC_STALE_RUN_HOURS=1 from the project's .claude/settings.local.json)");
  });
});
