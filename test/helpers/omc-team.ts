/**
 * OMC's own team readers (oh-my-claude-sisyphus 5.5.0's compiled dist), for
 * tests that prove omc-top concludes what OMC concludes. Only side-effect-free
 * readers are used here (never monitorTeamV2, which appends events and
 * rewrites monitor-snapshot.json); the mission board writer runs only in temp
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
      inferPhase: phase.inferPhase,
      refreshMissionBoardState: board.refreshMissionBoardState,
    };
  })();
  return cached;
}
