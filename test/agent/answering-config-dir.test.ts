/**
 * A permission prompt of a Claude that runs with another CLAUDE_CONFIG_DIR than the monitor reads, answered from
 * omc-top, with the real Claude Code CLI (2.1.332) offline (harness.ts). Two Claudes in the project, one per config
 * directory: the monitor keeps reading its own (a tie goes to omc-top's own, project-config.ts), and the second
 * Claude's registry entry is in the other directory. Its prompt must be answerable all the same: the answer reaches
 * Claude and the tool runs (sweep 11 §3: "stale: Claude already moved on" while Claude still waited).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHooksCommand } from '../../src/commands/hooks.js';
import { readRegistry } from '../../src/store/claude/registry.js';
import { OmcStore } from '../../src/store/store.js';
import { mountStore } from '../helpers/mount-app.js';
import { OMC_PLUGIN, REPO, skipReason, startRun, waitFor, waitForPane, type Run } from './harness.js';

const reason = skipReason();
if (reason) console.warn(`[real Claude Code config-dir answering suite skipped] ${reason}`);

const HOOK = path.join(REPO, 'dist', 'omc-top-hook.mjs');
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** omc-top's own state and config dirs for the run, the hook installed, a tmux server inside the namespace. */
function scene(run: Run) {
  const xdgState = path.join(run.dir, 'xdg-state');
  const xdgConfig = path.join(run.dir, 'xdg-config');
  fs.mkdirSync(path.join(xdgConfig, 'omc-top'), { recursive: true });
  fs.writeFileSync(
    path.join(xdgConfig, 'omc-top', 'config.json'),
    JSON.stringify({ answers: { permissionWaitSeconds: 120 } }),
  );
  const env = { ...run.env, XDG_STATE_HOME: xdgState, XDG_CONFIG_HOME: xdgConfig };
  const sock = path.join(run.dir, 'tmux.sock');
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
  cleanups.push(() => void tmux('kill-server'));
  const out: string[] = [];
  const installed = runHooksCommand(['install', '--cwd', run.project], {
    out: (t) => out.push(t),
    err: (t) => out.push(t),
    cwd: run.project,
    env,
    script: HOOK,
  });
  expect(installed, out.join('')).toBe(0);
  const screen = (window: string) => tmux('capture-pane', '-p', '-t', `main:${window}`).stdout;
  /**
   * An interactive claude with OMC in its own tmux window, its config directory `configDir` (in the command: tmux
   * gives a new window the server's environment, not the client's). Resolves with its registry entry once idle.
   */
  const startClaude = async (window: string, configDir: string) => {
    const first = tmux('has-session', '-t', 'main').status !== 0;
    const where = first
      ? ['new-session', '-d', '-s', 'main', '-n', window, '-x', '150', '-y', '45']
      : ['new-window', '-d', '-t', 'main', '-n', window];
    const cmd = `env CLAUDE_CONFIG_DIR=${configDir} claude --plugin-dir ${OMC_PLUGIN} --permission-mode default`;
    const start = run.spawnInNs('tmux', ['-S', sock, '-f', '/dev/null', ...where, '-c', run.project, cmd], { env });
    await new Promise((r) => start.on('close', r));
    const entry = await waitFor(
      `the CLI in window ${window} to be idle`,
      () => readRegistry(configDir).entries.find((e) => e.status === 'idle'),
      90_000,
      () => screen(window),
    );
    await waitForPane('the prompt box', () => screen(window), 'for shortcuts', 60_000, run);
    return entry;
  };
  const store = () => {
    const s = new OmcStore({
      root: path.join(run.project, '.omc'),
      watch: 'none',
      projectDir: run.project,
      claude: { live: true, env: { CLAUDE_CONFIG_DIR: run.configDir } },
      answers: { stateDir: path.join(xdgState, 'omc-top'), listen: true, live: true },
    });
    cleanups.push(() => s.close());
    s.start();
    return s;
  };
  return { tmux, screen, startClaude, store };
}

describe.skipIf(reason !== null)('answering a Claude of another config directory, with the real CLI', () => {
  it("its prompt is answered from !: the hook tells Claude allow and the tool runs (not 'answered in its terminal')", async () => {
    const run = await startRun('perm-cfg2');
    cleanups.push(() => run.close());
    const s = scene(run);
    const cfg2 = path.join(run.home, '.claude2');
    fs.mkdirSync(cfg2);
    fs.copyFileSync(path.join(run.configDir, '.claude.json'), path.join(cfg2, '.claude.json'));
    const own = await s.startClaude('own', run.configDir);
    const other = await s.startClaude('cfg2', cfg2);
    // The monitor reads its own directory: the second Claude's entry is not there.
    expect(readRegistry(run.configDir).entries.map((e) => e.pid)).toEqual([own.pid]);

    const store = s.store();
    const app = mountStore(store, { columns: 180, rows: 40 });
    cleanups.push(() => app.unmountOnly());
    await app.ready;
    expect(store.claude.getSnapshot().configDir).toBe(run.configDir);
    await app.press('!');
    s.tmux('send-keys', '-t', 'main:cfg2', '-l', 'make a file [[bash:touch cfg2.txt]]');
    await waitForPane('the typed prompt', () => s.screen('cfg2'), 'cfg2.txt', 30_000);
    s.tmux('send-keys', '-t', 'main:cfg2', 'Enter');
    await waitForPane('the permission dialog', () => s.screen('cfg2'), 'Do you want to proceed?', 60_000, run);
    const req = await waitFor(
      'the request in omc-top',
      () => (store.permissions.reread(), store.permissions.getSnapshot().requests[0]),
      60_000,
    );
    expect(req).toMatchObject({ sessionId: other.sessionId, claudePid: other.pid, subject: 'touch cfg2.txt' });
    await app.waitForText(/» permission: Bash touch cfg2\.txt/);
    await app.press('g');
    await app.press('y');
    await app.waitForText(/✓ Bash touch cfg2\.txt: the hook told Claude: allow/);
    expect(app.text()).not.toMatch(/stale/);
    await waitFor('the tool to run', () => fs.existsSync(path.join(run.project, 'cfg2.txt')), 60_000);
    await waitForPane(
      'the dialog gone',
      () => s.screen('cfg2'),
      (t) => !t.includes('Do you want to proceed?'),
      30_000,
    );
  }, 400_000);
});
