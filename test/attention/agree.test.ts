/**
 * One count everywhere. A project whose Claude processes (stand-ins with real
 * pids and start times, registered the way Claude Code 2.1.332 registers) wait
 * for a permission prompt, died under a running loop, sit idle under a loop,
 * or work: the monitor's header and title, `status --tmux` (from the monitor's
 * cache and from the files), `--json` and `watch --json` give the same count
 * at every sampled moment; an acknowledgement made in the inbox leaves every
 * one of them, survives a restart, and an acknowledged condition that arises
 * anew counts again. (test/agent/attention-scene.test.ts plays the same scene
 * with the real Claude Code CLI.)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { startAttentionTerminal, type AttentionTerminal } from '../../src/feeds/notify/attention-terminal.js';
import { OmcStore } from '../../src/store/store.js';
import { answerPermission } from '../../src/store/permissions/answer.js';
import type { PermissionRequestView } from '../../src/store/permissions/model.js';
import {
  BUNDLE,
  headerCount,
  jsonAttention,
  statusCount,
  titleCount,
  WatchStream,
} from '../helpers/attention-surfaces.js';
import { DEAD_PID, writeRegistry, writeTranscript } from '../helpers/claude-files.js';
import { makeProject, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { KEY, mountStore, type MountedApp } from '../helpers/mount-app.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'claude');
const sid = (n: number) => `${n}${n}${n}${n}${n}${n}${n}${n}-2222-4333-8444-555555555555`;
const WAITING = sid(1);
const ORPHANED = sid(2);
const IDLE = sid(3);
const BUSY = sid(4);
/** A plain `claude` session: no OMC state names it. */
const PLAIN = sid(6);
const HOOK = path.join(path.dirname(BUNDLE), 'omc-top-hook.mjs');

function ralph(p: TempProject, id: string): void {
  const now = new Date().toISOString();
  writeOmcJson(path.join(p.root, 'state', 'sessions', id, 'ralph-state.json'), {
    active: true,
    session_id: id,
    iteration: 2,
    max_iterations: 10,
    started_at: now,
    last_checked_at: now,
    prompt: 'ralph: do it',
    _meta: { mode: 'ralph', sessionId: id, updatedAt: now, updatedBy: 'state_write_tool' },
  });
}

/** A live process to stand for a Claude CLI (its pid and start time are real). */
function standIn(): number {
  const c: ChildProcess = spawn('sleep', ['600'], { stdio: 'ignore' });
  cleanups.push(() => c.kill('SIGKILL'));
  return c.pid as number;
}

interface Scene {
  p: TempProject;
  cfg: string;
  env: NodeJS.ProcessEnv;
  pids: Record<string, number>;
}

function scene(): Scene {
  const p = makeProject();
  cleanups.push(() => p.cleanup());
  const cfg = path.join(p.dir, 'claude-config');
  const env = { CLAUDE_CONFIG_DIR: cfg, XDG_STATE_HOME: path.join(p.dir, 'xdg-state') };
  for (const id of [WAITING, ORPHANED, IDLE, BUSY]) ralph(p, id);
  const pids = { [WAITING]: standIn(), [IDLE]: standIn(), [BUSY]: standIn() };
  const hourAgo = Date.now() - 3_600_000;
  writeRegistry(cfg, pids[WAITING] as number, WAITING, {
    status: 'waiting',
    waitingFor: 'permission prompt',
    cwd: p.dir,
    name: 'alpha',
    tmux: 'main:@1.%1',
    statusUpdatedAt: hourAgo,
  });
  writeRegistry(cfg, DEAD_PID, ORPHANED, { status: 'busy', cwd: p.dir, procStart: '12345' });
  writeRegistry(cfg, pids[IDLE] as number, IDLE, { status: 'idle', cwd: p.dir });
  writeRegistry(cfg, pids[BUSY] as number, BUSY, { status: 'busy', cwd: p.dir });
  return { p, cfg, env, pids };
}

interface Monitor {
  store: OmcStore;
  terminal: AttentionTerminal;
  app: MountedApp;
  written: () => string;
  close(): Promise<void>;
}

