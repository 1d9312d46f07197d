/**
 * OMC's own team readers (oh-my-claude-sisyphus 5.5.0's compiled dist), for
 * tests that prove omc-top concludes what OMC concludes. Only side-effect-free
 * readers are used here (never monitorTeamV2, which appends events and
 * rewrites monitor-snapshot.json); the writers (the mission board, a task
 * created, an event appended, as a leader or worker would) run only in temp
 * projects.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { OMC55 } from './omc-packages.mjs';

const DIST = path.join(OMC55, 'dist');
const load = (rel: string) => import(pathToFileURL(path.join(DIST, rel)).href);

export interface OmcTeamApi {
  getTeamSummary(team: string, cwd: string): Promise<any>;
  readShutdownAck(team: string, worker: string, cwd: string, requestedAfter?: string): Promise<any>;
  teamListTasks(team: string, cwd: string): Promise<any[]>;
  teamReadShutdownAck(team: string, worker: string, cwd: string, minUpdatedAt?: string): Promise<any>;
  /** OMC's own event append (events.jsonl under `cwd`'s .omc), as a worker or the leader does it. */
  teamAppendEvent(team: string, event: Record<string, unknown>, cwd: string): Promise<any>;
  /** OMC's own task creation (tasks/task-<id>.json, next id from config.json), as the leader does it. */
  teamCreateTask(team: string, task: Record<string, unknown>, cwd: string): Promise<any>;
  inferPhase(tasks: Array<{ status: string; metadata?: unknown }>): string;
  refreshMissionBoardState(dir: string, config: Record<string, unknown>, sessionId: string): any;
}

let cached: Promise<OmcTeamApi> | null = null;

export function omcTeam(): Promise<OmcTeamApi> {
  cached ??= (async () => {
    const [monitor, ops, phase, board] = await Promise.all([
      load('team/monitor.js'),
      load('team/team-ops.js'),
      load('team/phase-controller.js'),
      load('hud/mission-board.js'),
    ]);
    return {
      getTeamSummary: monitor.getTeamSummary,
      readShutdownAck: monitor.readShutdownAck,
      teamListTasks: ops.teamListTasks,
      teamReadShutdownAck: ops.teamReadShutdownAck,
      teamAppendEvent: ops.teamAppendEvent,
      teamCreateTask: ops.teamCreateTask,
      inferPhase: phase.inferPhase,
      refreshMissionBoardState: board.refreshMissionBoardState,
    };
  })();
  return cached;
}
