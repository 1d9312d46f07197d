/**
 * Whether a stop (Ctrl-Z) can be undone by the user: a shell with job control above this process that `fg`
 * brings it back from. Started straight by tmux (`tmux split-window omc-top`), by `bash -c` or by a service, the
 * process group is orphaned: no member has a parent in another group of the same session. The kernel does not
 * stop such a group for a terminal's SIGTSTP for that reason (nobody would continue it); omc-top turns the
 * Ctrl-Z byte into a stop itself, so it has to ask the same question. Linux reads /proc; elsewhere the answer is
 * "yes" (stopping as before).
 */
import { fieldsAfterName } from './process-start.js';
import { readTextSync } from './safe-fs/index.js';

interface StatIds {
  ppid: number;
  pgrp: number;
  session: number;
  /** Field 8: the process group the controlling terminal has in the foreground (-1 with no terminal). */
  tpgid?: number;
}

/** Fields 4–6 of a /proc/<pid>/stat line, or null. */
export function idsFromStat(stat: string): StatIds | null {
  const f = fieldsAfterName(stat);
  if (!f) return null;
  const [ppid, pgrp, session] = [f[1], f[2], f[3]].map(Number);
  if (![ppid, pgrp, session].every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) return null;
  const tpgid = Number(f[5]);
  return {
    ppid: ppid as number,
    pgrp: pgrp as number,
    session: session as number,
    ...(Number.isSafeInteger(tpgid) ? { tpgid } : {}),
  };
}

const procStat = (pid: number | 'self'): StatIds | null => {
  const r = readTextSync('/proc', `${pid}/stat`, 4096);
  return r.ok ? idsFromStat(r.text) : null;
};

/**
 * Walks up this process's ancestors while they are in its process group: the first one outside it decides. In the
 * same session, it is the job-control shell that put the group in the foreground (an interactive shell; npx's own
 * processes sit in the group with us). In another session, or none left, nobody can continue the group.
 */
export function shellCanResume(
  platform: NodeJS.Platform = process.platform,
  stat: (pid: number | 'self') => StatIds | null = procStat,
): boolean {
  if (platform !== 'linux') return true;
  const own = stat('self');
  if (!own) return true;
  let pid = own.ppid;
  for (let hops = 0; hops < 64 && pid > 0; hops++) {
    const p = stat(pid);
    if (!p || p.session !== own.session) return false;
    if (p.pgrp !== own.pgrp) return true;
    pid = p.ppid;
  }
  return false;
}

/**
 * Whether this process's group is the terminal's foreground group (what `tcgetpgrp` tells a C program). After `bg`
 * the job runs but the terminal is the shell's: setting a mode there stops us again (SIGTTOU) and the bytes land in
 * the shell's screen. Linux reads /proc; elsewhere, or when it cannot be told, the answer is "yes" (as before).
 */
export function inForeground(
  platform: NodeJS.Platform = process.platform,
  stat: (pid: number | 'self') => StatIds | null = procStat,
): boolean {
  if (platform !== 'linux') return true;
  const own = stat('self');
  if (!own || own.tpgid === undefined || own.tpgid <= 0) return true;
  return own.tpgid === own.pgrp;
}
