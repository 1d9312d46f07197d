/**
 * The scene with the real Claude Code CLI (2.1.332) and the real OMC
 * 5.5.0 plugin, offline (harness.ts): one session waiting on a permission
 * prompt (interactive, in tmux), one ralph orphaned by a SIGKILL, one busy
 * ralph, one session that exited. At every sampled moment the monitor's
 * header and title, `status --tmux` (from the monitor's cache and from the
 * files), `--json` and a `watch --json` beside them give the same count; the
 * waiting item names what is waited on and where. Skips, saying why, where the
 * CLI or network namespaces are unavailable.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAttentionTerminal } from '../../src/feeds/notify/attention-terminal.js';
import { readRegistry } from '../../src/store/claude/registry.js';
import { OmcStore } from '../../src/store/store.js';
import { headerCount, jsonAttention, statusCount, titleCount, WatchStream } from '../helpers/attention-surfaces.js';
import { mountStore } from '../helpers/mount-app.js';
import { OMC_PLUGIN, skipReason, startRun, waitFor, waitForPane, type Run } from './harness.js';

const reason = skipReason();
if (reason) console.warn(`[real Claude Code attention scene skipped] ${reason}`);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PRINT = ['--plugin-dir', OMC_PLUGIN, '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'];
const LONG = 'ralph: long job [[bash:timeout 300 tail -f /dev/null]]';

/** A `claude -p` left running in the namespace; resolves once its registry entry says busy. */
async function busyRalph(run: Run): Promise<{ child: ChildProcess; sid: string }> {
  const child = run.spawnInNs('claude', ['-p', LONG, ...PRINT, '--output-format', 'json']);
  const pid = child.pid as number;
  const entry = await waitFor(
    `pid ${pid} busy`,
    () => readRegistry(run.configDir).entries.find((e) => e.pid === pid && e.status === 'busy'),
    120_000,
  );
  const ralph = path.join(run.project, '.omc', 'state', 'sessions', entry.sessionId, 'ralph-state.json');
  await waitFor(
    'ralph confirmed by the Skill call',
    () => {
      try {
        const s = JSON.parse(fs.readFileSync(ralph, 'utf8')) as Record<string, unknown>;
        return s.active === true && !s.awaiting_confirmation;
      } catch {
        return false;
      }
    },
    120_000,
  );
  return { child, sid: entry.sessionId };
}

describe.skipIf(reason !== null)('one count, real Claude Code + OMC 5.5.0', () => {
  it('waiting, orphaned, busy, exited: the same count on every surface at every sampled moment', async () => {
    const run = await startRun('attention');
    cleanups.push(() => run.close());
    const root = path.join(run.project, '.omc');
    const env = {
      CLAUDE_CONFIG_DIR: run.configDir,
      HOME: run.home,
      XDG_STATE_HOME: path.join(run.dir, 'xdg-state'),
      CI: '',
    };

    // Exited: a session that ran and ended cleanly (its registry entry is gone). Nothing needs you there.
    const done = await run.claudePrint(['-p', 'hi', ...PRINT, '--output-format', 'json']);
    expect(done.code, done.stderr).toBe(0);

    // Waiting: an interactive ralph in tmux that asks permission for a command.
    const sock = path.join(run.dir, 'tmux.sock');
    const tmux = (...args: string[]) => spawnSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
    cleanups.push(() => tmux('kill-server'));
    const start = run.spawnInNs('tmux', [
      ...['-S', sock, '-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '150', '-y', '45'],
      ...['-c', run.project, `claude --plugin-dir ${OMC_PLUGIN} --permission-mode default`],
    ]);
    await new Promise((r) => start.on('close', r));
    const screen = () => tmux('capture-pane', '-p', '-t', 'main').stdout;
    await waitForPane('the prompt box', screen, '? for shortcuts', 90_000, run);
    const prompt = 'ralph: touch it [[bash:touch touched.txt]]';
    tmux('send-keys', '-t', 'main', '-l', prompt);
    await waitForPane('the typed prompt on screen', screen, prompt, 30_000);
    tmux('send-keys', '-t', 'main', 'Enter');
    const waiting = await waitFor(
      'a permission prompt',
      () => readRegistry(run.configDir).entries.find((e) => e.status === 'waiting'),
      90_000,
    );

    // Busy, and the one to orphan.
    const busy = await busyRalph(run);
    const doomed = await busyRalph(run);

    // The monitor (as cli.tsx starts it) and a watch --json beside it.
    const store = new OmcStore({ root, projectDir: run.project, claude: { env } });
    store.start({ progressive: true });
    let written = '';
    const terminal = startAttentionTerminal({ store, write: (t) => void (written += t), project: 'proj', env });
    const app = mountStore(store, { columns: 160, rows: 40, attention: terminal });
    cleanups.push(async () => {
      terminal.dispose();
      await app.unmount();
    });
    await app.ready;
    const watch = new WatchStream(root, env);
    cleanups.push(() => watch.stop());
    await waitFor('watch ready', () => watch.ready(), 60_000);

    const sample = async (n: number, what: string) => {
      await waitFor(`the monitor's count ${n} (${what})`, () => terminal.monitor.count.getSnapshot() === n, 60_000);
      await waitFor(`header ${n}`, () => headerCount(app.lines()[0] ?? '') === n, 20_000);
      await waitFor(`title ${n}`, () => titleCount(written) === n, 20_000);
      await waitFor(`status --tmux ${n}`, () => statusCount(root, env) === n, 20_000);
      expect(statusCount(root, env, true), what).toBe(n);
      expect(jsonAttention(root, env).needs_you, what).toBe(n);
      await waitFor(`watch --json ${n} (${watch.err})`, () => watch.count() === n, 30_000);
    };

    // 1: the prompt waits; the busy ralphs and the exited session need nothing.
    await sample(1, 'waiting');
    const item = jsonAttention(root, env).items.find((i) => i.kind === 'waiting');
    expect(item).toMatchObject({ session: waiting.sessionId, tmux: expect.stringMatching(/^main:\d+ \S+$/) });
    expect(String(item?.waiting_on)).toMatch(/^permission prompt/);
    expect(watch.lines().find((l) => l.type === 'attention')).toMatchObject({
      items: [expect.objectContaining({ kind: 'waiting', session: waiting.sessionId })],
    });

    // 2: a SIGKILL orphans a running ralph.
    doomed.child.kill('SIGKILL');
    await sample(2, 'orphaned');
    expect(jsonAttention(root, env).items.map((i) => [i.kind, i.session])).toEqual(
      expect.arrayContaining([
        ['waiting', waiting.sessionId],
        ['orphaned', doomed.sid],
      ]),
    );

    // 3: the prompt is answered; the turn ends with ralph still active and Claude idle: OMC will not feed it
    // again until prompted, so it still needs you (today's "!idle", counted).
    await waitForPane('the permission dialog', screen, 'Do you want to proceed?', 30_000);
    tmux('send-keys', '-t', 'main', 'Enter');
    await waitFor(
      'the turn to end',
      () => readRegistry(run.configDir).entries.find((e) => e.pid === waiting.pid)?.status === 'idle',
      120_000,
    );
    await sample(2, 'idle loop + orphaned');
    expect(
      jsonAttention(root, env)
        .items.map((i) => i.kind)
        .sort(),
    ).toEqual(['idle-loop', 'orphaned']);
    expect(busy.child.exitCode).toBeNull();
  }, 600_000);
});
