/**
 * A process's start identity, in the exact form OMC's state locks record and
 * compare (5.5 addendum §9.3): on Linux field 22 of /proc/<pid>/stat (start
 * time in clock ticks) as a decimal string; on macOS the epoch-ms start time
 * from `ps -o lstart=`. OMC treats a lock whose recorded identity differs from
 * the live process's as dead and reclaims it, so ours must be exact.
 */
import { readTextSync } from './safe-fs/index.js';
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
