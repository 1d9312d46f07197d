/**
 * Scratch machines for fleet tests: a HOME, a Claude config dir with registry
 * entries in Claude Code's real format (pid + procStart of a live process, so
 * the real liveness check says live), git projects (with worktrees) holding
 * OMC session state written as OMC writes it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { LocalFleet, type LocalFleetOptions } from '../../src/fleet/local.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { ownPidDomain } from '../../src/store/claude/process-status.js';
import { makeLive, sessionId, writeFinishedSessions } from '../helpers/sessions-gen.js';

export interface Machine {
  base: string;
  home: string;
  config: string;
  env: Record<string, string>;
  /** Creates a git project with `sessions` finished sessions (+ one live loop with a registry entry). */
  project(
    name: string,
    sessions: number,
    opts?: { liveId?: string; as?: { args?: string[]; env?: Record<string, string> } },
  ): { dir: string; root: string; live: string };
  /** A worktree of `repo` on a new branch, with its own .omc. */
  worktree(repoDir: string, name: string): string;
  /**
   * A registry entry for session `sid` running in `cwd`, for a real live process. With `as`, a process of its own
   * whose command line carries `args` (`--plugin-dir DIR`) and whose environment adds `env` (`OMC_STATE_DIR`), as
   * `OMC_STATE_DIR=… claude --plugin-dir DIR` starts one; returned so a test can end it.
   */
  register(sid: string, cwd: string, as?: { args?: string[]; env?: Record<string, string> }): ChildProcess;
  cleanup(): void;
}

const GIT = ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main'];
const git = (cwd: string, ...args: string[]) => execFileSync('git', [...GIT, ...args], { cwd, stdio: 'ignore' });

export function makeMachine(): Machine {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-fleet-'));
  const home = path.join(base, 'home');
  const config = path.join(home, '.claude');
  fs.mkdirSync(path.join(config, 'sessions'), { recursive: true });
  // One sleeping child stands for every Claude CLI: its pid and start time are real.
  const children: ChildProcess[] = [];
  const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  children.push(holder);
  let nextPid = 0;
  // omc-top's own state directory is this machine's too: a fleet remembers the projects it watched there, and one
  // shared by every test (the pty harness's default) would show each fleet the projects of the others.
  const env: Record<string, string> = {
    HOME: home,
    CLAUDE_CONFIG_DIR: config,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
  };
  const sleeper = path.join(base, 'claude-sleeper.js');
  fs.writeFileSync(sleeper, 'setInterval(() => {}, 1 << 30);\n');
  const register = (sid: string, cwd: string, as?: { args?: string[]; env?: Record<string, string> }) => {
    // Each entry needs its own live pid (the file name is the pid): one sleeper each.
    const c = as
      ? spawn(process.execPath, [sleeper, ...(as.args ?? [])], { stdio: 'ignore', env: { ...process.env, ...as.env } })
      : nextPid++ === 0
        ? holder
        : spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    if (c !== holder) children.push(c);
    const pid = c.pid as number;
    let procStart = processStartIdentity(pid);
    for (let i = 0; i < 200 && (procStart === null || procStart === 'absent'); i++)
      procStart = processStartIdentity(pid);
    const entry = {
      pid,
      sessionId: sid,
      cwd,
      startedAt: Date.now() - 60_000,
      procStart,
      version: '2.1.332',
      kind: 'interactive',
      entrypoint: 'cli',
      pidDomain: ownPidDomain(),
      status: 'busy',
      updatedAt: Date.now(),
      statusUpdatedAt: Date.now(),
    };
    const file = path.join(config, 'sessions', `${pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(entry));
    fs.renameSync(`${file}.tmp`, file);
    return c;
  };
  let n = 1000;
  return {
    base,
    home,
    config,
    env,
    register,
    project(name, sessions, opts = {}) {
      const dir = path.join(base, name);
      fs.mkdirSync(dir, { recursive: true });
      git(dir, 'init', '-q');
      git(dir, 'commit', '-q', '--allow-empty', '-m', 'init');
      const root = path.join(dir, '.omc');
      fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
      writeFinishedSessions(root, sessions);
      const live = opts.liveId ?? sessionId(n++);
      makeLive(root, live);
      register(live, dir, opts.as);
      return { dir, root, live };
    },
    worktree(repoDir, name) {
      const dir = path.join(base, name);
      git(repoDir, 'worktree', 'add', '-q', '-b', name, dir);
      fs.mkdirSync(path.join(dir, '.omc', 'state', 'sessions'), { recursive: true });
      return dir;
    },
    cleanup() {
      for (const c of children) c.kill('SIGKILL');
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/** An inotify budget no fleet here runs short of (the fallback to polling has tests of its own that set one). */
export const AMPLE_WATCHES = { watches: 1_000_000, instances: 1024 };

export interface FleetRig {
  /** A new scratch machine, removed after the test. */
  machine(): Machine;
  /** A local fleet over `machine` (not started), with AMPLE_WATCHES unless `opts` says otherwise; closed after the test. */
  fleet(machine: Machine, opts?: LocalFleetOptions): LocalFleet;
}

/**
 * The machines and fleets each test of a file makes, closed (fleets first, then machines) after every test. Call it
 * once at the top of the file: it registers that afterEach.
 */
export function fleetRigPerTest(): FleetRig {
  const machines: Machine[] = [];
  const fleets: LocalFleet[] = [];
  afterEach(async () => {
    await Promise.all(fleets.splice(0).map((f) => f.close()));
    for (const m of machines.splice(0)) m.cleanup();
  });
  return {
    machine() {
      const m = makeMachine();
      machines.push(m);
      return m;
    },
    fleet(machine, opts = {}) {
      const f = new LocalFleet({ env: machine.env, home: machine.home, limits: AMPLE_WATCHES, ...opts });
      fleets.push(f);
      return f;
    },
  };
}
