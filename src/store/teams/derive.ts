/**
 * Builds one TeamView from the files the domain holds for a team. No I/O
 * except the injected pid check: everything comes from the JSON cache, the
 * directory listings and the events tail. Every string is sanitised here.
 */
import { cleanBlockShown, cleanLine, truncate } from '../../io/sanitize.js';
import { shownExactly } from '../../io/shown-exactly.js';
import { isValidSessionId, timeMs } from '../sessions/omc-rules.js';
import { isObj, num, type Obj, str } from '../../io/json.js';
import type { Problem } from '../types.js';
import type { EventsTail } from './events-tail.js';
import type { JsonRec } from './json-cache.js';
import type { HeartbeatView, OwnerView, ShutdownView, TaskView, TeamView, WorkerView } from './model.js';
import {
  WORKER_NAME_RE,
  ackVerdict,
  boardTeamStatus,
  boardWorkerStatus,
  countTasks,
  currentTaskOf,
  inferTeamPhase,
  modeNumbers,
  modePhase,
  parseTask,
  phaseHistory,
  teamNameOf,
  type ParsedTask,
} from './omc-team-rules.js';

const line = (v: unknown, max = 200) => truncate(cleanLine(v), max);
/** A task body is shown whole up to this many characters (a body past it is cut with an ellipsis). */
const DESCRIPTION_MAX = 8000;

/** A session's team / omc-teams mode state that names a team. */
export interface ModeLink {
  sessionId: string;
  file: 'team-state.json' | 'omc-teams-state.json';
  path: string;
  state: Obj;
  active: boolean;
  updatedMs: number;
}

export interface TeamInputs {
  key: string;
  name: string;
  location: 'root' | 'project';
  /** Shown in problem lines: "" for the root, "<project>/.omc: " for the 4.x location. */
  pathPrefix: string;
  /** JSON file under this location's .omc (relative path) → its cache record. */
  file(rel: string): JsonRec | undefined;
  hasRuntimeDir: boolean;
  /** Task files found in tasks/: id → file name (the canonical task-<id>.json wins over <id>.json). */
  taskFiles: ReadonlyMap<string, string>;
  workerDirs: readonly string[];
  bridgeWorkers: readonly string[];
  tail: EventsTail | null;
  structural: readonly Problem[];
  modeLinks: readonly ModeLink[];
  /** A session's team / omc-teams mode states (the pipeline shape has no team_name: it is found through its owner). */
  modeOfSession(sessionId: string): readonly ModeLink[];
  /** Session directories that exist (to accept a 4.x manifest owner). */
  sessionExists(id: string): boolean;
  /** Whether the worker that wrote its heartbeat at `beatMs` still runs under `pid` (null: cannot tell). */
  pidAlive(pid: number, beatMs: number | null): boolean | null;
  /** For "stalled": the time of this derivation and the heartbeat threshold (defaults: now, 180 s). */
  now?: number;
  heartbeatStaleMs?: number;
}

/** A worker counts as alive on a live pid, or (its pid not known dead) a heartbeat younger than the threshold. */
export function workerLive(w: WorkerView, now: number, staleMs: number): boolean {
  if (w.pidAlive === true) return true;
  // Its process is seen gone: a heartbeat written before it died (up to staleMs ago) does not bring it back.
  if (w.pidAlive === false) return false;
  const beat = w.heartbeat?.lastBeatMs ?? null;
  return beat !== null && now - beat <= staleMs;
}

/** A worker whose heartbeat omc-top may not read may be alive: a team is stalled only when none may be. */
export function isStalled(t: Pick<TeamView, 'board' | 'workers'>, now: number, staleMs: number): boolean {
  return (
    t.board !== 'done' && t.workers.length > 0 && !t.workers.some((w) => workerLive(w, now, staleMs) || !!w.unreadable)
  );
}

/** The heartbeats omc-top may not read of a team that is stalled unless one of those workers lives. */
function unknownLiveness(t: Pick<TeamView, 'board' | 'workers'>, now: number, staleMs: number): readonly string[] {
  if (t.board === 'done' || t.workers.some((w) => workerLive(w, now, staleMs))) return [];
  return t.workers.flatMap((w) => (w.unreadable ? [w.unreadable] : []));
}

