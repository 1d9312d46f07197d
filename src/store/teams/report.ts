/**
 * The "teams" array of --json. The fields the issue fixes come first
 * (name, phase, workers[{name, status, heartbeat_age_s, alive}], tasks{…});
 * everything after them is additive.
 */
import type { TeamsSnapshot } from './model.js';
import { workerLiveness } from './omc-team-rules.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function teamsReport(snap: TeamsSnapshot, now: number): Array<Record<string, unknown>> {
  return snap.teams.map((t) => ({
    name: t.name,
    phase: t.phase,
    workers: t.workers.map((w) => {
      const l = workerLiveness(w, now, snap.heartbeatStaleMs);
      return {
        name: w.name,
        status: w.state,
        heartbeat_age_s: l.ageMs === null ? null : Math.floor(l.ageMs / 1000),
        // Unknown (null) when its heartbeat may not be read here (flag "unreadable").
        alive: l.flag === 'unreadable' ? null : l.alive,
        role: w.role,
        current_task_id: w.currentTaskId,
        reported_alive: w.heartbeat?.reportedAlive ?? false,
        not_beating: l.late && (w.heartbeat?.reportedAlive ?? false),
        flag: l.flag,
        heartbeat_threshold_s: Math.round(l.thresholdMs / 1000),
        pid: w.heartbeat?.pid ?? null,
        pid_alive: w.pidAlive,
        turn_count: w.heartbeat?.turnCount ?? null,
        last_heartbeat_at: iso(w.heartbeat?.lastBeatMs ?? null),
        non_reporting: w.nonReporting,
        mission_status: w.board,
        in_config: w.inConfig,
        legacy_bridge: w.bridge,
        shutdown: w.shutdown && {
          requested_at: iso(w.shutdown.requestedMs),
          from: w.shutdown.from,
          ack: w.shutdown.ack && {
            status: w.shutdown.ack.status,
            reason: w.shutdown.ack.reason,
            at: iso(w.shutdown.ack.atMs),
            ignored_as_stale: w.shutdown.ack.stale,
          },
        },
      };
    }),
    tasks: {
      pending: t.counts.pending,
      blocked: t.counts.blocked,
      in_progress: t.counts.in_progress,
      completed: t.counts.completed,
      failed: t.counts.failed,
      total: t.counts.total,
    },
    mission_status: t.board,
    pipeline_phase: t.pipelinePhase,
    phase_history: t.phaseHistory.map((p) => ({ phase: p.phase, at: iso(p.atMs), reason: p.reason })),
    iteration: t.iteration,
    max_iterations: t.maxIterations,
    fix_attempt: t.fixAttempt,
    max_fix_attempts: t.maxFixAttempts,
    owner_session: t.owner?.sessionId ?? null,
    owner_source: t.owner?.source ?? null,
    location: t.location,
    dir: t.dir,
    kind: t.kind,
    lifecycle_state: t.lifecycle,
    team_shutdown_requested_at: iso(t.teamShutdownMs),
    created_at: iso(t.createdMs),
    updated_at: iso(t.updatedMs),
    events_seen: t.eventsSeen,
    // events_seen is every event in the file only when it was read from its start (a long log is read from its tail).
    events_seen_is_total: t.eventsWhole,
    task_list: t.tasks.map((k) => ({
      id: k.id,
      status: k.status,
      owner: k.owner,
      blocked_by: k.blockedBy,
      subject: k.subject,
      description: k.description,
      problem: k.problem,
    })),
    problems: t.problems.map((p) => ({ path: p.path, message: p.message, severity: p.severity })),
    // Heartbeats omc-top may not read while no worker is known alive: whether the team is stalled is unknown.
    unreadable: t.unreadable ?? [],
  }));
}
