/**
 * `omc-top cancel --wait` looks at the session's Claude on its own (agent-poller.ts). After a resume, the registry
 * holds the file a killed process left behind beside the resumed one's; when the resumed Claude exits cleanly its
 * file goes, and the poller must say the resumed process exited, not fall back to the killed one as "gone".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentPoller } from '../../../src/store/claude/agent-poller.js';
import { DEAD_PID, writeRegistry } from '../../helpers/claude-files.js';

const SID = 'aaaaaaaa-1111-4222-8333-000000000001';
const made: string[] = [];
const kids: ChildProcess[] = [];
afterEach(() => {
  for (const k of kids.splice(0)) k.kill('SIGKILL');
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A scratch Claude config directory (`cfg`, its registry not made yet) and the project a Claude runs in. */
function scratchClaude(): { cfg: string; cwd: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'poller-resume-'));
  made.push(base);
  const cwd = path.join(base, 'proj');
  fs.mkdirSync(cwd);
  return { cfg: path.join(base, '.claude'), cwd };
}

/** A sleeping process standing for a running Claude (a real pid and start time), killed after the test. */
function runningClaude(): ChildProcess {
  const live = spawn('sleep', ['600'], { stdio: 'ignore' });
  kids.push(live);
  return live;
}

describe('the poller after a resume', () => {
  it("a resumed Claude's clean exit reads as that process exited, not the killed one's leftover file", () => {
    const { cfg, cwd } = scratchClaude();
    const now = Date.now();
    // The killed process: its file stays, its pid runs nothing.
    writeRegistry(cfg, DEAD_PID, SID, { status: 'busy', cwd, startedAt: now - 600_000, procStart: '5' });
    // The resumed one, running (a stand-in process), started after it.
    const live = runningClaude();
    writeRegistry(cfg, live.pid as number, SID, { status: 'idle', cwd, startedAt: now - 60_000 });
    const poller = new AgentPoller(cfg, SID, cwd, () => now);
    expect(poller.look()).toMatchObject({ status: 'idle', pid: live.pid });
    // A clean exit: Claude Code removes the exiting process's file.
    fs.rmSync(path.join(cfg, 'sessions', `${live.pid}.json`));
    expect(poller.look()).toMatchObject({ status: 'exited', pid: live.pid, sinceMs: now });
  });

  it('a killed process seen running reads as gone', () => {
    const { cfg, cwd } = scratchClaude();
    const now = Date.now();
    const live = runningClaude();
    writeRegistry(cfg, live.pid as number, SID, { status: 'busy', cwd, startedAt: now - 60_000 });
    const poller = new AgentPoller(cfg, SID, cwd, () => now);
    expect(poller.look()).toMatchObject({ status: 'busy', pid: live.pid });
    live.kill('SIGKILL');
    return new Promise<void>((resolve) => live.once('exit', () => resolve())).then(() => {
      expect(poller.look()).toMatchObject({ status: 'gone', pid: live.pid });
    });
  });
});
