/**
 * What the teams domain publishes: one immutable TeamView per team run, with
 * every string already sanitised. Time-dependent verdicts (heartbeat age, the
 * "not beating" flag) are not baked in: views and the --json report call
 * `workerLiveness(worker, now)` so ages move without re-reading anything.
 */
import type { Problem } from '../types.js';

export const TASK_STATUSES = ['pending', 'blocked', 'in_progress', 'completed', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskCounts {
  total: number;
  pending: number;
  blocked: number;
  in_progress: number;
  completed: number;
  failed: number;
}

/** OMC's `inferPhase` (src/team/phase-controller.ts): what `omc team status` prints. */
export type TeamPhase = 'initializing' | 'planning' | 'executing' | 'fixing' | 'completed' | 'failed';

/** The HUD mission board's words (src/hud/mission-board.ts: deriveWorkerStatus / deriveTeamStatus). */
export type BoardStatus = 'running' | 'blocked' | 'waiting' | 'done';

export interface TaskView {
  id: string;
  subject: string;
  /** What the worker was asked to do (OMC's task body): sanitised, lines kept; null when the file was unusable. */
  description: string | null;
  status: TaskStatus;
  owner: string | null;
  /** Ids this task waits for (`blocked_by`, else `depends_on`). */
  blockedBy: string[];
  /** Blockers that are not completed yet. */
  openBlockers: string[];
  /** The claim lease of an in-progress task (claim.leased_until); past it, the claim may be taken over. */
  leaseUntilMs: number | null;
  result: string | null;
  error: string | null;
  path: string;
  /** Set when the last read failed or the file breaks OMC's schema; values are the last good ones. */
  problem: string | null;
}

export interface HeartbeatView {
  pid: number | null;
  lastBeatMs: number | null;
  turnCount: number | null;
  /** What the worker wrote (`alive`); OMC's getTeamSummary reports exactly this. */
  reportedAlive: boolean;
}

export interface ShutdownView {
  requestedMs: number | null;
  from: string | null;
  ack: {
    status: 'accept' | 'reject';
    reason: string | null;
    atMs: number | null;
    /** The ack predates the current request, so OMC ignores it. */
    stale: boolean;
  } | null;
}

export interface WorkerView {
  name: string;
  role: string | null;
  /** status.json `state`; "unknown" when the file is missing (OMC's default). */
  state: string;
  reason: string | null;
  currentTaskId: string | null;
  currentTaskSubject: string | null;
  heartbeat: HeartbeatView | null;
  /** null when there is no pid to check (or it was never checked). */
  pidAlive: boolean | null;
  /** Listed in config.json (false: only a directory on disk). */
  inConfig: boolean;
  /** The legacy MCP bridge heartbeat format (lastPollAt, 30 s rule). */
  bridge: boolean;
  /** OMC's getTeamSummary "non-reporting": alive, working, more than 5 turns. */
  nonReporting: boolean;
  board: BoardStatus;
  shutdown: ShutdownView | null;
  problems: Problem[];
  /**
   * Its heartbeat file, when omc-top may not read it (permission, I/O), relative to its location's .omc: whether it
   * is alive is then unknown (its pid, if one was ever read, still answers for a process seen alive).
   */
  unreadable?: string | null;
}

export interface EventView {
  atMs: number | null;
  type: string;
  worker: string | null;
  taskId: string | null;
  text: string;
}

export interface PhaseStep {
  phase: string;
  atMs: number | null;
  reason: string | null;
}

export interface OwnerView {
  sessionId: string;
  /** Where the link came from (5.5: config.leader_session_id; 4.x: manifest; mode state team_name). */
  source: 'config.leader_session_id' | 'manifest.leader.session_id' | 'team-state.json' | 'omc-teams-state.json';
  /** The mode state file that names this team, when there is one. */
  modePath: string | null;
  modeActive: boolean | null;
}

export interface TeamView {
  /** Unique across locations: the name, or "project:<name>" for the 4.x location beside the project. */
  key: string;
  name: string;
  /** 'root': under the .omc root; 'project': <project>/.omc (OMC 4.x with OMC_STATE_DIR set). */
  location: 'root' | 'project';
  /** The team directory, relative to its location's .omc. */
  dir: string;
  kind: 'runtime' | 'bridge';
  task: string | null;
  phase: TeamPhase;
  /** phase-state.json `current_phase` (or the mode state's phase): the leader's pipeline stage. */
  pipelinePhase: string | null;
  phaseHistory: PhaseStep[];
  iteration: number | null;
  maxIterations: number | null;
  fixAttempt: number | null;
  maxFixAttempts: number | null;
  owner: OwnerView | null;
  lifecycle: string | null;
  counts: TaskCounts;
  board: BoardStatus;
  /**
   * Not done, has workers, and none is alive (no live pid, every heartbeat older than the
   * threshold): nobody is left to work or to acknowledge a shutdown.
   */
  stalled: boolean;
  /**
   * The heartbeat files omc-top may not read while no worker is known alive: whether the team is stalled is then
   * unknown, never judged as if those workers were dead (empty or absent otherwise).
   */
  unreadable?: readonly string[];
  workers: WorkerView[];
  tasks: TaskView[];
  /** The newest events (at most EVENTS_KEPT), oldest first. */
  events: EventView[];
  /** Events read from events.jsonl in this reading of it (its tail: the file may hold many more before). */
  eventsSeen: number;
  /** `eventsSeen` is every event in the file: it was read from its first byte, no part passed over. */
  eventsWhole: boolean;
  /** Bumps when events.jsonl is read afresh (replaced, truncated, gone and back): earlier positions no longer hold. */
  eventsReading: number;
  /** Team-level shutdown.json (`requestedAt`, ISO or epoch ms). */
  teamShutdownMs: number | null;
  createdMs: number | null;
  updatedMs: number | null;
  problems: Problem[];
}

export interface TeamsSnapshot {
  version: number;
  teams: readonly TeamView[];
  problems: readonly Problem[];
  derivedAt: number;
  /** The heartbeat threshold in force for runtime workers (OMC_TEAM_HEARTBEAT_STALE_MS or 180 s). */
  heartbeatStaleMs: number;
  /**
   * The team directories (`state/team`, `state/team-bridge`, as their problem lines name them) that are there but
   * could not be listed: the teams in them are not known, so the pane does not say there are none. Usually absent.
   */
  unreadableDirs?: readonly string[];
}

export const EMPTY_TEAMS: TeamsSnapshot = {
  version: 0,
  teams: [],
  problems: [],
  derivedAt: 0,
  heartbeatStaleMs: 180_000,
};

export const EVENTS_KEPT = 200;