/** Adds one problem line for a file of the team. */
type NoteProblem = (rel: string, message: string, severity?: Problem['severity']) => void;

export function deriveTeam(inp: TeamInputs): TeamView {
  const base = `state/team/${inp.name}`;
  const problems: Problem[] = [...inp.structural];
  // Messages quote values from the files (a task's "status", a worker's name): JSON.stringify
  // leaves DEL and C1 controls raw, so every message is cleaned on its way out.
  const problem: NoteProblem = (rel, message, severity = 'warning') =>
    problems.push({ path: inp.pathPrefix + rel, message: cleanLine(message), severity });

  const files = readRuntimeFiles(inp, base, problem);
  const { config, manifest, phaseState, roster } = files;
  const tasks = deriveTasks(inp, base, problem);
  const workers = deriveWorkers(inp, base, roster, files.rosterRel, tasks.parsed, problem);
  const owner = findOwner(inp, config, manifest);
  const mode = owner?.modePath
    ? ([...inp.modeLinks, ...inp.modeOfSession(owner.sessionId)].find((l) => l.path === owner?.modePath)?.state ?? null)
    : null;
  const nums = modeNumbers(mode);

  const pipelinePhase = str(phaseState?.current_phase) ?? modePhase(mode);
  const history = phaseHistory(phaseState, mode).map((s) => ({
    phase: line(s.phase, 40),
    atMs: s.atMs,
    reason: s.reason === null ? null : line(s.reason),
  }));

  const tail = inp.tail;
  if (tail?.problem) problem(`${base}/events.jsonl`, tail.problem, 'warning');
  const board = boardTeamStatus(
    tasks.counts,
    workers.map((w) => w.board),
  );
  return {
    key: inp.key,
    name: line(inp.name, 64),
    location: inp.location,
    dir: inp.hasRuntimeDir ? base : `state/team-bridge/${inp.name}`,
    kind: inp.hasRuntimeDir ? 'runtime' : 'bridge',
    task: str(roster?.task) === null ? null : line(roster?.task, 500),
    phase: inferTeamPhase(tasks.parsed),
    pipelinePhase: pipelinePhase === null ? null : line(pipelinePhase, 40),
    phaseHistory: history,
    iteration: nums.iteration,
    maxIterations: nums.max,
    fixAttempt: num(phaseState?.current_fix_attempt) ?? nums.fix,
    maxFixAttempts: num(phaseState?.max_fix_attempts) ?? nums.maxFix,
    owner,
    lifecycle: str(config?.lifecycle_state) === null ? null : line(config?.lifecycle_state, 40),
    counts: tasks.counts,
    board,
    stalled: isStalled({ board, workers }, inp.now ?? Date.now(), inp.heartbeatStaleMs ?? 180_000),
    unreadable: unknownLiveness({ board, workers }, inp.now ?? Date.now(), inp.heartbeatStaleMs ?? 180_000),
    workers,
    tasks: tasks.views,
    events: tail ? tail.events.slice() : [],
    eventsSeen: tail?.seen ?? 0,
    eventsWhole: tail?.whole ?? true,
    eventsReading: tail?.reading ?? 0,
    teamShutdownMs: timeMs(files.shutdown?.requestedAt),
    createdMs: timeMs(config?.created_at) ?? timeMs(manifest?.created_at),
    updatedMs: lastUpdate(workers, phaseState, tail),
    problems: [...problems, ...workers.flatMap((w) => w.problems)],
  };
}

