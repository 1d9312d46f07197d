/**
 * Runs the real Claude Code CLI offline: every Claude process (and the mock
 * Messages API it talks to) lives in a network namespace that has only
 * loopback, held by the mock's process. The CLI comes from a cache outside
 * the repository (.ci/run installs it; OMC_TOP_CLAUDE_CODE_BIN points at it).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { pinNamespace } from '../helpers/netns.js';
import { scaled } from '../helpers/time-scale.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '..', '..');
export const OMC_PLUGIN = OMC55;
export const CLAUDE_VERSION = '2.1.332';

export function claudeBin(): string | null {
  const env = process.env.OMC_TOP_CLAUDE_CODE_BIN;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const candidates = [
    env,
    path.join(cache, 'omc-top', `claude-code-${CLAUDE_VERSION}`, 'node_modules', '.bin', 'claude'),
  ].filter((x): x is string => typeof x === 'string' && x !== '');
  return candidates.find((c) => fs.existsSync(c)) ?? null;
}

/** Why the suite cannot run here, or null when it can. */
export function skipReason(): string | null {
  if (process.platform !== 'linux') return 'the real-CLI suite needs Linux network namespaces';
  const bin = claudeBin();
  if (!bin)
    return `Claude Code ${CLAUDE_VERSION} is not installed: run .ci/run, or set OMC_TOP_CLAUDE_CODE_BIN to its claude binary`;
  for (const tool of ['unshare', 'nsenter', 'ip', 'tmux'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  const probe = spawnSync('unshare', ['--net', '--', 'sh', '-c', 'ip link set lo up && ip -o addr'], {
    encoding: 'utf8',
  });
  if (probe.status !== 0)
    return `cannot create a network namespace (unshare --net needs root or CAP_SYS_ADMIN): ${probe.stderr.trim()}`;
  if (/inet (?!127\.)/.test(probe.stdout)) return 'the new network namespace is not loopback-only';
  return null;
}

/**
 * Waits for a condition with a generous bound; never a fixed sleep. Unlike the fixtures' waitFor
 * (10 ms) it polls every 100 ms: conditions here spawn tmux or list the registry.
 */
export async function waitFor<T>(
  what: string,
  fn: () => T | null | undefined | false,
  timeoutMs = 60_000,
  /** What was last seen, said with a timeout (so a failure on a loaded machine explains itself). */
  seen?: () => string,
): Promise<T> {
  const end = Date.now() + scaled(timeoutMs);
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) {
      // The deadline may have passed while this worker was starved: let due timers run, then look once more.
      await new Promise((r) => setTimeout(r, 0));
      const last = fn();
      if (last) return last;
      throw new Error(
        `timed out after ${scaled(timeoutMs)} ms waiting for ${what}${seen ? `; last seen: ${seen()}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until a tmux pane shows `text` (or passes `test`); a timeout says what the pane showed last,
 * trimmed of blank lines, so a dialog or an error the CLI printed instead explains the failure.
 */
export function waitForPane(
  what: string,
  screen: () => string,
  test: string | ((screen: string) => boolean),
  timeoutMs: number,
  run?: Run,
): Promise<true> {
  const ok = typeof test === 'string' ? (s: string) => s.includes(test) : test;
  const seen = () => {
    const lines = screen()
      .split('\n')
      .filter((l) => l.trim() !== '');
    const shown = `the pane showed (${lines.length} lines):\n${lines.slice(-30).join('\n')}`;
    return run ? `${run.describe()}\n${shown}` : shown;
  };
  return waitFor(what, () => ok(screen()), timeoutMs, seen);
}

export interface Run {
  dir: string;
  home: string;
  configDir: string;
  project: string;
  env: NodeJS.ProcessEnv;
  holderPid: number;
  mockLog: string;
  /** Runs a command inside the namespace; the returned child's pid is the command's own (nsenter execs). */
  spawnInNs(cmd: string, args: string[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv }): ChildProcess;
  /** Runs claude in print mode to completion inside the namespace. */
  claudePrint(args: string[], timeoutMs?: number): Promise<{ code: number | null; stdout: string; stderr: string }>;
  mockCalls(): Record<string, unknown>[];
  /** Ends every process in the namespace (the holder with them), by pid, then lets the namespace's number go. */
  close(): Promise<void>;
  /** The namespace's processes and the mock's last requests, for a timeout's message. */
  describe(): string;
}

/** What a process is and where it waits (command, state, kernel wait channel), for a timeout's message. */
function procState(pid: number | undefined): string {
  const read = (f: string) => {
    try {
      return fs.readFileSync(`/proc/${pid}/${f}`, 'utf8').trim();
    } catch {
      return '?';
    }
  };
  const stat = read('stat');
  return `${read('comm')} ${stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)} in ${read('wchan')}`;
}

const PORT = 8787;

export async function startRun(name: string): Promise<Run> {
  const bin = claudeBin() as string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `omc-top-agent-${name}-`));
  const home = path.join(dir, 'home');
  const configDir = path.join(home, '.claude');
  const project = path.join(dir, 'proj');
  fs.mkdirSync(configDir, { recursive: true });
  fs.mkdirSync(project);
  // OMC anchors its state at the git top level, asked of `git rev-parse` with a 5 s timeout in every hook; a probe
  // that fails or times out (seen in CI on a loaded machine) moves that hook's state to $HOME/.omc, out of the
  // project the test watches. An OMC workspace marker anchors it at the project without asking git (OMC's own
  // multi-repo layout), so no hook's root depends on load. OMC ignores the marker inside the system temp
  // directory, which is why the hooks' TMPDIR is the run's tmp/ and not the run directory above the project.
  fs.writeFileSync(path.join(project, '.omc-workspace'), '{}\n');
  fs.mkdirSync(path.join(dir, 'tmp'));
  execFileSync('git', ['init', '-q', project]);
  execFileSync('git', ['-C', project, 'commit', '-q', '--allow-empty', '-m', 'init'], {
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
  // Skips the offline-fatal connectivity preflight, the trust dialog and the API-key question.
  fs.writeFileSync(
    path.join(configDir, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      lastOnboardingVersion: CLAUDE_VERSION,
      theme: 'dark',
      customApiKeyResponses: { approved: ['dummy'], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true } },
    }),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: `${path.dirname(bin)}:${process.env.PATH}`,
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    TMPDIR: path.join(dir, 'tmp'),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${PORT}`,
    ANTHROPIC_API_KEY: 'dummy',
  };
  const mockLog = path.join(dir, 'mock.jsonl');
  const ready = path.join(dir, 'mock.ready');
  fs.writeFileSync(mockLog, '');
  // No --fork: unshare execs sh, which execs node, so the child's pid is the mock's (the holder).
  const holder = spawn(
    'unshare',
    [
      '--net',
      '--',
      'sh',
      '-c',
      'ip link set lo up && exec node "$0" "$1" "$2" "$3"',
      path.join(HERE, 'mock-api.mjs'),
      String(PORT),
      mockLog,
      ready,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const holderPid = holder.pid as number;
  // A new network namespace can wait on the kernel's clean-up of the ones earlier runs left (net_mutex), which
  // takes seconds on a loaded machine: a generous bound, and a holder that died is said at once with its status.
  await waitFor(
    'the mock API to listen',
    () => {
      if (holder.exitCode !== null || holder.signalCode !== null)
        throw new Error(`the mock API's holder (unshare --net) ended: ${holder.exitCode ?? holder.signalCode}`);
      return fs.existsSync(ready);
    },
    90_000,
    () => `holder pid ${holder.pid} state ${procState(holder.pid)}`,
  );
  const nsArgs = [`--net=/proc/${holderPid}/ns/net`, '--'];

  const spawnInNs: Run['spawnInNs'] = (cmd, args, opts = {}) =>
    spawn('nsenter', [...nsArgs, cmd, ...args], {
      cwd: opts.cwd ?? project,
      env: { ...env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  const claudePrint: Run['claudePrint'] = (args, timeoutMs = 120_000) =>
    new Promise((resolve, reject) => {
      const child = spawnInNs('claude', args);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`claude ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`));
      }, scaled(timeoutMs));
      child.on('close', (code) => {
        clearTimeout(t);
        resolve({ code, stdout, stderr });
      });
    });

  // Pinned until close() has seen it empty, so its number cannot pass to another test's namespace meanwhile.
  const ns = pinNamespace(holderPid);
  const holderEnded = () => holder.exitCode !== null || holder.signalCode !== null;
  const mockCalls = () =>
    fs
      .readFileSync(mockLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  return {
    dir,
    home,
    configDir,
    project,
    env,
    holderPid,
    mockLog,
    spawnInNs,
    claudePrint,
    mockCalls,
    describe() {
      const procs = ns.members().map((pid) => `${pid} ${procState(pid)}`);
      let calls: Record<string, unknown>[] = [];
      try {
        calls = mockCalls();
      } catch {
        /* said below as none */
      }
      const last = calls.slice(-3).map((c) => JSON.stringify(c).slice(0, 200));
      // State OMC put under $HOME/.omc instead of the project's .omc (its root resolution went elsewhere).
      let astray: string[] = [];
      try {
        astray = fs.readdirSync(path.join(home, '.omc', 'state'), { recursive: true, encoding: 'utf8' });
      } catch {
        /* none there: the usual case */
      }
      return [
        `processes in the namespace: ${procs.join('; ') || 'none'}`,
        `the mock API: ${calls.length} requests${last.length ? `, the last: ${last.join(' | ')}` : ''}`,
        ...(astray.length > 0 ? [`OMC state under $HOME/.omc, not the project: ${astray.join(', ')}`] : []),
      ].join('\n');
    },
    async close() {
      // Everything in the namespace was started by this run (the mock, claude, tmux, OMC's session-end
      // workers). Repeated until empty: a process may fork while its siblings are being killed.
      await waitFor(
        'the namespace to empty',
        () => {
          ns.killAll();
          return ns.members().length === 0 && holderEnded();
        },
        30_000,
        () =>
          `left: ${ns
            .members()
            .map((pid) => `${pid} ${procState(pid)}`)
            .join('; ')}`,
      );
      ns.release();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
