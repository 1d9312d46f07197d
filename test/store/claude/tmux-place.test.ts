/**
 * Where a Claude runs, said as its tmux status bar says it, on a monitor that is not in Claude's tmux server (a
 * serve or watch started elsewhere, a one-shot `--json`): the server is found from the Claude process's own $TMUX,
 * so the inbox, push and watch text read `main:0 claude`, not the registry's ids. Where no server names the window
 * (the process is gone), the ids of the window only, never the pane. Linux only (/proc/<pid>/environ).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { attentionReport } from '../../../src/feeds/attention/report.js';
import { DEAD_PID, writeRegistry } from '../../helpers/claude-files.js';
import { attentionEnv, registryStore } from '../../helpers/claude-registry-rig.js';
import { waitFor, writeLiveRalph } from '../../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../../helpers/it.js';

const HERE = 'abababab-1111-4222-8333-444444444444';
const GONE = 'cdcdcdcd-1111-4222-8333-444444444444';

describe.skipIf(process.platform !== 'linux')("a Claude in another tmux server than omc-top's", () => {
  it('is placed by its own server\'s names ("main:0 claude"); a gone one by its window ids', async ({
    emptyProject: p,
    claudeDir,
    tempDir,
    newStore,
  }) => {
    // A short socket path (a unix socket's path is limited to ~100 bytes).
    const dir = fs.mkdtempSync('/tmp/otp-');
    const sock = path.join(dir, 's');
    const tmux = (...a: string[]) => execFileSync('tmux', ['-S', sock, '-f', '/dev/null', ...a], { encoding: 'utf8' });
    tmux('new-session', '-d', '-s', 'main', '-n', 'claude', '-x', '80', '-y', '24', 'sleep 600');
    onTestFinished(() => {
      tmux('kill-server');
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const [panePid, windowId, paneId] = tmux(
      'display-message',
      '-p',
      '-t',
      'main',
      '#{pane_pid} #{window_id} #{pane_id}',
    )
      .trim()
      .split(' ') as [string, string, string];
    // The pane's process has the server's $TMUX once it runs (tmux sets it before exec).
    await waitFor(() => fs.readFileSync(`/proc/${panePid}/environ`, 'latin1').includes(`TMUX=${sock},`), {
      timeoutMs: 10_000,
      what: "the pane's process running with $TMUX",
    });
    writeLiveRalph(p, { sessionId: HERE, iteration: 2, max: 10, projectPath: p.dir });
    writeRegistry(claudeDir, Number(panePid), HERE, {
      status: 'waiting',
      waitingFor: 'permission prompt',
      cwd: p.dir,
      tmux: `main:${windowId}.${paneId}`,
      name: 'proj-67',
    });
    writeLiveRalph(p, { sessionId: GONE, iteration: 2, max: 10, projectPath: p.dir });
    writeRegistry(claudeDir, DEAD_PID, GONE, { status: 'idle', cwd: p.dir, tmux: 'main:@9.%12', name: 'proj-9' });

    // The monitor's own tmux is none (no $TMUX): only Claude's environment names its server.
    const store = registryStore({ newStore, claudeDir }, p);
    const env = attentionEnv({ claudeDir, tempDir });
    const items = attentionReport(store, env).items;
    const waiting = items.find((i) => i.session === HERE);
    expect(waiting?.tmux).toBe('main:0 claude');
    expect(waiting?.text).toContain('tmux main:0 claude');
    const orphan = items.find((i) => i.session === GONE);
    expect(orphan?.tmux).toBe('main:@9');
    expect(orphan?.text).toContain('(session proj-9 · tmux main:@9)');
  });
});
