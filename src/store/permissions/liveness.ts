/**
 * Is anyone there? The two checks the permission bridge makes on both sides: a monitor that answers for a
 * project is running (its listener file, pid and start time), and Claude has moved on from a request (its
 * registry status changed after the request was made: the prompt was answered in the terminal).
 *
 * Claude's registry is read in the config directory of the Claude that asked (AskerRegistry), which need not be the
 * monitor's: a Claude started `CLAUDE_CONFIG_DIR=~/.claude-work claude` keeps its entry there.
 */
import { isDirectorySync, listDirSync, readJsonSync } from '../../io/safe-fs/index.js';
import type { StartIdentity } from '../../io/process-start.js';
import path from 'node:path';
import { CLAUDE_DIR_READ, findClaudeConfigDir } from '../claude/config-dir.js';
import { parseRegistryEntry } from '../claude/registry.js';
import { LISTENERS, ListenerSchema, inProject, type PermissionRequestFile } from './protocol.js';

/** The pid runs, and is the process that wrote `start` (when recorded and checkable). */
export function isLive(startIdentity: (pid: number) => StartIdentity, pid: number, start: string | null): boolean {
  const id = startIdentity(pid);
  return id !== 'absent' && (start === null || id === null || id === start);
}

/** A monitor that can answer for this cwd is running. */
export function liveListener(dir: string, cwd: string, startIdentity: (pid: number) => StartIdentity): boolean {
  const list = listDirSync(dir, LISTENERS);
  if (!list.ok) return false;
  for (const e of list.entries) {
    if (e.kind !== 'file' || !/^\d{1,10}\.json$/.test(e.name)) continue;
    const r = readJsonSync(dir, `${LISTENERS}/${e.name}`, 4096);
    if (!r.ok) continue;
    const l = ListenerSchema.safeParse(r.value);
    if (!l.success || `${l.data.pid}.json` !== e.name) continue;
    if (inProject(l.data.project_dir, cwd) && isLive(startIdentity, l.data.pid, l.data.proc_start)) return true;
  }
  return false;
}

/**
 * Where the registry entry of the Claude that asked is read: a config directory, and whether it is known to be that
 * Claude's own (`its`). Only then does an entry missing there say something (the CLI removed it); in a directory that
 * may be another Claude's, a missing entry is no sign of anything.
 */
export interface AskerRegistry {
  dir: string;
  its: boolean;
}

/** The registry of the Claude whose environment this is (the hook's: Claude Code gives its hooks its own). */
export const registryOfEnv = (env: NodeJS.ProcessEnv): AskerRegistry => ({
  dir: findClaudeConfigDir(env).dir,
  its: true,
});

/** Claude moved on (answered in its terminal, the turn ended, the CLI exited) after the request was made. */
export function answeredElsewhere(
  reg: AskerRegistry,
  req: Pick<PermissionRequestFile, 'claude_pid' | 'session_id' | 'created_at'>,
): boolean {
  if (req.claude_pid === null) return false;
  const rel = `sessions/${req.claude_pid}.json`;
  const r = readJsonSync(reg.dir, rel, 64 * 1024, CLAUDE_DIR_READ);
  // Gone from a registry that is that Claude's and is there: the CLI removed its entry. Not from a directory that may
  // be another Claude's, nor where no registry is kept at all (a CLI that keeps none): nothing was read there.
  if (!r.ok) return r.code === 'missing' && reg.its && isDirectorySync(path.join(reg.dir, 'sessions'));
  const p = parseRegistryEntry(rel, r.value, r.read.mtimeMs);
  if (!p.ok || p.entry.sessionId !== req.session_id) return false;
  const { status, statusUpdatedAt } = p.entry;
  return status !== 'waiting' && statusUpdatedAt !== null && statusUpdatedAt > req.created_at;
}

/**
 * The Claude that asked is gone (SIGKILLed, crashed, or exited), or null while it runs or cannot be checked. A
 * hook outlives a killed Claude (reparented, still waiting): its life says nothing of whether anyone would take
 * an answer, so the request follows Claude's. A SIGKILL leaves the registry entry behind; the pid and its start time
 * (the one the hook read as Claude asked, and the registry entry's where it records one) say whether that process
 * still runs (as the Claude domain judges an entry).
 */
export function claudeGone(
  reg: AskerRegistry,
  req: Pick<PermissionRequestFile, 'claude_pid' | 'claude_start' | 'session_id'>,
  startIdentity: (pid: number) => StartIdentity,
): string | null {
  const why = claudeGoneWhy(reg, req, startIdentity);
  return why === null ? null : `Claude exited (${why})`;
}

/** What shows the Claude that asked is gone ("pid N is not running"), or null: claudeGone without its subject. */
export function claudeGoneWhy(
  reg: AskerRegistry,
  req: Pick<PermissionRequestFile, 'claude_pid' | 'claude_start' | 'session_id'>,
  startIdentity: (pid: number) => StartIdentity,
): string | null {
  const pid = req.claude_pid;
  if (pid === null) return null;
  const live = startIdentity(pid);
  if (live === 'absent') return `pid ${pid} is not running`;
  if (live === null) return null;
  // The identity the hook read as Claude asked: known even where the registry entry has no procStart.
  if (typeof req.claude_start === 'string' && req.claude_start !== live) return `pid ${pid} is now another process`;
  const rel = `sessions/${pid}.json`;
  const r = readJsonSync(reg.dir, rel, 64 * 1024, CLAUDE_DIR_READ);
  if (!r.ok) return null;
  const p = parseRegistryEntry(rel, r.value, r.read.mtimeMs);
  if (!p.ok || p.entry.sessionId !== req.session_id || p.entry.procStart === null) return null;
  return p.entry.procStart === live ? null : `pid ${pid} is now another process`;
}
