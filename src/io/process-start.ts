/**
 * A process's start identity, in the exact form OMC's state locks record and
 * compare (5.5 addendum §9.3): on Linux field 22 of /proc/<pid>/stat (start
 * time in clock ticks) as a decimal string; on macOS the epoch-ms start time
 * from `ps -o lstart=`. OMC treats a lock whose recorded identity differs from
 * the live process's as dead and reclaims it, so ours must be exact.
 */
import { holdFileSync, readTextSync, type HeldFile } from './safe-fs/index.js';
import { spawnSync } from 'node:child_process';
import { SYNC_KILL } from './child-end.js';

/** 'absent' = no such process; null = cannot tell on this platform. */
export type StartIdentity = string | 'absent' | null;

/** Field 22 of a /proc/<pid>/stat line. The command name (field 2) may contain spaces and ')'. */
export function startTicksFromStat(stat: string): string | null {
  const end = stat.lastIndexOf(')');
  if (end < 0) return null;
  const fields = stat
    .slice(end + 2)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const v = fields[19];
  return v !== undefined && /^\d+$/.test(v) ? v : null;
}

export function processStartIdentity(pid: number, platform: NodeJS.Platform = process.platform): StartIdentity {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (platform === 'linux') {
    // Through the one safe read path, like every other file omc-top opens (procfs reports size 0: fsx reads on).
    const r = readTextSync('/proc', pid === process.pid ? 'self/stat' : `${pid}/stat`, 4096);
    if (!r.ok) return r.code === 'missing' ? 'absent' : null;
    return startTicksFromStat(r.text);
  }
  if (platform === 'darwin') {
    const r = spawnSync('ps', ['-p', String(pid), '-o', 'lstart='], {
      encoding: 'utf8',
      timeout: 2000,
      killSignal: SYNC_KILL,
      env: { ...process.env, LC_ALL: 'C' },
    });
    if (r.status === 0 && r.stdout.trim()) {
      const t = new Date(r.stdout.trim()).getTime();
      if (Number.isFinite(t)) return String(t);
    }
  }
  try {
    process.kill(pid, 0);
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH' ? 'absent' : null;
  }
}

let own: StartIdentity | undefined;
/** Our own identity, read once (it cannot change while we run). */
export function ownStartIdentity(): StartIdentity {
  if (own === undefined) own = processStartIdentity(process.pid);
  return own;
}

/** Processes held at most (one descriptor each); past it, a check falls back to reading by path. */
export const MAX_HELD_PROCESSES = 512;

/**
 * Liveness without a lookup per check: a small /proc file of a process whose start identity was seen is held
 * open, and a positioned one-byte read of that descriptor says whether that very process still runs (procfs ties
 * the descriptor to the process it was opened for: once it is gone the read fails, even after its pid is reused).
 * A check costs one read system call, nothing allocated. The file is `oom_score_adj`, not `stat`: the kernel
 * formats one number for it, where `stat` costs five times as much. Linux only; elsewhere nothing is held.
 */
export class ProcessHolds {
  private readonly held = new Map<number, { identity: string; file: HeldFile }>();

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  /**
   * Holds `pid` if it runs with `identity` now (a process that ended between the caller's check and the open is
   * not mistaken for it). Returns whether it is held.
   */
  hold(pid: number, identity: string): boolean {
    if (this.platform !== 'linux' || !Number.isSafeInteger(pid) || pid <= 0) return false;
    const had = this.held.get(pid);
    if (had?.identity === identity) return true;
    had?.file.close();
    this.held.delete(pid);
    if (this.held.size >= MAX_HELD_PROCESSES) return false;
    const h = holdFileSync('/proc', `${pid}/oom_score_adj`);
    if (!h.ok) return false;
    // The identity is read after the descriptor was opened, and the descriptor read after that: if the process it
    // was opened for had ended before the identity was read, that last read fails. So a pass means the process
    // held is the one with `identity`.
    if (processStartIdentity(pid, this.platform) !== identity || h.file.readable() !== true) {
      h.file.close();
      return false;
    }
    this.held.set(pid, { identity, file: h.file });
    return true;
  }

  /** true: the process held for `pid` with `identity` still runs; false: it is gone; null: not held (ask by path). */
  stillRunning(pid: number, identity: string): boolean | null {
    const h = this.held.get(pid);
    if (!h || h.identity !== identity) return null;
    const r = h.file.readable();
    if (r === false) this.release(pid);
    return r;
  }

  /** Lets go of every process but these pids. */
  retain(pids: ReadonlySet<number>): void {
    for (const pid of [...this.held.keys()]) if (!pids.has(pid)) this.release(pid);
  }

  release(pid: number): void {
    this.held.get(pid)?.file.close();
    this.held.delete(pid);
  }

  get size(): number {
    return this.held.size;
  }
}
