/**
 * Gives the process's helper threads the lowest CPU priority (nice 19), so the
 * main thread, which draws the screen and reads `.omc`, is the one that runs
 * when the cores are short. The entry calls it once, before the app bundle
 * loads, for every run of the monitor (not for `status --tmux` or `--version`).
 *
 * Why: Node starts four V8 helper threads (the optimising compiler, the
 * garbage collector's parallel and background work) and, by the time the bin
 * runs, libuv's four pool threads (omc-top uses them only for its own
 * background writes). On a 2-core machine the compiler's helpers ran 400–500 ms
 * beside the main thread during a start at 2,000 sessions + 5,000 pages, and
 * the main thread waited ~110 ms of it for a core (`/proc/<pid>/task/<tid>/schedstat`):
 * time to live p50 779 → 711 ms, and with two busy processes on both cores
 * 1,145 → 969 ms (BENCHMARKS.md). The helpers still run whenever a core is
 * free, so the work they do is not lost, only queued behind the main thread's
 * and the user's own programs.
 *
 * `--v8-pool-size=1` (one helper, no contention) did as well when the machine
 * was quiet but not under load, and Node reads it only at process start.
 *
 * Linux only: the threads are listed from /proc/self/task; each is reniced by
 * its thread id, which setpriority(2) takes on Linux. Elsewhere, or if a thread
 * cannot be reniced (gone, or a seccomp profile), nothing changes.
 */
import os from 'node:os';
import { listDirSync } from '../io/safe-fs/list.js';

/** The lowest priority: a helper runs when a core would otherwise idle. */
export const HELPER_NICE = 19;

/** Thread ids of this process other than the main thread (whose id is the pid). */
export function helperThreadIds(pid = process.pid, tasks = listDirSync('/proc/self', 'task')): number[] {
  if (!tasks.ok) return [];
  const ids: number[] = [];
  for (const e of tasks.entries) {
    const tid = Number(e.name);
    if (Number.isSafeInteger(tid) && tid > 0 && tid !== pid) ids.push(tid);
  }
  return ids;
}

/** Renices every helper thread to HELPER_NICE; returns how many were. */
export function lowerHelperThreads(setPriority: (tid: number, nice: number) => void = os.setPriority): number {
  if (process.platform !== 'linux') return 0;
  let lowered = 0;
  for (const tid of helperThreadIds()) {
    try {
      setPriority(tid, HELPER_NICE);
      lowered += 1;
    } catch {
      /* a thread that ended meanwhile, or a sandbox that forbids it: that thread keeps its priority */
    }
  }
  return lowered;
}
