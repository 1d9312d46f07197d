/**
 * Ending a child process for good. SIGTERM asks; a child that ignores it (an ssh stuck in a handshake, a
 * wrapper script that traps TERM) would outlive omc-top, so SIGKILL follows after a bound. The promise
 * resolves once the child has exited, so a caller that awaits it (the full-screen exit) leaves nothing
 * running behind it. A child still alive when the process exits without waiting is killed there.
 *
 * Synchronous children (git, tmux, ps through spawnSync) get `SYNC_KILL`: spawnSync sends its kill
 * signal at the timeout and then waits for the exit, so a TERM that is ignored would hang omc-top.
 */
import type { ChildProcess } from 'node:child_process';

/** How long a child has to exit after SIGTERM before SIGKILL. */
export const CHILD_GRACE_MS = 1_000;

/** For spawnSync/execFileSync with a timeout: the signal that cannot be ignored. */
export const SYNC_KILL = 'SIGKILL' as const;

const live = new Set<ChildProcess>();
let exitHook = false;

const running = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null;

/** Remembers `child` until it exits, so that a process exit that did not wait for it still ends it. */
export function trackChild<C extends ChildProcess>(child: C): C {
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const c of live) if (running(c)) c.kill('SIGKILL');
    });
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  return child;
}

/** SIGTERM now, SIGKILL after `graceMs` if it is still there; resolves when it has exited. */
export function endChild(child: ChildProcess, graceMs = CHILD_GRACE_MS): Promise<void> {
  if (!running(child) || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => {
      if (running(child)) child.kill('SIGKILL');
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
