/**
 * Stop escalation: when a verified cancel has not taken twice, offer to
 * interrupt the Claude process itself with SIGINT (measured with 2.1.332: a
 * busy interactive CLI exits cleanly within half a second and removes its
 * registry entry). A pid read from a file is signalled only once it is proven to
 * be the Claude Code CLI of that session: the same process the registry recorded
 * (pid + procStart), running as the user, running Claude Code (its executable or
 * its command line: claude-exe.ts), working in this project (its cwd), and named
 * by a registry file only the user could have written (registry-trust.ts).
 * Verification afterwards is the caller's: re-read the disk and the registry.
 */
import path from 'node:path';
import { runningStartIdentity, type StartIdentity } from '../../io/process-start.js';
import { dirOwnershipSync, readLinkSync } from '../../io/safe-fs/index.js';
import { claudeExeOf, type ClaudeExe } from './claude-exe.js';
import type { ProcessView } from './model.js';
import { checkRegistryFile, type RegistryTrust } from './registry-trust.js';
import { shownPath } from '../../io/shown-path.js';

/** Cancels that must have failed before the offer appears. */
export const CANCEL_ATTEMPTS_BEFORE_INTERRUPT = 2;

export function shouldOfferInterrupt(failedCancels: number, p: ProcessView | null): boolean {
  return (
    failedCancels >= CANCEL_ATTEMPTS_BEFORE_INTERRUPT &&
    p !== null &&
    (p.status === 'busy' || p.status === 'idle' || p.status === 'waiting')
  );
}

export type InterruptPlan =
  | {
      ok: true;
      pid: number;
      procStart: string;
      /** What was checked, in words for the dialog. */
      checked: string;
      /** For the checks repeated right before the signal. */
      exe: string;
    }
  | { ok: false; reason: string };

/** Where the process must work and where its registry file is. */
export interface InterruptWhere {
  projectDir: string;
  configDir: string;
}

export interface InterruptDeps {
  startIdentity?: (pid: number) => StartIdentity;
  cwdOf?: (pid: number) => string | null;
  exeOf?: (pid: number) => ClaudeExe;
  /** The owner of the process (the uid of /proc/<pid>), null when it cannot be read. */
  ownerOf?: (pid: number) => number | null;
  registry?: (configDir: string, p: ProcessView & { procStart: string }) => RegistryTrust;
  uid?: number;
}

const procCwd = (pid: number): string | null => {
  const r = readLinkSync('/proc', `${pid}/cwd`);
  return r.ok && !r.invalidUtf8 ? r.target : null;
};
const procOwner = (pid: number): number | null => {
  const r = dirOwnershipSync('/proc', String(pid));
  return r.ok ? r.uid : null;
};

export function planInterrupt(p: ProcessView, where: InterruptWhere, deps: InterruptDeps = {}): InterruptPlan {
  if (p.procStart === null)
    return { ok: false, reason: 'the registry records no procStart: cannot verify the process' };
  const live = (deps.startIdentity ?? runningStartIdentity)(p.pid);
  if (live === 'absent') return { ok: false, reason: `pid ${p.pid} is not running` };
  if (live === null) return { ok: false, reason: `cannot verify pid ${p.pid} on this system` };
  if (live !== p.procStart) return { ok: false, reason: `pid ${p.pid} is now another process; not signalled` };
  const uid = deps.uid ?? process.getuid?.();
  const owner = (deps.ownerOf ?? procOwner)(p.pid);
  if (uid === undefined || owner === null) return { ok: false, reason: `cannot tell who runs pid ${p.pid}` };
  if (owner !== uid) return { ok: false, reason: `pid ${p.pid} runs as uid ${owner}, not as you; not signalled` };
  const exe = (deps.exeOf ?? claudeExeOf)(p.pid);
  if (!exe.ok) return { ok: false, reason: `${exe.reason}; not signalled` };
  const cwd = (deps.cwdOf ?? procCwd)(p.pid);
  if (cwd === null) return { ok: false, reason: `cannot read the working directory of pid ${p.pid}` };
  const proj = path.resolve(where.projectDir);
  if (cwd !== proj && !cwd.startsWith(proj + path.sep))
    return { ok: false, reason: `pid ${p.pid} works in ${shownPath(cwd)}, not in this project; not signalled` };
  const reg = (deps.registry ?? ((dir, q) => checkRegistryFile(dir, q.registryRel, q, uid)))(where.configDir, {
    ...p,
    procStart: p.procStart,
  });
  if (!reg.ok) return { ok: false, reason: `${reg.reason}; not signalled` };
  return {
    ok: true,
    pid: p.pid,
    procStart: p.procStart,
    exe: exe.exe,
    checked: `pid ${p.pid}, started ${p.procStart} (the registry's procStart), runs as you, ${exe.how}, works in ${shownPath(cwd)}, ${reg.how}`,
  };
}

/**
 * Sends SIGINT once, re-checking right before that it is the same process still running the same program (a
 * process can exec another program and keep its pid and start time): the window for a change stays tiny.
 */
export function sendInterrupt(plan: InterruptPlan, deps: InterruptDeps = {}): string | null {
  if (!plan.ok) return plan.reason;
  if ((deps.startIdentity ?? runningStartIdentity)(plan.pid) !== plan.procStart)
    return `pid ${plan.pid} changed; not signalled`;
  const exe = (deps.exeOf ?? claudeExeOf)(plan.pid);
  if (!exe.ok || exe.exe !== plan.exe) return `pid ${plan.pid} now runs another program; not signalled`;
  try {
    process.kill(plan.pid, 'SIGINT');
    return null;
  } catch (e) {
    return `could not signal pid ${plan.pid}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
}
