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

/** The fields after the command name (field 2, which may contain spaces and ')'): [0] is field 3, the state. */
export function fieldsAfterName(stat: string): string[] | null {
  const end = stat.lastIndexOf(')');
  if (end < 0) return null;
  return stat
    .slice(end + 2)
    .trim()
    .split(/\s+/);
}

/** Field 22 of a /proc/<pid>/stat line. The command name (field 2) may contain spaces and ')'. */
export function startTicksFromStat(stat: string): string | null {
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const v = fieldsAfterName(stat)?.[19];
  return v !== undefined && /^\d+$/.test(v) ? v : null;
}

/**
 * Whether a /proc/<pid>/stat line is of a process that has ended and waits only for its parent to collect its
 * exit status (Z, a zombie; X, dead). Such a process runs nothing: a SIGKILLed CLI stays one for as long as its
 * parent does not reap it (tmux was seen to miss the SIGCHLD and keep one for minutes).
 */
export function endedFromStat(stat: string): boolean {
  const state = fieldsAfterName(stat)?.[0];
  return state === 'Z' || state === 'X' || state === 'x';
}

/**
 * Whether a process is stopped (T: by a signal, Ctrl-Z, `kill -STOP`; t: by a debugger). It runs nothing until
 * continued: a monitor in that state keeps no cache fresh. Linux only; false where it cannot be told.
 */
export function processStopped(pid: number, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' || !Number.isSafeInteger(pid) || pid <= 0) return false;
  const r = readTextSync('/proc', `${pid}/stat`, 4096);
  const state = r.ok ? fieldsAfterName(r.text)?.[0] : undefined;
  return state === 'T' || state === 't';
}

/**
 * The start identity in OMC's exact form: a zombie keeps its identity, as OMC's own check sees it (its state
 * locks compare this). To ask whether a process still runs, use runningStartIdentity.
 */
export function processStartIdentity(pid: number, platform: NodeJS.Platform = process.platform): StartIdentity {
  return identityOf(pid, platform, false);
}

/** The start identity of a process that still runs: 'absent' for one that has ended, reaped or not (Linux). */
export function runningStartIdentity(pid: number, platform: NodeJS.Platform = process.platform): StartIdentity {
  return identityOf(pid, platform, true);
}

function identityOf(pid: number, platform: NodeJS.Platform, running: boolean): StartIdentity {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (platform === 'linux') {
    // Through the one safe read path, like every other file omc-top opens (procfs reports size 0: fsx reads on).
    const r = readTextSync('/proc', pid === process.pid ? 'self/stat' : `${pid}/stat`, 4096);
    if (!r.ok) return r.code === 'missing' ? 'absent' : null;
    if (running && endedFromStat(r.text)) return 'absent';
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

/** Clock ticks per second in /proc/<pid>/stat: USER_HZ, 100 on every Linux. */
const USER_HZ = 100;
let bootMs: number | null | undefined;
function bootTimeMs(): number | null {
  if (bootMs !== undefined) return bootMs;
  const r = readTextSync('/proc', 'stat', 1 << 20);
  const m = r.ok ? /^btime (\d+)$/m.exec(r.text) : null;
  bootMs = m ? Number(m[1]) * 1000 : null;
  return bootMs;
}

/** When a pid's current process started (epoch ms, on the wall clock as it reads now), or null when not known. */
export function processStartedAtMs(pid: number, platform: NodeJS.Platform = process.platform): number | null {
  if (platform !== 'linux' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  const boot = bootTimeMs();
  if (boot === null) return null;
  const r = readTextSync('/proc', `${pid}/stat`, 4096);
  const ticks = r.ok ? startTicksFromStat(r.text) : null;
  return ticks === null ? null : boot + (Number(ticks) / USER_HZ) * 1000;
}

/** Slack for comparing a start time (boot time has 1 s resolution) with a time a process wrote down. */
export const START_SLACK_MS = 2_000;

/**
 * Whether the process now under `pid` started after `writtenAtMs`, the time its supposed owner wrote a record (a
 * lock, a heartbeat): then it cannot have written it, the pid was handed to another process since. null when that
 * cannot be told (not Linux, no such process, /proc not readable).
 */
export function startedAfter(
  pid: number,
  writtenAtMs: number,
  platform: NodeJS.Platform = process.platform,
): boolean | null {
  const started = processStartedAtMs(pid, platform);
  return started === null ? null : started > writtenAtMs + START_SLACK_MS;
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
 * the descriptor to the process it was opened for: once it is reaped the read fails, even after its pid is
 * reused). A check costs one read system call, nothing allocated. The file is `statm`, not `stat`: the kernel
 * formats seven counters for it, where `stat` costs two and a half times as much (bench: 2.4 against 6.2 µs), and
 * its first field, the size of the address space, is 0 once the process has ended but is not yet reaped (a
 * zombie), which `oom_score_adj` (1.4 µs) does not tell. Linux only; elsewhere nothing is held.
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
    const h = holdFileSync('/proc', `${pid}/statm`);
    if (!h.ok) return false;
    // The identity is read after the descriptor was opened, and the descriptor read after that: if the process it
    // was opened for had ended before the identity was read, that last read fails. So a pass means the process
    // held is the one with `identity`.
    if (runningStartIdentity(pid, this.platform) !== identity || runs(h.file) !== true) {
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
    const r = runs(h.file);
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

/** A held `statm`: its first byte is the address space's size, a digit other than 0 while the process runs. */
function runs(file: HeldFile): boolean | null {
  const b = file.firstByte();
  if (b === 'gone') return false;
  if (b === null || b < 0x30 || b > 0x39) return null;
  return b !== 0x30;
}
