/**
 * "Say only what was observed", end to end with the real Claude Code CLI
 * (2.1.332) and the real OMC 5.5.0 plugin, offline (test/agent/harness.ts),
 * each CLI interactive in a tmux pane:
 * - a permission prompt names the call it is about (`Bash rm -rf ./cache`)
 *   and where the session runs, in the row, the detail, peek, the
 *   notification, `--json` and `watch --json`; after /exit the row says
 *   `exited HH:MM` and the detail gives Claude Code's own exit figures;
 * - a busy ralph cancelled with `c y` shows no ✓ while Claude is still in its
 *   turn, then `stopped ✓ in Ns` once the CLI is seen to stop; a second loop
 *   whose CLI is SIGKILLed has no burn rate, and J finds the pane it ran in.
 * Skips, saying why, where the CLI or network namespaces are unavailable.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegistry, type RegistryEntry } from '../../src/store/claude/registry.js';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { clockHm } from '../../src/store/claude/life.js';
import { executeJump, planJump } from '../../src/store/claude/jump.js';
import { OmcStore } from '../../src/store/store.js';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { Notifier } from '../../src/feeds/notify/notifier.js';
import { KEY, mountStore, type MountedApp } from '../helpers/mount-app.js';
import { OMC_PLUGIN, REPO, skipReason, startRun, waitFor, waitForPane, type Run } from './harness.js';
import { showSession } from './ui.js';

const reason = skipReason();
if (reason) console.warn(`[real Claude Code "observed" suite skipped] ${reason}`);

const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
type Json = Record<string, any>;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Tmux {
  sock: string;
  run(...args: string[]): { status: number | null; stdout: string; stderr: string };
  screen(): string;
  /** $TMUX for a client of this server (names windows, lets J switch). */
  env: { TMUX: string };
  type(text: string): Promise<void>;
}

