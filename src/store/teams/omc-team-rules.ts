/**
 * OMC's team-mode rules, restated (OMC 5.5.0: dist/team/state-paths.js, monitor.js, heartbeat.js).
 * Pure functions, no I/O: the domain reads files, these decide what they mean
 * the same way OMC's own status readers do, so counts and phases agree.
 */
import { timeMs } from '../sessions/omc-rules.js';
import { isObj, num, str } from '../../io/json.js';
import {
  TASK_STATUSES,
  type BoardStatus,
  type PhaseStep,
  type TaskCounts,
  type TaskStatus,
  type TeamPhase,
  type WorkerView,
} from './model.js';

/** Union of the CLI rule (2–50 chars) and the API rule (1–30): what a team dir can be called. */
export const TEAM_NAME_RE = /^[a-z0-9][a-z0-9-]{0,49}$/;
/** contracts.ts WORKER_NAME_SAFE_PATTERN. */
export const WORKER_NAME_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** tasks/task-<id>.json (canonical) or tasks/<id>.json (legacy); ids are 1–20 digits. */
export const TASK_FILE_RE = /^(task-)?(\d{1,20})\.json$/;
const TASK_ID_RE = /^\d{1,20}$/;

/**
 * The worker hook's heartbeat freshness window (team-worker-hook: 180 s,
 * OMC_TEAM_HEARTBEAT_STALE_MS within 5 s…1 h). It is the threshold OMC itself
 * uses to decide that a worker's heartbeat is no longer fresh.
 */
export const HEARTBEAT_STALE_MS = 180_000;
/** Legacy MCP bridge: alive iff lastPollAt is younger than 30 s (team-status getTeamStatus default). */
export const BRIDGE_HEARTBEAT_MAX_AGE_MS = 30_000;

export function resolveHeartbeatStaleMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.OMC_TEAM_HEARTBEAT_STALE_MS;
  const n = raw === undefined ? null : num(raw.trim());
  return n !== null && n >= 5_000 && n <= 3_600_000 ? n : HEARTBEAT_STALE_MS;
}

export interface ParsedTask {
  id: string;
  subject: string;
  /** What the worker was asked to do (OMC's task body; required by its schema). */
  description: string;
  status: TaskStatus;
  owner: string | null;
  blockedBy: string[];
  leasedUntilMs: number | null;
  result: string | null;
  error: string | null;
  permanentlyFailed: boolean;
  retryCount: number | null;
  maxRetries: number | null;
}

/**
 * Checks a task file the way OMC's list-tasks does (team-ops isTeamTask +
 * the id-matches-filename rule). Returns the task, or the first reason OMC
 * would reject it — OMC then refuses to list *any* task of the team.
 */
