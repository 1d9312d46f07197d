/**
 * Is the Claude Code process behind a registry entry still the one that wrote
 * it, and what is it doing? The registry has no heartbeat (an idle CLI never
 * rewrites its file) and a SIGKILL leaves the file behind, so liveness comes
 * from the pid plus its start time (`procStart`, field 22 of /proc/<pid>/stat),
 * never from the file's age. When a fact cannot be checked the answer is
 * "unknown", with the reason: never a guess.
 */
import fs from 'node:fs';
import { readTextSync } from '../../io/safe-fs/index.js';
import { ProcessHolds, runningStartIdentity, type StartIdentity } from '../../io/process-start.js';
import type { RegistryEntry } from './registry.js';

/**
 * `gone`: the registry entry is there but its process is not (SIGKILL); `exited`: omc-top saw the entry
 * removed (the CLI removes it on a clean exit), or the transcript ends with Claude Code's exit figures.
 */
export type ProcessStatus = 'busy' | 'idle' | 'waiting' | 'gone' | 'exited' | 'unknown';

export interface ProcessVerdict {
  status: ProcessStatus;
  /** Why, in words (shown in the detail view). */
  reason: string;
}

/** `linux:<machine-id>:pid:[<pid namespace inode>]`, as the CLI writes it; null when unreadable. */
export function ownPidDomain(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const id = readTextSync('/etc', 'machine-id', 1024);
    const machine = id.ok ? id.text.trim() : '';
    const ns = /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1];
    return machine && ns ? `linux:${machine}:pid:[${ns}]` : null;
  } catch {
    return null;
  }
}

export interface LivenessProbe {
  startIdentity(pid: number): StartIdentity;
  pidDomain: string | null;
  /** Processes seen running, held open so that asking again is one read (absent: every check reads by path). */
  holds?: Pick<ProcessHolds, 'hold' | 'stillRunning' | 'retain'>;
}

export const systemProbe = (): LivenessProbe => ({
  startIdentity: runningStartIdentity,
  pidDomain: ownPidDomain(),
  holds: new ProcessHolds(),
});

export function judgeProcess(e: RegistryEntry, probe: LivenessProbe): ProcessVerdict {
  // A pid from another machine or pid namespace names some other process here.
  if (e.pidDomain !== null && probe.pidDomain !== null && e.pidDomain !== probe.pidDomain)
    return { status: 'unknown', reason: `registered in another pid namespace (${e.pidDomain})` };
  const live = probe.startIdentity(e.pid);
  if (live === 'absent') return { status: 'gone', reason: `pid ${e.pid} is not running (the CLI was killed)` };
  if (live === null) return { status: 'unknown', reason: `cannot check pid ${e.pid} on this system` };
  if (e.procStart === null) return { status: 'unknown', reason: 'the registry entry records no procStart' };
  if (live !== e.procStart)
    return {
      status: 'gone',
      reason: `pid ${e.pid} now belongs to another process (start ${live}, not ${e.procStart})`,
    };
  switch (e.status) {
    case 'busy':
      return { status: 'busy', reason: 'working on a turn' };
    case 'idle':
      return { status: 'idle', reason: 'waiting for the next prompt' };
    case 'waiting':
      return { status: 'waiting', reason: `waiting for you (${e.waitingFor ?? 'a prompt'})` };
    case null:
      return { status: 'unknown', reason: 'starting (no status written yet)' };
    default:
      return { status: 'unknown', reason: `unrecognised status "${e.status}"` };
  }
}