/** The full-screen monitor as cli.tsx starts it: progressive store, the attention terminal, the App. */
async function monitor(s: Scene, opts: { listen?: boolean } = {}): Promise<Monitor> {
  const store = new OmcStore({
    root: s.p.root,
    projectDir: s.p.dir,
    claude: { env: s.env },
    // As the full-screen monitor: registered as the listener the permission hook asks.
    ...(opts.listen
      ? { answers: { stateDir: path.join(s.env.XDG_STATE_HOME as string, 'omc-top'), listen: true } }
      : {}),
  });
  store.start({ progressive: true });
  let written = '';
  const terminal = startAttentionTerminal({ store, write: (t) => void (written += t), project: 'proj', env: s.env });
  const app = mountStore(store, { columns: 120, rows: 30, attention: terminal });
  await app.ready;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    terminal.dispose();
    await app.unmount();
  };
  cleanups.push(close);
  return { store, terminal, app, written: () => written, close };
}

/** Every surface, once the monitor shows `n`: all of them say `n`. */
async function expectEverywhere(m: Monitor, s: Scene, watch: WatchStream, n: number): Promise<void> {
  await waitFor(() => m.terminal.monitor.count.getSnapshot() === n || null, {
    timeoutMs: 20_000,
    what: `the monitor's count to be ${n} (${m.terminal.monitor.count.getSnapshot()})`,
  });
  await waitFor(() => headerCount(m.app.lines()[0] ?? '') === n || null, { timeoutMs: 10_000, what: `header ${n}` });
  await waitFor(() => titleCount(m.written()) === n || null, { timeoutMs: 10_000, what: `title ${n}` });
  // The monitor's status cache follows within its throttle; `--fresh` reads the files itself.
  await waitFor(() => statusCount(s.p.root, s.env) === n || null, { timeoutMs: 10_000, what: `status --tmux ${n}` });
  expect(statusCount(s.p.root, s.env, true)).toBe(n);
  expect(jsonAttention(s.p.root, s.env).needs_you).toBe(n);
  await waitFor(() => watch.count() === n || null, { timeoutMs: 20_000, what: `watch --json ${n} (${watch.err})` });
}

