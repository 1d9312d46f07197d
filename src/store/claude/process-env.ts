/**
 * The OMC_STATE_DIR a running Claude Code process was started with. OMC's hooks inherit Claude's environment, so
 * that value, not omc-top's own, says where they keep the session's state: a Claude started `OMC_STATE_DIR=… claude`
 * (an alias many use) writes under that directory, one started without it writes in its project whatever omc-top
 * runs with. Read from /proc/<pid>/environ (Linux: the environment the process was started with, which cannot
 * change, so once per process is enough) through the one safe read path, as its command line is for --plugin-dir.
 */
import path from 'node:path';
import { readTextSync } from '../../io/safe-fs/index.js';
import { cleanLine } from '../../io/sanitize.js';
import { shellArg, shownPath } from '../../io/shown-path.js';
import { findClaudeConfigDir } from './config-dir.js';
import { judgeProcess, systemProbe, type LivenessProbe } from './process-status.js';
import { readRegistry } from './registry.js';

/** The process's OMC_STATE_DIR (null: not set), or why its environment cannot be read here. */
export type ProcessStateDir = { ok: true; stateDir: string | null } | { ok: false; why: string };

/** An environment is a few KiB; a larger one is cut (and what is past the cut is not looked at). */
const ENVIRON_MAX_BYTES = 1024 * 1024;
const NAME = 'OMC_STATE_DIR';

/** The environment a process was started with (name → value), or why it cannot be read here. */
export type ProcessEnviron = { ok: true; env: Map<string, string> } | { ok: false; why: string };

export function environOfProcess(pid: number): ProcessEnviron {
  if (process.platform !== 'linux') return { ok: false, why: 'no /proc on this system' };
  if (!Number.isSafeInteger(pid) || pid <= 0) return { ok: false, why: `no such process id ${pid}` };
  const r = readTextSync('/proc', `${pid}/environ`, ENVIRON_MAX_BYTES, { keepNul: true, rootLabel: '/proc' });
  if (!r.ok) return { ok: false, why: cleanLine(r.message) };
  const env = new Map<string, string>();
  for (const kv of r.text.split('\u0000')) {
    const eq = kv.indexOf('=');
    // The first of a name wins, as getenv() finds it.
    if (eq > 0 && !env.has(kv.slice(0, eq))) env.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  return { ok: true, env };
}

export function stateDirOfProcess(pid: number): ProcessStateDir {
  const r = environOfProcess(pid);
  return r.ok ? { ok: true, stateDir: r.env.get(NAME) ?? null } : r;
}

/** The values of `names` in a process's environment as it was started (a name not set is absent), or why not. */
export function processEnvValues(
  pid: number,
  names: readonly string[],
): { ok: true; values: Record<string, string> } | { ok: false; why: string } {
  const r = environOfProcess(pid);
  if (!r.ok) return r;
  const values: Record<string, string> = {};
  for (const n of names) {
    const v = r.env.get(n);
    if (v !== undefined) values[n] = v;
  }
  return { ok: true, values };
}

/** The environment OMC's hooks under that process see for root finding: `env` with the process's OMC_STATE_DIR. */
export function envWithStateDir(env: NodeJS.ProcessEnv, stateDir: string | null): NodeJS.ProcessEnv {
  const out = { ...env };
  if (stateDir === null) delete out.OMC_STATE_DIR;
  else out.OMC_STATE_DIR = stateDir;
  return out;
}

/**
 * Why a monitor of `projectDir` that finds no `.omc` may be looking in the wrong place: a live Claude there runs
 * with another OMC_STATE_DIR than omc-top's (its hooks write under it), or without the one omc-top has. One line
 * per setting seen, with the command that looks where that Claude's hooks write. Read only on that failure path.
 */
export function stateDirHints(
  projectDir: string,
  env: NodeJS.ProcessEnv,
  probe: LivenessProbe = systemProbe(),
): string[] {
  const ours = env.OMC_STATE_DIR ? env.OMC_STATE_DIR : null;
  const seen = new Map<string, string>();
  for (const e of readRegistry(findClaudeConfigDir(env).dir).entries) {
    if (e.cwd === null || !inside(projectDir, e.cwd) || judgeProcess(e, probe).status === 'gone') continue;
    const own = stateDirOfProcess(e.pid);
    if (!own.ok) continue;
    // OMC resolves a relative setting against the hook's working directory: the Claude's.
    const theirs = own.stateDir ? path.resolve(e.cwd, own.stateDir) : null;
    if (theirs === (ours === null ? null : path.resolve(ours))) continue;
    const key = theirs ?? '';
    if (seen.has(key)) continue;
    seen.set(
      key,
      theirs === null
        ? `Claude pid ${e.pid} here runs without OMC_STATE_DIR: try env -u OMC_STATE_DIR omc-top`
        : `Claude pid ${e.pid} here runs with OMC_STATE_DIR=${shownPath(theirs)}: try ${shellArg(theirs, (w) => `OMC_STATE_DIR=${w} omc-top`)}`,
    );
  }
  return [...seen.values()];
}

const inside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** A $TMUX socket path longer than this is not one tmux made. */
const TMUX_SOCKET_MAX = 4096;

/**
 * The tmux server a running process is in: the socket of its $TMUX ("socket,pid,session"), or null (not under
 * tmux, or its environment cannot be read here). Kept exact (tmux is asked through it): an absolute path with
 * nothing a terminal or a shell would read differently.
 */
export function tmuxSocketOfProcess(pid: number): string | null {
  const r = environOfProcess(pid);
  const tmux = r.ok ? r.env.get('TMUX') : undefined;
  const socket = tmux?.split(',')[0];
  return socket && socket.startsWith('/') && socket.length <= TMUX_SOCKET_MAX && cleanLine(socket) === socket
    ? socket
    : null;
}
