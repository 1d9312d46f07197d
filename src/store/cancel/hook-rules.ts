/**
 * The Stop hook's rules that decide whether a cancel signal is honoured,
 * restated from OMC 4.15.10 and 5.5.0's Stop hook
 * (scripts/persistent-mode.mjs: isSessionCancelInProgress,
 * isEnforceableAutopilotCancellationTarget). Pure functions of
 * (parsed files, now), so the tracker and the CLI can say *why* a signal is or
 * is not in force, and the tests can pin them against the real hook.
 */
import path from 'node:path';
import {
  AWAITING_CONFIRMATION_TTL_MS,
  CANCEL_SKEW_MS,
  CANCEL_TTL_MS,
  STALE_MS,
  genericCancelVerdict,
} from '../sessions/omc-rules.js';
import { autopilotDigest } from './signal.js';
import { type Obj, obj } from '../../io/json.js';

export const NAMED_WORKFLOW_MARKERS = ['workflow', 'workflowRunId', 'pipelineTracking'] as const;

/** OMC treats these files as runtime-owned: only the exact documented pause may touch them. */
export function hasNamedWorkflowMarkers(state: unknown): boolean {
  const s = obj(state);
  return s !== null && NAMED_WORKFLOW_MARKERS.some((k) => Object.prototype.hasOwnProperty.call(s, k));
}

/** The hook's staleness: newest string timestamp of last_checked_at / updated_at / started_at older than 2 h. */
function hookStale(s: Obj, now: number): boolean {
  let newest = 0;
  for (const k of ['last_checked_at', 'updated_at', 'started_at']) {
    const v = s[k];
    if (typeof v !== 'string' || v === '') continue;
    const t = new Date(v).getTime();
    if (Number.isFinite(t) && t > newest) newest = t;
  }
  return newest === 0 || now - newest > STALE_MS;
}

function hookAwaiting(s: Obj, now: number): boolean {
  if (s.awaiting_confirmation !== true) return false;
  const pick = [s.awaiting_confirmation_set_at, s.started_at].find((v) => typeof v === 'string' && v.trim() !== '');
  if (typeof pick !== 'string') return false;
  const age = now - new Date(pick).getTime();
  return Number.isFinite(age) && age >= 0 && age < AWAITING_CONFIRMATION_TTL_MS;
}

function autopilotPhase(s: Obj): string {
  const raw = s.phase ?? s.current_phase ?? 'unspecified';
  return typeof raw === 'string' && raw.trim() ? raw.trim().toLowerCase() : 'unspecified';
}

const normalize = (p: string) => path.resolve(p).replace(/[\\/]+$/, '');

export interface EnforceableVerdict {
  enforceable: boolean;
  reason: string;
}

/**
 * Would the Stop hook treat this autopilot state as an enforceable
 * cancellation target for `sessionId`? Only then does it demand the
 * authenticated signal form.
 *
 * @param sessionCwd the session's working directory when known
 *   (session-started.json). The hook compares project_path with its own cwd,
 *   which is the session's; unknown → we assume the agent runs in project_path.
 */
export function autopilotEnforceable(
  state: unknown,
  sessionId: string,
  now: number,
  sessionCwd: string | null,
): EnforceableVerdict {
  const s = obj(state);
  if (!s) return { enforceable: false, reason: 'not a JSON object (OMC ignores it)' };
  if (!s.active) return { enforceable: false, reason: 'not active' };
  if (hookAwaiting(s, now)) return { enforceable: false, reason: 'awaiting confirmation (under 2 min)' };
  if (hookStale(s, now) && !hasNamedWorkflowMarkers(s))
    return { enforceable: false, reason: 'stale (no Stop-hook timestamp in the last 2 h)' };
  if (
    typeof s.project_path === 'string' &&
    s.project_path !== '' &&
    sessionCwd !== null &&
    normalize(s.project_path) !== normalize(sessionCwd)
  ) {
    return { enforceable: false, reason: "project_path is not the session's working directory" };
  }
  if (s.session_id !== sessionId) return { enforceable: false, reason: 'its session_id is not this session' };
  if (autopilotPhase(s) === 'complete') return { enforceable: false, reason: 'phase is complete' };
  return { enforceable: true, reason: 'active autopilot of this session: only the digest-bound signal is honoured' };
}