export function parseTask(value: unknown, fileId: string): { task: ParsedTask } | { error: string } {
  if (!isObj(value))
    return {
      error: `expected a JSON object, found ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    };
  const v = value;
  if (typeof v.id !== 'string' || !TASK_ID_RE.test(v.id)) return { error: '"id" must be a numeric string' };
  if (v.id !== fileId) return { error: `"id" is ${JSON.stringify(v.id)} but the file name says ${fileId}` };
  if (typeof v.status !== 'string' || !(TASK_STATUSES as readonly string[]).includes(v.status)) {
    return { error: `"status" ${JSON.stringify(v.status)} is not one of ${TASK_STATUSES.join('|')}` };
  }
  if (typeof v.subject !== 'string') return { error: '"subject" must be a string' };
  if (typeof v.description !== 'string') return { error: '"description" must be a string' };
  if (typeof v.created_at !== 'string' || !Number.isFinite(Date.parse(v.created_at)))
    return { error: '"created_at" must be an ISO timestamp' };
  if (v.owner !== undefined && v.owner !== null && (typeof v.owner !== 'string' || v.owner.trim() === ''))
    return { error: '"owner" must be a non-empty string' };
  const deps = dependencyIds(v);
  if (deps === null) return { error: '"depends_on" / "blocked_by" must be equal arrays of other task ids' };
  if (
    v.completed_at !== undefined &&
    (typeof v.completed_at !== 'string' || !Number.isFinite(Date.parse(v.completed_at)))
  ) {
    return { error: '"completed_at" must be an ISO timestamp' };
  }
  if (v.result !== undefined && v.result !== null && typeof v.result !== 'string')
    return { error: '"result" must be a string' };
  if (v.error !== undefined && v.error !== null && typeof v.error !== 'string')
    return { error: '"error" must be a string' };
  if (v.metadata !== undefined && !isObj(v.metadata)) return { error: '"metadata" must be an object' };
  const meta = isObj(v.metadata) ? v.metadata : {};
  const claim = isObj(v.claim) ? v.claim : null;
  return {
    task: {
      id: v.id,
      subject: v.subject,
      description: v.description,
      status: v.status as TaskStatus,
      owner: typeof v.owner === 'string' ? v.owner : null,
      blockedBy: deps,
      leasedUntilMs: claim ? timeMs(claim.leased_until) : null,
      result: str(v.result),
      error: str(v.error),
      permanentlyFailed: meta.permanentlyFailed === true,
      retryCount: num(meta.retryCount),
      maxRetries: num(meta.maxRetries),
    },
  };
}

/** `depends_on` and `blocked_by` must agree when both exist; ids are distinct positive integers ≠ own id. */
function dependencyIds(v: Record<string, unknown>): string[] | null {
  const d = v.depends_on;
  const b = v.blocked_by;
  if (d !== undefined && !Array.isArray(d)) return null;
  if (b !== undefined && !Array.isArray(b)) return null;
  if (Array.isArray(d) && Array.isArray(b) && (d.length !== b.length || d.some((x, i) => x !== b[i]))) return null;
  const list = (Array.isArray(d) ? d : Array.isArray(b) ? b : []) as unknown[];
  const seen = new Set<string>();
  for (const x of list) {
    if (typeof x !== 'string' || !TASK_ID_RE.test(x)) return null;
    const n = Number(x);
    if (!Number.isSafeInteger(n) || n < 1 || String(n) !== x || x === v.id || seen.has(x)) return null;
    seen.add(x);
  }
  return [...seen];
}

export function countTasks(tasks: readonly { status: TaskStatus }[]): TaskCounts {
  const c: TaskCounts = { total: tasks.length, pending: 0, blocked: 0, in_progress: 0, completed: 0, failed: 0 };
  for (const t of tasks) c[t.status] += 1;
  return c;
}

/**
 * OMC's phase inference from the task mix. `omc team status` (monitorTeamV2)
 * passes tasks without metadata, so pass `withMetadata: false` to match it.
 */
export function inferTeamPhase(tasks: readonly ParsedTask[], withMetadata = false): TeamPhase {
  if (tasks.length === 0) return 'initializing';
  let inProgress = 0;
  let pending = 0;
  let completed = 0;
  const failed: ParsedTask[] = [];
  for (const t of tasks) {
    const permFailed = withMetadata && t.status === 'completed' && t.permanentlyFailed;
    if (t.status === 'in_progress') inProgress++;
    else if (t.status === 'pending') pending++;
    else if (t.status === 'completed' && !permFailed) completed++;
    if (t.status === 'failed' || permFailed) failed.push(t);
  }
  if (inProgress > 0) return 'executing';
  if (pending === tasks.length) return 'planning';
  if (pending > 0 && completed > 0 && failed.length === 0) return 'executing';
  if (failed.length > 0) {
    const retriesLeft = failed.some((t) => (withMetadata ? (t.retryCount ?? 0) < (t.maxRetries ?? 3) : true));
    const nothingElse = pending === 0 && completed === 0;
    if ((failed.length === tasks.length && !retriesLeft) || (nothingElse && !retriesLeft)) return 'failed';
    if (retriesLeft) return 'fixing';
  }
  if (completed === tasks.length && failed.length === 0) return 'completed';
  return 'executing';
}

/** Mission-board worker status: blocked beats running beats done; otherwise waiting. */
export function boardWorkerStatus(state: string | null, task: { status: TaskStatus } | null): BoardStatus {
  if (state === 'blocked' || state === 'failed' || task?.status === 'blocked' || task?.status === 'failed')
    return 'blocked';
  if (state === 'working' || task?.status === 'in_progress') return 'running';
  if (state === 'done' || task?.status === 'completed') return 'done';
  return 'waiting';
}

/** Mission-board team status, from the counts and the worker statuses. */
export function boardTeamStatus(c: TaskCounts, workers: readonly BoardStatus[]): BoardStatus {
  if (c.in_progress > 0 || workers.includes('running')) return 'running';
  if (c.blocked > 0 || c.failed > 0 || workers.includes('blocked')) return 'blocked';
  if (c.total > 0 && c.completed === c.total) return 'done';
  return 'waiting';
}

/**
 * The mission board's "current task" of a worker: status.json's
 * current_task_id, else its in-progress task, else its blocked task, else the
 * first assigned task that exists.
 */
export function currentTaskOf<T extends { id: string; status: TaskStatus; owner: string | null }>(
  worker: string,
  statusTaskId: string | null,
  assigned: readonly string[],
  byId: ReadonlyMap<string, T>,
  tasks: readonly T[],
): T | null {
  if (statusTaskId && byId.has(statusTaskId)) return byId.get(statusTaskId) ?? null;
  const owned = tasks.filter((t) => t.owner === worker);
  return (
    owned.find((t) => t.status === 'in_progress') ??
    owned.find((t) => t.status === 'blocked') ??
    assigned.map((id) => byId.get(id)).find((t): t is T => t !== undefined) ??
    null
  );
}

export type LivenessFlag = 'no-heartbeat' | 'not-beating' | 'pid-gone' | 'unreadable' | null;

export interface Liveness {
  alive: boolean;
  /** ms since the last beat, null without a heartbeat. */
  ageMs: number | null;
  /** Why a worker that should be alive is not (what the pane flags). */
  flag: LivenessFlag;
  /** The last beat is older than the threshold (whatever else is wrong). */
  late: boolean;
  thresholdMs: number;
}

/** States in which a worker is not expected to beat any more. */
const AT_REST = new Set(['done', 'failed', 'stopped']);

/**
 * Whether a worker is alive at `now`: it says so (heartbeat `alive`), its
 * last beat is within OMC's threshold, and its pid (when we can check) runs.
 * OMC's getTeamSummary trusts `alive` alone, which keeps a long-dead worker
 * "alive"; the flag tells the user which check failed.
 */
export function workerLiveness(
  w: Pick<WorkerView, 'heartbeat' | 'pidAlive' | 'bridge' | 'state' | 'unreadable'>,
  now: number,
  staleMs: number,
): Liveness {
  const thresholdMs = w.bridge ? BRIDGE_HEARTBEAT_MAX_AGE_MS : staleMs;
  const hb = w.heartbeat;
  const atRest = AT_REST.has(w.state);
  // Its heartbeat may not be read here: unknown, unless its process is seen alive (an old pid seen gone says
  // nothing: the worker may have restarted under a new one, written where omc-top cannot look).
  if (w.unreadable && w.pidAlive !== true) {
    const ageMs = hb?.lastBeatMs == null ? null : Math.max(0, now - hb.lastBeatMs);
    return { alive: false, ageMs, flag: 'unreadable', late: false, thresholdMs };
  }
  if (!hb) return { alive: false, ageMs: null, flag: atRest ? null : 'no-heartbeat', late: false, thresholdMs };
  const ageMs = hb.lastBeatMs === null ? null : Math.max(0, now - hb.lastBeatMs);
  const late = ageMs === null || ageMs > thresholdMs;
  if (!hb.reportedAlive) return { alive: false, ageMs, flag: null, late, thresholdMs };
  if (w.pidAlive === false) return { alive: false, ageMs, flag: atRest ? null : 'pid-gone', late, thresholdMs };
  if (late) return { alive: false, ageMs, flag: atRest ? null : 'not-beating', late, thresholdMs };
  return { alive: true, ageMs, flag: null, late, thresholdMs };
}

/** When the liveness verdict of this worker next changes by time alone (for repaint timers). */
export function livenessChangesAt(
  w: Pick<WorkerView, 'heartbeat' | 'bridge'>,
  now: number,
  staleMs: number,
): number | null {
  const t = w.heartbeat?.lastBeatMs;
  if (t === null || t === undefined) return null;
  const at = t + (w.bridge ? BRIDGE_HEARTBEAT_MAX_AGE_MS : staleMs) + 1;
  return at > now ? at : null;
}

/**
 * A shutdown ack counts only for the current request: OMC ignores an ack whose
 * `updated_at` is older than the request's `requested_at` (and 5.5 ignores one
 * whose status is neither accept nor reject, or whose time does not parse).
 */
export function ackVerdict(
  ack: unknown,
  requestedMs: number | null,
): { status: 'accept' | 'reject'; reason: string | null; atMs: number | null; stale: boolean } | null {
  if (!isObj(ack) || (ack.status !== 'accept' && ack.status !== 'reject')) return null;
  const atMs = timeMs(ack.updated_at);
  const stale = requestedMs !== null && (atMs === null || atMs < requestedMs);
  return { status: ack.status, reason: str(ack.reason), atMs, stale };
}

/**
 * Phase history, from the richest source available: phase-state.json
 * `transitions` ({from,to,at,reason}), the pipeline mode state's
 * `phase_history` ({phase,entered_at,reason}), or the skill's `stage_history`
 * string ("team-plan:<iso>,team-prd:<iso>").
 */
export function phaseHistory(
  phaseState: Record<string, unknown> | null,
  modeState: Record<string, unknown> | null,
): PhaseStep[] {
  const transitions = phaseState?.transitions;
  if (Array.isArray(transitions) && transitions.length > 0) {
    const out: PhaseStep[] = [];
    transitions.forEach((t, i) => {
      if (!isObj(t)) return;
      if (i === 0 && str(t.from)) out.push({ phase: str(t.from) as string, atMs: null, reason: null });
      const to = str(t.to);
      if (to) out.push({ phase: to, atMs: timeMs(t.at), reason: str(t.reason) });
    });
    return out;
  }
  const hist = modeState?.phase_history;
  if (Array.isArray(hist)) {
    return hist
      .filter(isObj)
      .flatMap((h) =>
        str(h.phase) ? [{ phase: str(h.phase) as string, atMs: timeMs(h.entered_at), reason: str(h.reason) }] : [],
      );
  }
  const stages = str(modeState?.stage_history);
  if (stages) {
    return stages.split(',').flatMap((part) => {
      const m = /^\s*([^:]+?)\s*(?::(.*))?$/.exec(part);
      return m && m[1] ? [{ phase: m[1], atMs: timeMs(m[2]?.trim()), reason: null }] : [];
    });
  }
  return [];
}

/** The pipeline mode state's phase as the Stop hook reads it: current_phase ?? phase ?? stage. */
export function modePhase(s: Record<string, unknown> | null): string | null {
  if (!s) return null;
  return str(s.current_phase) ?? str(s.phase) ?? str(s.stage);
}

/** Iteration / fix-loop numbers from either mode-state shape (strings from state_write coerced). */
export function modeNumbers(s: Record<string, unknown> | null): {
  iteration: number | null;
  max: number | null;
  fix: number | null;
  maxFix: number | null;
} {
  if (!s) return { iteration: null, max: null, fix: null, maxFix: null };
  const loop = isObj(s.fix_loop) ? s.fix_loop : null;
  return {
    iteration: num(s.iteration),
    max: num(s.max_iterations),
    fix: num(loop?.attempt) ?? num(s.fix_loop_count),
    maxFix: num(loop?.max_attempts) ?? num(s.max_fix_loops),
  };
}

export function teamNameOf(s: Record<string, unknown> | null): string | null {
  if (!s) return null;
  const n = str(s.team_name) ?? str(s.teamName);
  return n === null ? null : n.trim();
}

/** OMC's CLI command that shuts a team's workers down and removes its runtime (peers.md §1.1; `omc team shutdown`). */
export const teamShutdownCommand = (name: string): string => `omc team shutdown ${name}`;