/** The runtime directory's own files (config, manifest, phase state, shutdown request) and the roster. */
function readRuntimeFiles(inp: TeamInputs, base: string, problem: NoteProblem) {
  /** The file's last good object, noting its read problem (and a non-object value). */
  const obj = (rel: string): Obj | null => {
    const rec = inp.file(rel);
    if (!rec) return null;
    if (rec.problem)
      problem(
        rel,
        rec.value === undefined ? rec.problem : `${rec.problem} (showing the last good version)`,
        rec.value === undefined ? 'error' : 'warning',
      );
    if (rec.value !== undefined && !isObj(rec.value)) {
      problem(
        rel,
        `expected a JSON object, found ${Array.isArray(rec.value) ? 'an array' : rec.value === null ? 'null' : typeof rec.value}`,
        'error',
      );
      return null;
    }
    return (rec.value as Obj | undefined) ?? null;
  };

  const config = inp.hasRuntimeDir ? obj(`${base}/config.json`) : null;
  const manifestRel = inp.file(`${base}/manifest.json`) ? `${base}/manifest.json` : `${base}/manifest.v2.json`;
  const manifest = inp.hasRuntimeDir ? obj(manifestRel) : null;
  const phaseState = inp.hasRuntimeDir ? obj(`${base}/phase-state.json`) : null;
  const shutdown = inp.hasRuntimeDir ? obj(`${base}/shutdown.json`) : null;
  if (inp.hasRuntimeDir && !config && !inp.file(`${base}/config.json`)) {
    problem(
      `${base}/config.json`,
      manifest
        ? 'missing: OMC 5.5 readers need config.json; using manifest.json (4.x)'
        : "missing: OMC's status readers skip a team without config.json",
      manifest ? 'info' : 'warning',
    );
  }
  const roster = config ?? manifest;
  const rosterRel = config ? `${base}/config.json` : manifestRel;
  if (roster) checkRoster(roster, rosterRel, inp.name, problem);
  return { config, manifest, phaseState, shutdown, roster, rosterRel };
}

/** Tasks, sorted by numeric id like OMC's list-tasks; a file that breaks OMC's schema is a row and a problem. */
function deriveTasks(inp: TeamInputs, base: string, problem: NoteProblem) {
  const parsed: ParsedTask[] = [];
  const views: TaskView[] = [];
  let invalidTasks = 0;
  for (const [id, fileName] of inp.taskFiles) {
    const rel = `${base}/tasks/${fileName}`;
    const rec = inp.file(rel);
    if (!rec) continue;
    const readProblem = rec.problem;
    const verdict = rec.value === undefined ? null : parseTask(rec.value, id);
    if (verdict && 'task' in verdict) {
      parsed.push(verdict.task);
      if (readProblem) problem(rel, `${readProblem} (showing the last good version)`);
      views.push(taskView(verdict.task, rel, readProblem));
    } else {
      invalidTasks++;
      const why =
        verdict && 'error' in verdict
          ? `does not follow OMC's task schema: ${verdict.error}`
          : (readProblem ?? 'unreadable');
      problem(rel, why, 'error');
      views.push({
        id: line(id, 24),
        subject: '(unreadable task)',
        description: null,
        status: 'pending',
        owner: null,
        blockedBy: [],
        openBlockers: [],
        leaseUntilMs: null,
        result: null,
        error: null,
        path: inp.pathPrefix + rel,
        problem: cleanLine(why),
      });
    }
  }
  if (invalidTasks > 0) {
    problem(
      `${base}/tasks`,
      `${invalidTasks} task file(s) break OMC's schema: OMC's own list-tasks and status fail for this team until they are fixed; counts here use the valid tasks`,
      'error',
    );
  }
  const order = (a: { id: string }, b: { id: string }) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id);
  parsed.sort(order);
  views.sort(order);
  const byId = new Map(parsed.map((t) => [t.id, t]));
  for (const tv of views) tv.openBlockers = tv.blockedBy.filter((b) => byId.get(b)?.status !== 'completed');
  return { parsed, views, counts: countTasks(parsed) };
}

