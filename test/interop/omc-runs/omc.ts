/**
 * The real OMC versions the driven sequences run, and how Claude Code runs their hooks: the
 * commands of `hooks/hooks.json` per event (the script each one names), the environment a plugin
 * hook gets, and the Stop decision read off the hook's answer. 5.5.0 and 4.4.4 come from
 * test/omc-packages; 4.15.10 (which npm does not serve) from a checkout of OMC's source at
 * 94e71c36, given by OMC_TOP_OMC_415 or scripts/omc-415-fixtures.mjs.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../../helpers/fixtures.js';
import { OMC444, OMC55 } from '../../helpers/omc-packages.mjs';

export type OmcVersion = '5.5.0' | '4.4.4' | '4.15.10';

export function omcRoot(version: OmcVersion): string {
  if (version === '5.5.0') return OMC55;
  if (version === '4.4.4') return OMC444;
  const dir = process.env.OMC_TOP_OMC_415;
  if (!dir) throw new Error('OMC 4.15.10 needs a checkout of its source: set OMC_TOP_OMC_415');
  return dir;
}

/** The script persistent-mode hook of each version's Stop chain (the one that enforces modes). */
export const STOP_SCRIPT: Record<OmcVersion, string> = {
  '5.5.0': 'persistent-mode.mjs',
  '4.15.10': 'persistent-mode.mjs',
  '4.4.4': 'persistent-mode.cjs',
};

interface HookEntry {
  matcher?: string;
  hooks: Array<{ type: string; command: string }>;
}

/** The scripts hooks.json runs for `event` (in order), for a tool name when the event has matchers. */
export function hookScripts(version: OmcVersion, event: string, tool: string | null = null): string[] {
  const root = omcRoot(version);
  const all = (
    JSON.parse(fs.readFileSync(path.join(root, 'hooks', 'hooks.json'), 'utf8')) as {
      hooks: Record<string, HookEntry[]>;
    }
  ).hooks;
  const out: string[] = [];
  for (const e of all[event] ?? []) {
    const m = e.matcher ?? '*';
    if (!(m === '*' || m === '' || (tool !== null && new RegExp(`^(?:${m})$`).test(tool)))) continue;
    for (const h of e.hooks) {
      const script = /scripts\/([A-Za-z0-9._-]+\.[cm]?js)"?\s*$/.exec(h.command)?.[1];
      if (h.type === 'command' && script) out.push(path.join(root, 'scripts', script));
    }
  }
  return out;
}

/** What Claude Code gives a plugin hook (plus OMC_NOTIFY=0: nothing leaves the machine). */
export function hookEnv(version: OmcVersion, home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    OMC_NOTIFY: '0',
    CLAUDE_PLUGIN_ROOT: omcRoot(version),
    // In one long-lived process a loaded machine must not trip the hook's own safety exit.
    OMC_PERSISTENT_MODE_TIMEOUT_MS: '120000',
  };
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

/** The decision in a Stop hook's answer: block (and the mode its reason names, first tag wins) or stop. */
export function stopDecision(stdout: string): { decision: 'block' | 'stop'; mode: string | null } {
  const line = stdout.split('\n').find((l) => l.trim() !== '') ?? '';
  let v: { decision?: string; reason?: string };
  try {
    v = JSON.parse(line) as typeof v;
  } catch {
    return { decision: 'stop', mode: null };
  }
  if (v?.decision !== 'block') return { decision: 'stop', mode: null };
  const reason = String(v.reason ?? '');
  let best: { i: number; m: string } | null = null;
  for (const [p, m] of PREFIX) {
    const i = reason.indexOf(p);
    if (i >= 0 && (best === null || i < best.i)) best = { i, m };
  }
  return { decision: 'block', mode: best?.m ?? '?' };
}

/** The in-process runner (child.mjs): hooks, state tools and omc-top's cancel, one call at a time. */
export class OmcRunner {
  private child: ChildProcess;
  private next = 0;
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor() {
    this.child = fork(path.join(REPO, 'test', 'interop', 'omc-runs', 'child.mjs'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: { id: number; out?: unknown; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.out);
    });
    this.child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`the OMC runner exited (${code})`));
      this.waiting.clear();
    });
  }

  private call<T>(msg: Record<string, unknown>): Promise<T> {
    const id = (this.next += 1);
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, ...msg });
    });
  }

  hook(script: string, r: { cwd: string; env: Record<string, string>; stdin: string; now: number }): Promise<string> {
    return this.call({ op: 'hook', script, cwd: r.cwd, env: r.env, stdin: r.stdin, frozenNow: r.now });
  }

  tool(
    version: OmcVersion,
    tool: string,
    args: Record<string, unknown>,
    r: { cwd: string; home: string; now: number },
  ): Promise<{ text: string; isError: boolean }> {
    return this.call({
      op: 'tool',
      root: omcRoot(version),
      tool,
      args,
      cwd: r.cwd,
      env: hookEnv(version, r.home),
      frozenNow: r.now,
    });
  }

  cancel(
    argv: string[],
    r: { cwd: string; env: Record<string, string>; now: number },
  ): Promise<{ code: number; out: string }> {
    return this.call({ op: 'cancel', repo: REPO, argv, cwd: r.cwd, env: r.env, frozenNow: r.now });
  }

  close(): void {
    this.child.kill();
  }
}