/** A private tmux server inside the run's namespace, its one window running `command`. */
async function startTmux(run: Run, command: string): Promise<Tmux> {
  const sock = path.join(run.dir, 'tmux.sock');
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
  const start = run.spawnInNs('tmux', [
    ...['-S', sock, '-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '150', '-y', '45', '-c', run.project],
    command,
  ]);
  await new Promise((r) => start.on('close', r));
  cleanups.push(() => void tmux('kill-server'));
  const serverPid = tmux('display-message', '-p', '#{pid}').stdout.trim();
  const screen = () => tmux('capture-pane', '-p', '-t', 'main').stdout;
  return {
    sock,
    run: tmux,
    screen,
    env: { TMUX: `${sock},${serverPid},0` },
    async type(text: string) {
      tmux('send-keys', '-t', 'main', '-l', text);
      await waitForPane(`"${text}" typed`, screen, text, 30_000);
      tmux('send-keys', '-t', 'main', 'Enter');
    },
  };
}

/** The live App (file watcher, registry watch, liveness timer) over the run, as a user runs it. */
async function liveApp(run: Run, tmux: Tmux): Promise<MountedApp> {
  fs.mkdirSync(path.join(run.project, '.omc'), { recursive: true });
  const store = new OmcStore({
    root: path.join(run.project, '.omc'),
    projectDir: run.project,
    claude: { live: true, env: { CLAUDE_CONFIG_DIR: run.configDir, ...tmux.env } },
  });
  store.start();
  const app = mountStore(store, { columns: 220, rows: 50 });
  cleanups.push(() => app.unmount());
  await app.ready;
  await app.waitForText('CLAUDE');
  return app;
}

function omcTopJson(run: Run, env: Record<string, string> = {}): Json {
  const out = execFileSync(process.execPath, [BUNDLE, '--json', '--root', path.join(run.project, '.omc')], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: run.configDir, HOME: run.home, CI: '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Json;
}
const sessionRow = (doc: Json, sid: string): Json => {
  const row = (doc.sessions as Json[]).find((s) => s.id === sid);
  if (!row) throw new Error(`omc-top --json has no row for session ${sid}`);
  return row;
};
const entryOf = (run: Run, pid: number): RegistryEntry | undefined =>
  readRegistry(run.configDir).entries.find((e) => e.pid === pid);
const ralphActive = (run: Run, sid: string) => {
  try {
    const file = path.join(run.project, '.omc', 'state', 'sessions', sid, 'ralph-state.json');
    const s = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
    return s.active === true && !s.awaiting_confirmation;
  } catch {
    return false;
  }
};
const selectedRow = (app: MountedApp) => app.lines().find((l) => l.startsWith('▸')) ?? '';

describe.skipIf(reason !== null)('observed, not assumed: real Claude Code + OMC 5.5.0 in tmux', () => {
  it('a permission prompt names its call and place everywhere; /exit reads "exited HH:MM" with the exit figures', async () => {
    const run = await startRun('waits');
    cleanups.push(() => run.close());
    const tmux = await startTmux(run, `claude --plugin-dir ${OMC_PLUGIN} --permission-mode default`);
    const first = await waitFor(
      'the interactive CLI to be idle',
      () => readRegistry(run.configDir).entries.find((e) => e.status === 'idle'),
      90_000,
    );
    await waitForPane('the prompt box', tmux.screen, '? for shortcuts', 60_000, run);
    fs.mkdirSync(path.join(run.project, 'cache'));
    const app = await liveApp(run, tmux);
    // The attention layer as the full-screen app runs it: transitions into the notifier.
    const monitor = new AttentionMonitor(app.store);
    const notifier = new Notifier({ channels: ['osc'], project: 'proj', write: () => undefined, env: {} });
    const off = monitor.onTransitions((batch) => notifier.handle(batch));
    cleanups.push(() => (off(), monitor.dispose(), notifier.dispose()));

    await tmux.type('ralph: clean it [[bash:rm -rf ./cache]]');
    const waiting = await waitFor(
      'the permission prompt',
      () => readRegistry(run.configDir).entries.find((e) => e.pid === first.pid && e.status === 'waiting'),
      90_000,
    );
    await waitForPane('the dialog', tmux.screen, 'Do you want to proceed?', 30_000);
    const sid = waiting.sessionId;
    const name = waiting.name as string;
    expect(name).toMatch(/^proj-[0-9a-f]{2}$/);
    const where = /^main:0\b/;

    // --json: the fact the attention model reads, with the call, the name and the tmux window.
    const row = sessionRow(omcTopJson(run, tmux.env), sid);
    expect(row.agent.waiting).toMatchObject({
      for: 'permission prompt',
      tool: 'Bash',
      arg: 'rm -rf ./cache',
      name,
      text: 'permission prompt: Bash rm -rf ./cache',
    });
    expect(row.agent.waiting.where).toMatch(where);
    expect(row.agent.peek.pending_calls).toEqual([expect.objectContaining({ name: 'Bash', arg: 'rm -rf ./cache' })]);
    expect(row.agent.peek.last_tool_calls).toContainEqual(
      expect.objectContaining({ name: 'Bash', arg: 'rm -rf ./cache', pending: true }),
    );

    // watch --json: the needs-you fact names the call too.
    const watch = spawn(process.execPath, [BUNDLE, 'watch', '--json', '--snapshot', '--root', `${run.project}/.omc`], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: run.configDir, HOME: run.home, CI: '', ...tmux.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => void (watch.exitCode === null && watch.kill('SIGKILL')));
    let streamed = '';
    watch.stdout.on('data', (c: Buffer) => (streamed += c.toString()));
    await waitFor('the ready line', () => streamed.includes('"type":"ready"'), 60_000);
    const needLine = streamed
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Json)
      .find((l) => JSON.stringify(l).includes('Bash rm -rf ./cache'));
    expect(needLine, streamed).toBeDefined();
    expect(JSON.stringify(needLine)).toContain(`session ${name}`);
    watch.kill('SIGTERM');

    // The notification: session by name and window, the call, the key that acts.
    const note = await waitFor('the notification', () => notifier.sent.find((t) => t.includes('rm -rf')), 30_000);
    expect(note).toContain('permission prompt: Bash rm -rf ./cache');
    expect(note).toContain(name);
    expect(note).toMatch(/main:(0\b|@0)/);
    expect(note).toMatch(/\bJ\b/);

    // The row, the detail and peek.
    expect(await showSession(app, sid)).toMatch(/waits: Bash rm -rf \.\/cache/);
    expect(selectedRow(app)).toMatch(/ !waiting \d+[smh]$/);
    await app.press(KEY.enter);
    const detail = (await app.waitForText('Claude is waiting for you')).replace(/\s+/g, ' ');
    expect(detail).toContain(
      `Claude is waiting for you: permission prompt: Bash rm -rf ./cache (session ${name} · tmux main:0`,
    );
    await app.press(KEY.esc, 'P');
    const peek = await app.waitForText('pending Bash rm -rf ./cache');
    expect(peek).toMatch(/pending Bash rm -rf \.\/cache {2}\(no result yet: waiting for you since \d+s\)/);
    await app.press(KEY.esc);
    expect(fs.existsSync(path.join(run.project, 'cache'))).toBe(true);

    // Approve; the turn ends; then /exit.
    tmux.run('send-keys', '-t', 'main', 'Enter');
    await waitFor(
      'the command to run and the turn to end',
      () => !fs.existsSync(path.join(run.project, 'cache')) && entryOf(run, first.pid)?.status === 'idle',
      90_000,
    );
    await waitForPane('the prompt box again', tmux.screen, '? for shortcuts', 60_000, run);
    await tmux.type('/exit');
    await waitFor('the registry entry to go', () => !entryOf(run, first.pid), 60_000);
    const transcript = path.join(run.configDir, transcriptRel(run.project, sid));
    const costState = await waitFor(
      "Claude Code's exit figures",
      () => {
        const lines = fs
          .readFileSync(transcript, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"type":"cost-state"'));
        return lines.length >= 2 ? (JSON.parse(lines[lines.length - 1] as string) as Json) : null;
      },
      30_000,
    );
    // The monitor saw the entry go: "exited HH:MM", not "unknown".
    const exitedRow = await waitFor(
      'exited on the row',
      () => /exited \d\d:\d\d$/.test(selectedRow(app)) && selectedRow(app),
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${app.text()}`);
    });
    expect(exitedRow).not.toMatch(/unknown/);
    await app.press(KEY.enter);
    const figures = (await app.waitForText("Claude Code's own figures at exit")).replace(/\s+/g, ' ');
    expect(figures).toContain(`Claude Code's own figures at exit: $${(costState.totalCostUSD as number).toFixed(4)}`);
    const [model, usage] = Object.entries(costState.modelUsage as Record<string, Json>)[0] as [string, Json];
    expect(figures).toContain(`${model}: in ${usage.inputTokens} · out ${usage.outputTokens}`);

    // A one-shot --json that never saw the process: the transcript's own exit record says exited.
    const after = sessionRow(omcTopJson(run), sid);
    expect(after.process).toBeNull();
    expect(after.life.status).toBe('exited');
    expect(after.agent.exit).toMatchObject({ usd: costState.totalCostUSD, source: 'claude-code-cost-state' });
    expect(clockHm(Date.parse(after.life.since))).toBe(clockHm(costState.startTime + costState.totalDuration));
    expect(after.agent.analytics.burn_tokens_per_min).toBeNull();
  }, 400_000);

  it('c y on a busy ralph: no ✓ while Claude is in its turn, then "stopped ✓ in Ns"; a killed CLI: no burn rate, J to its pane', async () => {
    const run = await startRun('stop');
    cleanups.push(() => run.close());
    // The pane outlives the CLI (a shell waits on after it), as a user's shell does.
    const tmux = await startTmux(
      run,
      `sh -c 'claude --plugin-dir ${OMC_PLUGIN} --permission-mode acceptEdits --allowedTools Bash; exec sleep 600'`,
    );
    await waitForPane('the prompt box', tmux.screen, 'accept edits on', 90_000, run);
    const app = await liveApp(run, tmux);

    await tmux.type('ralph: long job [[bash:timeout 20 tail -f /dev/null]]');
    await waitFor('the long command to run', () => run.mockCalls().some((c) => c.tool === 'Bash'), 90_000);
    const entry = await waitFor('busy', () => readRegistry(run.configDir).entries.find((e) => e.status === 'busy'));
    const sid = entry.sessionId;
    await waitFor('ralph confirmed by the Skill call', () => ralphActive(run, sid));
    await showSession(app, sid);
    // The tool still runs: no API call after the Bash one yet.
    const bashCall = run.mockCalls().find((c) => c.tool === 'Bash') as Json;
    const toolRunning = () => !run.mockCalls().some((c) => c.session === sid && (c.call as number) > bashCall.call);

    await app.press('c');
    await app.waitForText('y: cancel the loop');
    const cancelAt = Date.now();
    await app.press('y');
    // While the tool runs, the row counts up from the cancel and nothing anywhere claims the stop.
    await waitFor('the row to count the stop', () => /stopping \d+s/.test(selectedRow(app)), 30_000);
    let safe = 0;
    await waitFor(
      'three seconds of "stopping" while the tool runs',
      () => {
        const n = app.frames().length;
        if (!toolRunning()) throw new Error('the tool ended before three seconds of "stopping" were seen');
        safe = n;
        const shown = Number(/stopping (\d+)s/.exec(selectedRow(app))?.[1] ?? 0);
        return Date.now() - cancelAt > 3000 && shown >= 3;
      },
      30_000,
    );
    const during = app.frames().slice(0, safe).join('\n');
    const fromCancel = during.slice(during.indexOf('stopping'));
    expect(fromCancel).not.toContain('✓');
    expect(fromCancel).not.toMatch(/verified|cancelled/);
    expect(entryOf(run, entry.pid)?.status).toBe('busy');

    // The turn ends (the Stop hook lets Claude stop): then, and only then, the ✓ with the time it took.
    const idle = await waitFor(
      'Claude to stop',
      () => {
        const e = entryOf(run, entry.pid);
        return e?.status === 'idle' ? e : null;
      },
      90_000,
    );
    await waitFor('stopped on the row', () => / stopped /.test(selectedRow(app)), 30_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${app.text()}`);
    });
    await app.press(KEY.enter);
    const detail = (await app.waitForText(/omc-top cancel: stopped ✓ in \d+s/)).replace(/\s+/g, ' ');
    const took = Number(/stopped ✓ in (\d+)s/.exec(detail)?.[1]);
    const observed = ((idle.statusUpdatedAt as number) - cancelAt) / 1000;
    expect(took).toBeGreaterThanOrEqual(Math.floor(observed) - 2);
    expect(took).toBeLessThanOrEqual(Math.ceil(observed) + 2);
    expect(detail).toMatch(new RegExp(`Claude \\(pid ${entry.pid}\\) was busy at the signal`));
    await app.press(KEY.esc);

    // A second loop, its CLI killed: gone (never "unknown"), no burn rate, and J goes to the pane left.
    await waitForPane('the prompt box again', tmux.screen, 'accept edits on', 60_000, run);
    const calls = run.mockCalls().length;
    // The mock obeys OMC's skill hint once per session: the second ralph asks for the skill itself.
    await tmux.type('ralph: again [[skill:oh-my-claudecode:ralph]] [[bash:timeout 300 tail -f /dev/null]]');
    await waitFor(
      'the second long command',
      () =>
        run
          .mockCalls()
          .slice(calls)
          .some((c) => c.tool === 'Bash'),
      90_000,
    );
    await waitFor('ralph active again', () => ralphActive(run, sid));
    process.kill(entry.pid, 'SIGKILL');
    const gone = await waitFor(
      'gone on the row',
      () => / !gone \d+[smh]$/.test(selectedRow(app)) && selectedRow(app),
      30_000,
    );
    expect(gone).not.toMatch(/unknown/);
    const row = sessionRow(omcTopJson(run), sid);
    expect(row.process).toMatchObject({ pid: entry.pid, status: 'gone' });
    expect(row.agent.analytics.burn_tokens_per_min).toBeNull();
    expect(row.agent.analytics.eta).toBeNull();

    const proc = app.store.claude.getSnapshot().bySession.get(sid)?.process;
    expect(proc?.status).toBe('gone');
    const plan = planJump(proc!, tmux.env);
    const pane = (entry.tmux as string).split('.')[1] as string;
    expect(plan).toMatchObject({ ok: true, pane, via: 'pane-left' });
    // A client attached to the server (as the user's terminal is): the jump switches it to the pane.
    const client = spawn('script', ['-qfc', `tmux -S ${tmux.sock} attach -t main`, '/dev/null'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, TERM: 'xterm-256color' },
    });
    cleanups.push(() => void (client.exitCode === null && client.kill('SIGKILL')));
    await waitFor('a client', () => tmux.run('list-clients').stdout.trim() !== '', 30_000);
    expect(executeJump(plan)).toBeNull();
    expect(tmux.run('display-message', '-p', '-t', pane, '#{pane_id} #{pane_dead}').stdout.trim()).toBe(`${pane} 0`);
  }, 400_000);
});