/** Workers: the roster's order, then directories on disk the roster does not list, then bridge workers. */
function deriveWorkers(
  inp: TeamInputs,
  base: string,
  roster: Obj | null,
  rosterRel: string,
  parsed: ParsedTask[],
  problem: NoteProblem,
): WorkerView[] {
  const byId = new Map(parsed.map((t) => [t.id, t]));
  const rosterWorkers = roster && Array.isArray(roster.workers) ? roster.workers.filter(isObj) : [];
  const seen = new Set<string>();
  const workers: WorkerView[] = [];
  for (const w of rosterWorkers) {
    const name = str(w.name);
    if (!name || !WORKER_NAME_RE.test(name) || seen.has(name)) continue;
    seen.add(name);
    const assigned = Array.isArray(w.assigned_tasks)
      ? w.assigned_tasks.filter((x): x is string => typeof x === 'string')
      : [];
    workers.push(runtimeWorker(inp, name, str(w.role) ?? str(w.worker_cli), assigned, true, parsed, byId));
  }
  for (const name of inp.workerDirs) {
    if (seen.has(name)) continue;
    seen.add(name);
    workers.push(runtimeWorker(inp, name, null, [], false, parsed, byId));
    if (roster)
      problem(`${base}/workers/${name}`, `worker directory not listed in ${rosterRel.split('/').pop()}`, 'info');
  }
  for (const name of inp.bridgeWorkers) {
    if (seen.has(name)) continue;
    seen.add(name);
    workers.push(bridgeWorker(inp, name));
  }
  return workers;
}

/** Owner: 5.5's config.leader_session_id, then a session's mode state naming the team, then 4.x's manifest. */
function findOwner(inp: TeamInputs, config: Obj | null, manifest: Obj | null): OwnerView | null {
  const leader = str(config?.leader_session_id);
  const manifestLeader = isObj(manifest?.leader) ? str(manifest.leader.session_id) : null;
  // The owner's own mode state: one naming this team, else one naming no team at all (the pipeline shape).
  const linkFor = (sid: string) => {
    const own = inp.modeOfSession(sid);
    return own.find((l) => teamNameOf(l.state) === inp.name) ?? own.find((l) => teamNameOf(l.state) === null) ?? null;
  };
  if (leader && isValidSessionId(leader)) {
    const l = linkFor(leader);
    return {
      sessionId: line(leader, 256),
      source: 'config.leader_session_id',
      modePath: l?.path ?? null,
      modeActive: l?.active ?? null,
    };
  }
  const modeLink = pickModeLink(inp.modeLinks);
  if (modeLink)
    return {
      sessionId: line(modeLink.sessionId, 256),
      source: modeLink.file,
      modePath: modeLink.path,
      modeActive: modeLink.active,
    };
  if (manifestLeader && isValidSessionId(manifestLeader) && inp.sessionExists(manifestLeader)) {
    const l = linkFor(manifestLeader);
    return {
      sessionId: line(manifestLeader, 256),
      source: 'manifest.leader.session_id',
      modePath: l?.path ?? null,
      modeActive: l?.active ?? null,
    };
  }
  return null;
}

/** The latest of the workers' heartbeats, the phase state's update and the last event. */
function lastUpdate(workers: WorkerView[], phaseState: Obj | null, tail: EventsTail | null): number | null {
  let updatedMs: number | null = null;
  const bump = (t: number | null | undefined) => {
    if (t !== null && t !== undefined && (updatedMs === null || t > updatedMs)) updatedMs = t;
  };
  for (const w of workers) bump(w.heartbeat?.lastBeatMs);
  bump(timeMs(phaseState?.updated_at));
  bump(tail?.events.at(-1)?.atMs);
  return updatedMs;
}

