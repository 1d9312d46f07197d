/**
 * The cancel signal omc-top writes: `cancel-signal-state.json`, in the exact
 * shapes OMC's Stop hook honours (OMC 4.15.10's src/tools/state-tools.ts writes
 * them, scripts/persistent-mode.mjs reads them; unchanged in 5.5.0). Two forms:
 *
 * - generic: `{active, requested_at, expires_at, mode, source}`. Lets the agent
 *   stop for 30 s in any session without an enforceable autopilot. It must
 *   never carry `mode:"autopilot"` or a `target_*` key: either makes the hook
 *   reject it outright.
 * - autopilot: `mode:"autopilot"`, a non-empty `source` and
 *   `target_state_sha256` = SHA-256 of the autopilot state *as OMC re-serialises
 *   it* (`JSON.stringify(JSON.parse(fileText))`, not the file bytes), plus
 *   `target_workflow_run_id` exactly when the state has a `workflowRunId`. The
 *   only form honoured while the session's autopilot is enforceable.
 *
 * Written pretty (2-space, no trailing newline) like OMC's own locked writer.
 */
import { createHash } from 'node:crypto';
import { CANCEL_TTL_MS, SIGNAL_FILE } from '../sessions/omc-rules.js';

/** What `source` says: OMC only checks that it is a non-empty string. */
export const SIGNAL_SOURCE = 'omc-top';
/** OMC's CANCEL_SIGNAL_TTL_MS; expires_at is always requested_at + exactly this. */
export const SIGNAL_TTL_MS = CANCEL_TTL_MS;

export interface GenericSignal {
  active: true;
  requested_at: string;
  expires_at: string;
  mode: string;
  source: string;
}

export interface AutopilotSignal {
  active: true;
  requested_at: string;
  expires_at: string;
  mode: 'autopilot';
  source: string;
  target_state_sha256: string;
  target_workflow_run_id?: string;
}

export type CancelSignal = GenericSignal | AutopilotSignal;

/** Where the signal goes: the session's own directory, or `state/` for session-less state. */
export function signalRel(sessionId: string | null): string {
  return sessionId === null ? `state/${SIGNAL_FILE}` : `state/sessions/${sessionId}/${SIGNAL_FILE}`;
}

function window(now: number): { requested_at: string; expires_at: string } {
  return { requested_at: new Date(now).toISOString(), expires_at: new Date(now + SIGNAL_TTL_MS).toISOString() };
}

/**
 * @param mode the mode being cancelled, for humans reading the file. "autopilot"
 *   is refused: the hook rejects a generic signal that names it.
 */
export function genericSignal(mode: string, now: number): GenericSignal {
  if (mode === 'autopilot') throw new Error('a generic cancel signal must not name mode "autopilot" (OMC rejects it)');
  return { active: true, ...window(now), mode, source: SIGNAL_SOURCE };
}

/** SHA-256 (hex) of the autopilot state the way OMC's Stop hook hashes it. Throws on invalid JSON. */
export function autopilotDigest(stateText: string): string {
  let canonical: string;
  try {
    canonical = JSON.stringify(JSON.parse(stateText));
  } catch (e) {
    // A state nested thousands deep overflows the stack of JSON.parse/stringify, here and in OMC's hook alike.
    if (e instanceof RangeError)
      throw new Error(
        "the autopilot state is nested too deeply to hash (JSON runs out of stack); OMC's Stop hook could not hash it either, so no cancel signal can be bound to it",
        { cause: e },
      );
    throw e;
  }
  return createHash('sha256').update(canonical).digest('hex');
}

/** The run id OMC binds a signal to, when the state is a named workflow run. */
export function workflowRunIdOf(state: unknown): string | null {
  if (!state || typeof state !== 'object' || Array.isArray(state)) return null;
  const id = (state as Record<string, unknown>).workflowRunId;
  // The hook compares with the state's value whenever it is truthy.
  return typeof id === 'string' && id !== '' ? id : null;
}

/** The authenticated form, bound to the autopilot state text read just before. */
export function autopilotSignal(stateText: string, now: number): AutopilotSignal {
  const digest = autopilotDigest(stateText); // first: it says in words why a state cannot be hashed
  const runId = workflowRunIdOf(JSON.parse(stateText));
  const sig: AutopilotSignal = {
    active: true,
    ...window(now),
    mode: 'autopilot',
    source: SIGNAL_SOURCE,
    target_state_sha256: digest,
  };
  if (runId !== null) sig.target_workflow_run_id = runId;
  return sig;
}

/** Bytes on disk: OMC's atomicWriteJsonSync format. */
export function serializeSignal(sig: CancelSignal): string {
  return JSON.stringify(sig, null, 2);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