export interface SignalVerdict {
  inForce: boolean;
  reason: string;
}

/**
 * The autopilot branch of the hook: the signal must be fresh, name autopilot,
 * have a source, a proper expires_at, and a digest (and run id) matching the
 * autopilot state *as it is now*.
 */
export function autopilotSignalVerdict(signal: unknown, stateText: string, now: number): SignalVerdict {
  const sig = obj(signal);
  if (!sig || sig.active !== true) return { inForce: false, reason: 'signal is not an object with active:true' };
  const req = typeof sig.requested_at === 'string' ? new Date(sig.requested_at).getTime() : NaN;
  const exp = typeof sig.expires_at === 'string' ? new Date(sig.expires_at).getTime() : NaN;
  if (!Number.isFinite(req)) return { inForce: false, reason: 'requested_at missing or unparseable' };
  if (req > now + CANCEL_SKEW_MS) return { inForce: false, reason: 'requested_at is more than 5 s in the future' };
  if (now - req > CANCEL_TTL_MS) return { inForce: false, reason: 'expired (requested over 30 s ago)' };
  if (sig.mode !== 'autopilot' || typeof sig.source !== 'string' || sig.source === '') {
    return {
      inForce: false,
      reason:
        'the session has an active autopilot: only a mode "autopilot" signal bound to its state digest is honoured',
    };
  }
  if (!Number.isFinite(exp) || exp <= req || exp - req > CANCEL_TTL_MS)
    return { inForce: false, reason: 'expires_at is not within 30 s after requested_at' };
  if (exp <= now) return { inForce: false, reason: 'expired' };
  let state: Obj | null;
  let digest: string;
  try {
    state = obj(JSON.parse(stateText));
    digest = autopilotDigest(stateText);
  } catch {
    return { inForce: false, reason: 'the autopilot state is not valid JSON' };
  }
  if (typeof sig.target_state_sha256 !== 'string' || !/^[a-f0-9]{64}$/.test(sig.target_state_sha256)) {
    return { inForce: false, reason: 'no target_state_sha256' };
  }
  if (sig.target_state_sha256 !== digest) {
    return {
      inForce: false,
      reason: 'the autopilot state changed after the signal was written, so its digest no longer matches',
    };
  }
  const runId = state?.workflowRunId;
  if (runId && sig.target_workflow_run_id !== runId)
    return { inForce: false, reason: 'target_workflow_run_id does not match the run' };
  if (!runId && sig.target_workflow_run_id)
    return { inForce: false, reason: 'target_workflow_run_id set but the state has no workflow run' };
  return { inForce: true, reason: 'in force: digest matches the current autopilot state' };
}

/**
 * What the hook concludes for one signal file, given the session's autopilot
 * state (text, or null when there is none or it is not enforceable).
 */
export function signalVerdict(signal: unknown, enforceableAutopilotText: string | null, now: number): SignalVerdict {
  if (enforceableAutopilotText !== null) return autopilotSignalVerdict(signal, enforceableAutopilotText, now);
  const v = genericCancelVerdict(signal, now);
  return { inForce: v.inForce, reason: v.reason };
}

export interface LockOwnerCheck {
  ok: boolean;
  reason: string;
}

/**
 * A `<file>.mutation.lock` that OMC cannot parse makes every locked OMC
 * operation on that file fail; on the signal's lock it means the hook never
 * honours the signal (5.5 addendum, case h). Well-formed = exactly OMC's owner
 * fields.
 */
export function checkLockOwnerText(text: string): LockOwnerCheck {
  let v: Obj | null;
  try {
    v = obj(JSON.parse(text));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (
    !v ||
    v.version !== 1 ||
    !Number.isSafeInteger(v.pid) ||
    (v.pid as number) <= 0 ||
    typeof v.processStart !== 'string' ||
    !/^\S+$/.test(v.processStart) ||
    typeof v.createdAt !== 'string' ||
    !Number.isFinite(Date.parse(v.createdAt)) ||
    typeof v.nonce !== 'string' ||
    !/^[0-9a-f-]{36}$/i.test(v.nonce)
  ) {
    return { ok: false, reason: 'not an OMC lock owner record' };
  }
  return { ok: true, reason: 'well-formed' };
}