/** What OMC's strict config check rejects (invalid_persisted_state), said in words. */
function checkRoster(roster: Obj, rel: string, dirName: string, problem: NoteProblem): void {
  if (roster.name !== undefined && roster.name !== dirName)
    // Every character of the name shown (a control as its stand-in): cleaned, "push-probe␛]0;x␇" would read as
    // the directory's own name and the line would contradict itself.
    problem(
      rel,
      `"name" is ${JSON.stringify(truncate(typeof roster.name === 'string' ? shownExactly(roster.name) : line(roster.name), 60))} but the directory is ${dirName}`,
    );
  if (!Array.isArray(roster.workers)) {
    problem(rel, '"workers" is not an array: no worker list', 'error');
    return;
  }
  const names = new Set<string>();
  roster.workers.forEach((w, i) => {
    const name = isObj(w) ? str(w.name) : null;
    if (!name) problem(rel, `workers[${i}] has no "name"`, 'error');
    else if (!WORKER_NAME_RE.test(name))
      problem(
        rel,
        `workers[${i}] name ${JSON.stringify(line(name, 60))} is not a valid OMC worker name; ignored`,
        'error',
      );
    else if (names.has(name)) problem(rel, `worker "${name}" is listed twice`, 'error');
    else names.add(name);
  });
  const wc = roster.worker_count;
  if (wc !== undefined && wc !== roster.workers.length) {
    problem(
      rel,
      `"worker_count" is ${JSON.stringify(wc)} but ${roster.workers.length} workers are listed (OMC's readers reject this config)`,
      'error',
    );
  }
}

function taskView(t: ParsedTask, rel: string, readProblem: string | null): TaskView {
  return {
    id: t.id,
    subject: line(t.subject, 300),
    description: truncate(cleanBlockShown(t.description), DESCRIPTION_MAX).trim(),
    status: t.status,
    owner: t.owner === null ? null : line(t.owner, 64),
    blockedBy: t.blockedBy,
    openBlockers: [],
    leaseUntilMs: t.status === 'in_progress' ? t.leasedUntilMs : null,
    result: t.result === null ? null : line(t.result, 300),
    error: t.error === null ? null : line(t.error, 300),
    path: rel,
    problem: readProblem,
  };
}

function runtimeWorker(
  inp: TeamInputs,
  name: string,
  role: string | null,
  assigned: readonly string[],
  inConfig: boolean,
  tasks: readonly ParsedTask[],
  byId: ReadonlyMap<string, ParsedTask>,
): WorkerView {
  const dir = `state/team/${inp.name}/workers/${name}`;
  const own: Problem[] = [];
  const wp = (rel: string, message: string, severity: Problem['severity'] = 'warning') =>
    own.push({ path: inp.pathPrefix + rel, message, severity });
  const read = (file: string): Obj | null => {
    const rel = `${dir}/${file}`;
    const rec = inp.file(rel);
    if (!rec) return null;
    if (rec.problem)
      wp(
        rel,
        rec.value === undefined ? rec.problem : `${rec.problem} (showing the last good version)`,
        rec.value === undefined ? 'error' : 'warning',
      );
    if (rec.value !== undefined && !isObj(rec.value)) {
      wp(rel, 'expected a JSON object', 'error');
      return null;
    }
    return (rec.value as Obj | undefined) ?? null;
  };
  const hbObj = read('heartbeat.json');
  const status = read('status.json');
  const request = read('shutdown-request.json');
  const ack = read('shutdown-ack.json');

  let heartbeat: HeartbeatView | null = null;
  if (hbObj) {
    const lastBeatMs = timeMs(hbObj.last_turn_at);
    if (lastBeatMs === null) wp(`${dir}/heartbeat.json`, '"last_turn_at" is not a timestamp: heartbeat age unknown');
    const pid = num(hbObj.pid);
    heartbeat = {
      pid: pid !== null && Number.isSafeInteger(pid) && pid > 0 ? pid : null,
      lastBeatMs,
      turnCount: num(hbObj.turn_count),
      reportedAlive: hbObj.alive === true,
    };
  } else if (!inp.file(`${dir}/heartbeat.json`)) {
    const st = str(status?.state);
    if (st !== 'done' && st !== 'failed')
      wp(`${dir}/heartbeat.json`, 'no heartbeat yet: the worker has not finished a turn (or never started)');
  }

  const state = str(status?.state) ?? 'unknown';
  const statusTask = str(status?.current_task_id);
  const current = currentTaskOf(name, statusTask, assigned, byId, tasks);
  const shutdown: ShutdownView | null =
    request || ack
      ? (() => {
          const requestedMs = timeMs(request?.requested_at);
          const v = ackVerdict(ack, requestedMs);
          if (ack && !v)
            wp(`${dir}/shutdown-ack.json`, '"status" is neither "accept" nor "reject": OMC ignores this ack');
          return {
            requestedMs,
            from:
              str(request?.from) === null
                ? str(request?.requested_by) === null
                  ? null
                  : line(request?.requested_by, 64)
                : line(request?.from, 64),
            ack: v ? { ...v, reason: v.reason === null ? null : line(v.reason) } : null,
          };
        })()
      : null;
  const pidAlive = heartbeat?.pid && heartbeat.reportedAlive ? inp.pidAlive(heartbeat.pid, heartbeat.lastBeatMs) : null;
  const hbUnread = inp.file(`${dir}/heartbeat.json`)?.unreadable ?? null;
  return {
    name,
    role: role === null ? null : line(role, 40),
    state: line(state, 40),
    reason: str(status?.reason) === null ? null : line(status?.reason),
    currentTaskId: current?.id ?? (statusTask === null ? null : line(statusTask, 24)),
    currentTaskSubject: current === null ? null : line(current.subject, 200),
    heartbeat,
    pidAlive,
    inConfig,
    bridge: false,
    nonReporting: !!heartbeat?.reportedAlive && state === 'working' && (heartbeat.turnCount ?? 0) > 5,
    board: boardWorkerStatus(str(status?.state), current),
    shutdown,
    problems: own,
    unreadable: hbUnread === null ? null : inp.pathPrefix + `${dir}/heartbeat.json`,
  };
}

