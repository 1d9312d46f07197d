/**
 * The live Claude Code processes working in a project, found from the processes themselves (/proc), not from a
 * registry: a Claude started `CLAUDE_CONFIG_DIR=~/.claude-work claude` (one config directory per account) writes its
 * registry entry and transcripts under that directory, which omc-top, started without the variable, never reads.
 * Each one's config directory is what its environment as started says (read once per process start identity: it
 * cannot change). Looked at only when asked (the start, a look for the project's OMC, a failure's hint), never on
 * a tick: a monitor at rest reads nothing here (issue 30).
 */
import path from 'node:path';
import { listDirSync, readLinkSync, readTextSync } from '../../io/safe-fs/index.js';
import { endedFromStat, startTicksFromStat } from '../../io/process-start.js';
import { homeDir } from '../../io/home-dir.js';
import { isNativeClaude } from './claude-exe.js';
import type { ClaudeConfigDir } from './config-dir.js';
import { processEnvValues } from './process-env.js';

export interface ClaudeHere {
  pid: number;
  procStart: string;
  cwd: string;
  /** The config directory its CLI reads and writes; null when its environment cannot be read (another user's). */
  config: ClaudeConfigDir | null;
  /** Why `config` is null. */
  why?: string;
}

/** What a process's comm (its name, at most 15 bytes) is when it is Claude Code: the CLI sets it, the binary is it. */
const CLAUDE_NAMES = new Set(['claude', 'claude.exe']);
/** The native installer runs a file named by its version (claude-exe.ts): its exe link says whether it is Claude. */
const VERSION_NAME = /^\d+\.\d+\.\d+/;

/** Each process's config directory by `pid:procStart`: a process's environment as started never changes. */
const configs = new Map<string, { config: ClaudeConfigDir | null; why?: string }>();

/** The config directory a process whose environment holds `values` uses (the CLI's own rule, config-dir.ts). */
export function configOfValues(values: Record<string, string>, cwd: string, env: NodeJS.ProcessEnv): ClaudeConfigDir {
  const set = values.CLAUDE_CONFIG_DIR;
  if (set !== undefined && set.trim() !== '') return { dir: path.resolve(cwd, set), rule: 'CLAUDE_CONFIG_DIR' };
  // Its own HOME (a process started under sudo -u or with another HOME), else omc-top's.
  const home = values.HOME !== undefined && path.isAbsolute(values.HOME) ? values.HOME : homeDir(env);
  return { dir: path.resolve(home, '.claude'), rule: 'HOME/.claude' };
}

/**
 * The config directory of one Claude process (`procStart`: its start identity, under which it is remembered), from
 * its environment as started; null with why when that cannot be read (another user's process, no /proc).
 */
export function configOfProcess(
  pid: number,
  procStart: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { config: ClaudeConfigDir | null; why?: string } {
  const key = `${pid}:${procStart}`;
  let known = configs.get(key);
  if (!known) {
    const r = processEnvValues(pid, ['CLAUDE_CONFIG_DIR', 'HOME']);
    known = r.ok ? { config: configOfValues(r.values, cwd, env) } : { config: null, why: r.why };
    configs.set(key, known);
  }
  return known;
}

const inside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The live Claude processes whose working directory is `projectDir` or under it, by pid. Linux only (else none). */
export function claudesIn(projectDir: string, env: NodeJS.ProcessEnv, platform = process.platform): ClaudeHere[] {
  if (platform !== 'linux') return [];
  const list = listDirSync('/', 'proc', { rootLabel: '/proc' });
  if (!list.ok) return [];
  const out: ClaudeHere[] = [];
  const seen = new Set<string>();
  for (const e of list.entries) {
    if (!/^\d+$/.test(e.name)) continue;
    const pid = Number(e.name);
    const comm = readTextSync('/proc', `${pid}/comm`, 256, { rootLabel: '/proc' });
    const name = comm.ok ? comm.text.trim() : '';
    if (!CLAUDE_NAMES.has(name) && !(VERSION_NAME.test(name) && nativeExe(pid))) continue;
    const stat = readTextSync('/proc', `${pid}/stat`, 4096, { rootLabel: '/proc' });
    const procStart = stat.ok && !endedFromStat(stat.text) ? startTicksFromStat(stat.text) : null;
    const cwdLink = readLinkSync('/proc', `${pid}/cwd`);
    if (procStart === null || !cwdLink.ok || cwdLink.invalidUtf8) continue;
    const cwd = cwdLink.target;
    if (!inside(projectDir, cwd)) continue;
    const key = `${pid}:${procStart}`;
    seen.add(key);
    out.push({ pid, procStart, cwd, ...configOfProcess(pid, procStart, cwd, env) });
  }
  // A process that ended is forgotten (a reused pid has another start identity, so it is read afresh).
  for (const k of configs.keys()) if (!seen.has(k) && !isLive(k)) configs.delete(k);
  return out.sort((a, b) => a.pid - b.pid);
}

function nativeExe(pid: number): boolean {
  const exe = readLinkSync('/proc', `${pid}/exe`);
  return exe.ok && isNativeClaude(exe.target.replace(/ \(deleted\)$/, ''));
}

/** Whether the process a memo key names still runs with that start identity (one in another project is kept). */
function isLive(key: string): boolean {
  const [pid, start] = key.split(':');
  const stat = readTextSync('/proc', `${pid}/stat`, 4096, { rootLabel: '/proc' });
  return stat.ok && !endedFromStat(stat.text) && startTicksFromStat(stat.text) === start;
}
