/**
 * OMC's real Stop hooks (5.5.0 and 4.4.4 from node_modules), run the way Claude Code runs them:
 * the hook command of hooks.json, the Stop payload on stdin, an isolated HOME, cwd = the project,
 * and a frozen clock. `spawnStopHook` starts a real process per run (`node run.cjs <script>`, as
 * hooks.json says); `HookRunner` runs the same script many times in one long-lived process,
 * which is what makes thousands of generated cases affordable (see hook-runner/runner.mjs).
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO } from './fixtures.js';
import { OMC444, OMC55 } from './omc-packages.mjs';
import { scaled } from './time-scale.js';

export type HookVersion = '5.5.0' | '4.4.4';

export const HOOKS: Record<HookVersion, { root: string; script: string }> = {
  '5.5.0': {
    root: OMC55,
    script: path.join(OMC55, 'scripts', 'persistent-mode.mjs'),
  },
  '4.4.4': {
    root: OMC444,
    script: path.join(OMC444, 'scripts', 'persistent-mode.cjs'),
  },
};

const RUNNER_DIR = path.join(REPO, 'test', 'interop', 'hook-runner');

export interface HookRun {
  cwd: string;
  sessionId: string;
  home: string;
  now: number;
  /** More of the environment Claude gives its hooks (OMC_SECURITY…); spawnStopHook only. */
  env?: Record<string, string>;
}

/** The environment Claude Code gives a plugin hook (plus OMC_NOTIFY=0: no notifications leave the box). */
export function hookEnv(version: HookVersion, home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    OMC_NOTIFY: '0',
    CLAUDE_PLUGIN_ROOT: HOOKS[version].root,
  };
}

/** The Stop payload Claude Code writes to the hook's stdin (claude-code-offline.md; 5.5 addendum Appendix A). */
export function stopPayload(r: HookRun): string {
  return JSON.stringify({
    session_id: r.sessionId,
    transcript_path: path.join(r.home, '.claude', 'projects', 'x', `${r.sessionId}.jsonl`),
    cwd: r.cwd,
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: false,
  });
}

/** One real hook process: `node <root>/scripts/run.cjs <script>`, the clock frozen by a preload. */
export function spawnStopHook(version: HookVersion, r: HookRun): string {
  const env = {
    ...hookEnv(version, r.home),
    ...r.env,
    NODE_OPTIONS: `--import=${path.join(RUNNER_DIR, 'freeze-clock.mjs')}`,
    OMC_TOP_FROZEN_NOW: String(r.now),
  };
  const res = spawnSync(
    process.execPath,
    [path.join(HOOKS[version].root, 'scripts', 'run.cjs'), HOOKS[version].script],
    {
      cwd: r.cwd,
      env,
      input: stopPayload(r),
      encoding: 'utf8',
      timeout: scaled(60_000),
    },
  );
  // A hook that did not finish is a failure, never read as "let stop".
  if (res.error || res.status === null)
    throw new Error(`the Stop hook did not finish: ${String(res.error ?? res.signal)}`);
  return (res.stdout ?? '').split('\n')[0] ?? '';
}

/** Many runs of one version's hook in one process (cases run one after another). */
export class HookRunner {
  private child: ChildProcess;
  private next = 0;
  private waiting = new Map<number, { resolve: (s: string) => void; reject: (e: Error) => void }>();

  constructor(readonly version: HookVersion) {
    this.child = fork(path.join(RUNNER_DIR, 'runner.mjs'), [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    this.child.on('message', (m: { id: number; out?: string; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.out ?? '');
    });
    this.child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`hook runner exited (${code})`));
      this.waiting.clear();
    });
  }

  run(r: HookRun): Promise<string> {
    const id = (this.next += 1);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({
        id,
        script: HOOKS[this.version].script,
        cwd: r.cwd,
        env: hookEnv(this.version, r.home),
        stdin: stopPayload(r),
        frozenNow: r.now,
      });
    });
  }

  close(): void {
    this.child.kill();
  }
}

const PREFIX: Array<[string, string]> = [
  ['[RALPH LOOP', 'ralph'],
  ['[ULTRAGOAL', 'ultragoal'],
  ['[AUTOPILOT', 'autopilot'],
  ['[ULTRAPILOT', 'ultrapilot'],
  ['[SWARM', 'swarm'],
  ['[PIPELINE', 'pipeline'],
  ['[TEAM', 'team'],
  ['[OMC TEAMS', 'omc-teams'],
  ['[ULTRAQA', 'ultraqa'],
  ['[ULTRAWORK', 'ultrawork'],
];

/** What a hook's stdout line decided: block (and for which mode, from its reason) or let stop. */
export function hookDecision(line: string): { decision: 'block' | 'stop'; mode: string | null; raw: string } {
  let v: { decision?: string; reason?: string; continue?: boolean };
  try {
    v = JSON.parse(line);
  } catch {
    return { decision: 'stop', mode: null, raw: line };
  }
  if (v.decision !== 'block') return { decision: 'stop', mode: null, raw: line };
  const reason = String(v.reason ?? '');
  const mode = PREFIX.find(([p]) => reason.includes(p))?.[1] ?? '?';
  return { decision: 'block', mode, raw: line };
}

/** `git init` for a scratch project (5.5.0 resolves its .omc root through git). */
export function gitInit(dir: string): void {
  spawnSync('git', ['init', '-q', dir], { stdio: 'ignore' });
}