describe('one count on every surface', () => {
  it('waiting, orphaned, idle under a loop, busy: 3 everywhere; acknowledged: 2 everywhere, after a restart too; anew: 3', async () => {
    const s = scene();
    const m = await monitor(s);
    const watch = new WatchStream(s.p.root, s.env);
    cleanups.push(() => watch.stop());
    await waitFor(() => watch.ready() || null, { timeoutMs: 30_000, what: `watch ready (${watch.err})` });
    await expectEverywhere(m, s, watch, 3);
    const items = jsonAttention(s.p.root, s.env).items;
    expect(items.map((i) => [i.kind, i.session])).toEqual(
      expect.arrayContaining([
        ['waiting', WAITING],
        ['orphaned', ORPHANED],
        ['idle-loop', IDLE],
      ]),
    );
    expect(items.find((i) => i.kind === 'waiting')).toMatchObject({
      name: 'alpha',
      tmux: 'main:@1',
      waiting_on: 'permission prompt',
    });

    // The inbox: the oldest first (the prompt waiting for an hour), acknowledged with `a`.
    await m.app.press('!');
    const inbox = await m.app.waitForText('Needs you (3)');
    expect(inbox).toMatch(/▸ » +1h waiting for you: permission prompt — alpha main:@1 ralph/);
    await m.app.press('a');
    await m.app.waitForText('Acknowledged, still holding (1)');
    await m.app.press(KEY.esc);
    await expectEverywhere(m, s, watch, 2);

    // A restart: the acknowledgement is omc-top's own state, not the old process's memory.
    await m.close();
    const again = await monitor(s);
    await expectEverywhere(again, s, watch, 2);

    // The same session waits again (a new prompt): a new occurrence, counted.
    writeRegistry(s.cfg, s.pids[WAITING] as number, WAITING, {
      status: 'waiting',
      waitingFor: 'permission prompt',
      cwd: s.p.dir,
      name: 'alpha',
      tmux: 'main:@1.%1',
      statusUpdatedAt: Date.now(),
    });
    await expectEverywhere(again, s, watch, 3);
  }, 180_000);

  it('a loop whose Claude exited cleanly (its registry entry gone, its transcript ending with the exit figures) is orphaned on every surface, status without a monitor too', async () => {
    const p = makeProject();
    cleanups.push(() => p.cleanup());
    const cfg = path.join(p.dir, 'claude-config');
    const env = { CLAUDE_CONFIG_DIR: cfg, XDG_STATE_HOME: path.join(p.dir, 'xdg-state') };
    const EXITED = sid(5);
    ralph(p, EXITED);
    // A real Claude Code 2.1.332 transcript that ends with its exit figures, after three earlier runs of the same
    // conversation (each resumed after its exit): over 64 KB, so the exit is read from the transcript's end only.
    const real = fs.readFileSync(path.join(FIXTURES, 'busy-ralph-cancel-then-exit.jsonl'), 'utf8').trim().split('\n');
    writeTranscript(cfg, p.dir, EXITED, [...real, ...real, ...real, ...real]);
    // No monitor runs: status reads the files itself; --json reads the transcripts whole. Both run in the project,
    // as a user types them (the transcript's folder is named after the project's directory).
    const inProject = (...args: string[]) =>
      execFileSync(process.execPath, [BUNDLE, ...args], {
        cwd: p.dir,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
    const freshStatus = () => Number(/needs you: (\d+)/.exec(inProject('status', '--tmux', '--fresh'))?.[1] ?? 0);
    expect(freshStatus()).toBe(1);
    const json = (
      JSON.parse(inProject('--json')) as { attention: { needs_you: number; items: Record<string, unknown>[] } }
    ).attention;
    expect(json.needs_you).toBe(1);
    expect(json.items.map((i) => [i.kind, i.session])).toEqual([['orphaned', EXITED]]);
    const m = await monitor({ p, cfg, env, pids: {} });
    await waitFor(() => m.terminal.monitor.count.getSnapshot() === 1 || null, {
      timeoutMs: 20_000,
      what: 'the monitor: 1',
    });
    // Resumed after that exit: a conversation line after the figures, and nothing is orphaned any more.
    writeTranscript(cfg, p.dir, EXITED, [...real, real.find((l) => l.includes('"type":"user"')) as string]);
    await waitFor(() => m.terminal.monitor.count.getSnapshot() === 0 || null, {
      timeoutMs: 20_000,
      what: 'the monitor: 0',
    });
    expect(freshStatus()).toBe(0);
  }, 120_000);

  it("the user's own cancel raises nothing: no notification, no news, the count does not move", async () => {
    const s = scene();
    const m = await monitor(s);
    await waitFor(() => m.terminal.monitor.count.getSnapshot() === 3 || null, { timeoutMs: 20_000, what: '3' });
    await m.app.press('/', BUSY.slice(0, 8), KEY.enter);
    await m.app.waitForText(new RegExp(`▸ .*${BUSY.slice(0, 8)}`));
    await m.app.press('c');
    await m.app.waitForText('Cancel');
    await m.app.press('y');
    await waitFor(() => !fs.existsSync(path.join(s.p.root, 'state', 'sessions', BUSY, 'ralph-state.json')) || null, {
      timeoutMs: 20_000,
      what: 'the cancel to remove the state',
    });
    // Until the cancel's verdict is in: nothing of it may notify or count. The busy Claude is never seen to stop
    // here (observed, not assumed), so the verdict is "ended on disk, not stopped yet"; what the removals raised
    // is flushed from the notifier's debounce before it is read.
    await waitFor(
      () => [...m.store.cancels.getSnapshot().entries.values()].some((e) => e.final || e.phase === 'ended') || null,
      { timeoutMs: 60_000, what: 'the verdict' },
    );
    await new Promise((r) => setImmediate(r));
    m.terminal.notifier.flush();
    expect(m.terminal.notifier.sent).toEqual([]);
    expect(m.terminal.monitor.count.getSnapshot()).toBe(3);
    expect(m.app.ui.state.log.map((l) => l.text).filter((t) => /loop (stopped|finished)/.test(t))).toEqual([]);
  }, 120_000);
});

describe('a permission prompt omc-top can answer', () => {
  it('from a Claude with no OMC loop (no session row): counted on every surface while it waits, gone once answered', async () => {
    const p = makeProject();
    cleanups.push(() => p.cleanup());
    const cfg = path.join(p.dir, 'claude-config');
    const env = { CLAUDE_CONFIG_DIR: cfg, XDG_STATE_HOME: path.join(p.dir, 'xdg-state') };
    const s: Scene = { p, cfg, env, pids: {} };
    const m = await monitor(s, { listen: true });
    const watch = new WatchStream(p.root, env);
    cleanups.push(() => watch.stop());
    await waitFor(() => watch.ready() || null, { timeoutMs: 30_000, what: `watch ready (${watch.err})` });
    await waitFor(() => m.store.permissions.getSnapshot().listening || null, { what: 'the monitor listening' });
    await expectEverywhere(m, s, watch, 0);

    // The real hook bundle, as Claude Code runs it for a plain `claude` in the project.
    const hook = spawn(process.execPath, [HOOK, 'permission', '--omc-top-hook'], {
      env: { ...process.env, ...env, XDG_CONFIG_HOME: path.join(p.dir, 'xdg-config') },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    hook.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const ended = new Promise<number | null>((r) => hook.on('exit', r));
    cleanups.push(() => hook.kill('SIGKILL'));
    hook.stdin?.end(
      JSON.stringify({
        session_id: PLAIN,
        transcript_path: path.join(cfg, 'none.jsonl'),
        cwd: p.dir,
        hook_event_name: 'PermissionRequest',
        tool_name: 'Bash',
        tool_input: { command: 'touch plain.txt' },
      }),
    );
    await expectEverywhere(m, s, watch, 1);
    expect(jsonAttention(p.root, env).items).toEqual([
      expect.objectContaining({
        kind: 'waiting',
        session: PLAIN,
        waiting_on: 'permission prompt: Bash touch plain.txt',
      }),
    ]);
    await m.app.press('!');
    await m.app.waitForText('To answer (1');
    // One prompt, one entry: the line with the keys; the count still has it (the need it stands for).
    await m.app.waitForText('Needs you: nothing besides the 1 to answer above');
    const entries = () => m.app.lines().filter((l) => /^\W*[»·] .*permission.*touch plain\.txt/.test(l));
    expect(entries(), m.app.lines().join('\n')).toHaveLength(1);
    // Acknowledged from that line: it leaves the count everywhere, and is still listed once, to answer.
    await m.app.press('g');
    await m.app.press('a');
    await expectEverywhere(m, s, watch, 0);
    await m.app.waitForText(/▸ · permission: Bash touch plain\.txt/);
    expect(entries(), m.app.lines().join('\n')).toHaveLength(1);
    await m.app.press(KEY.esc);

    // Answered (deny): the hook replies and ends; nothing waits any more.
    const [req] = m.store.permissions.getSnapshot().requests;
    expect(
      answerPermission(path.join(env.XDG_STATE_HOME, 'omc-top'), req as PermissionRequestView, 'deny', {
        claudeEnv: env,
      }),
    ).toMatchObject({ ok: true });
    expect(await ended).toBe(0);
    expect(out).toContain('"behavior":"deny"');
    await expectEverywhere(m, s, watch, 0);
  }, 180_000);
});

describe('a fresh start', () => {
  it('on the real-OMC tree (only old facts): no news, no notification; what holds now counts', async () => {
    const p = makeProject({ withFixture: true });
    cleanups.push(() => p.cleanup());
    const env = { CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude'), XDG_STATE_HOME: path.join(p.dir, 'xdg') };
    const store = new OmcStore({ root: p.root, projectDir: p.dir, claude: { env }, teams: { pidAlive: () => false } });
    cleanups.push(() => store.close());
    store.start({ progressive: true });
    const seen: unknown[] = [];
    const mon = new AttentionMonitor(store);
    cleanups.push(() => mon.dispose());
    mon.onTransitions((batch) => seen.push(...batch.filter((t) => t.news || t.needs)));
    await waitFor(() => mon.ready || null, { timeoutMs: 20_000, what: 'the first settled picture' });
    // Whatever the watcher's second look finds is the same old state: still nothing.
    store.sessions.scan();
    store.teams.scan();
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([]);
    // The finished loop of 28 hours ago, the cancelled one, the stale one: none of them counts. The team that
    // still says it runs, with no live worker, does: one item (not one per dead worker).
    expect(mon.view.getSnapshot().open.map((n) => n.kind)).toEqual(['team-stalled']);
  });
});