/** Legacy MCP bridge heartbeat: {workerName, pid, lastPollAt, currentTaskId, status}. */
function bridgeWorker(inp: TeamInputs, name: string): WorkerView {
  const rel = `state/team-bridge/${inp.name}/${name}.heartbeat.json`;
  const rec = inp.file(rel);
  const own: Problem[] = [];
  if (rec?.problem)
    own.push({
      path: inp.pathPrefix + rel,
      message: rec.problem,
      severity: rec.value === undefined ? 'error' : 'warning',
    });
  const hb = isObj(rec?.value) ? (rec?.value as Obj) : null;
  if (rec && rec.value !== undefined && !hb)
    own.push({ path: inp.pathPrefix + rel, message: 'expected a JSON object', severity: 'error' });
  const lastPoll = timeMs(hb?.lastPollAt);
  if (hb && lastPoll === null)
    own.push({
      path: inp.pathPrefix + rel,
      message: '"lastPollAt" is not a timestamp: OMC counts this worker as dead',
      severity: 'warning',
    });
  const pid = num(hb?.pid);
  const state = str(hb?.status) ?? 'unknown';
  const heartbeat: HeartbeatView | null = hb
    ? {
        pid: pid !== null && Number.isSafeInteger(pid) && pid > 0 ? pid : null,
        lastBeatMs: lastPoll,
        turnCount: null,
        reportedAlive: state !== 'shutdown',
      }
    : null;
  const task = str(hb?.currentTaskId);
  return {
    name,
    role: str(hb?.provider) === null ? null : line(hb?.provider, 40),
    state: line(state, 40),
    reason: null,
    currentTaskId: task === null ? null : line(task, 24),
    currentTaskSubject: null,
    heartbeat,
    pidAlive: heartbeat?.pid && heartbeat.reportedAlive ? inp.pidAlive(heartbeat.pid, heartbeat.lastBeatMs) : null,
    inConfig: false,
    bridge: true,
    nonReporting: false,
    board:
      state === 'executing'
        ? 'running'
        : state === 'quarantined'
          ? 'blocked'
          : state === 'shutdown'
            ? 'done'
            : 'waiting',
    shutdown: null,
    problems: own,
    unreadable: rec?.unreadable ? inp.pathPrefix + rel : null,
  };
}

/** Several sessions may name the same team: the active one wins, then the newest. */
function pickModeLink(links: readonly ModeLink[]): ModeLink | null {
  let best: ModeLink | null = null;
  for (const l of links) {
    if (!best || (l.active && !best.active) || (l.active === best.active && l.updatedMs > best.updatedMs)) best = l;
  }
  return best;
}
