/**
 * Stop escalation: when a verified cancel has not taken twice, offer to
 * interrupt the Claude process itself with SIGINT (measured with 2.1.332: a
 * busy interactive CLI exits cleanly within half a second and removes its
 * registry entry). Only after checking it is still the same process (pid + procStart)
 * and that it works in this project (its cwd), so a reused pid or another
 * project's CLI is never signalled. Verification afterwards is the caller's:
 * re-read the disk and the registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runningStartIdentity, type StartIdentity } from '../../io/process-start.js';
import type { ProcessView } from './model.js';

/** Cancels that must have failed before the offer appears. */
export const CANCEL_ATTEMPTS_BEFORE_INTERRUPT = 2;

export function shouldOfferInterrupt(failedCancels: number, p: ProcessView | null): boolean {
  return (
    failedCancels >= CANCEL_ATTEMPTS_BEFORE_INTERRUPT &&
    p !== null &&
    (p.status === 'busy' || p.status === 'idle' || p.status === 'waiting')
  );
}

export type InterruptPlan = { ok: true; pid: number; procStart: string } | { ok: false; reason: string };

export interface InterruptDeps {
  startIdentity?: (pid: number) => StartIdentity;
  cwdOf?: (pid: number) => string | null;
}

const procCwd = (pid: number): string | null => {
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
};

export function planInterrupt(p: ProcessView, projectDir: string, deps: InterruptDeps = {}): InterruptPlan {
  if (p.procStart === null)
    return { ok: false, reason: 'the registry records no procStart: cannot verify the process' };
  const live = (deps.startIdentity ?? runningStartIdentity)(p.pid);
  if (live === 'absent') return { ok: false, reason: `pid ${p.pid} is not running` };
  if (live === null) return { ok: false, reason: `cannot verify pid ${p.pid} on this system` };
  if (live !== p.procStart) return { ok: false, reason: `pid ${p.pid} is now another process; not signalled` };
  const cwd = (deps.cwdOf ?? procCwd)(p.pid);
  if (cwd === null) return { ok: false, reason: `cannot read the working directory of pid ${p.pid}` };
  const proj = path.resolve(projectDir);
  if (cwd !== proj && !cwd.startsWith(proj + path.sep))
    return { ok: false, reason: `pid ${p.pid} works in ${cwd}, not in this project; not signalled` };
  return { ok: true, pid: p.pid, procStart: p.procStart };
}

/** Sends SIGINT once, re-checking the identity right before (the window for pid reuse stays tiny). */
export function sendInterrupt(plan: InterruptPlan, deps: InterruptDeps = {}): string | null {
  if (!plan.ok) return plan.reason;
  if ((deps.startIdentity ?? runningStartIdentity)(plan.pid) !== plan.procStart)
    return `pid ${plan.pid} changed; not signalled`;
  try {
    process.kill(plan.pid, 'SIGINT');
    return null;
  } catch (e) {
    return `could not signal pid ${plan.pid}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
}
