/**
 * J on a team worker: the worker is a Claude Code process (its heartbeat
 * names the pid). Its registry entry, when the CLI wrote one, gives the tmux
 * pane; otherwise the pid's terminal is matched to a pane. The sessions
 * pane's jump does the rest and says why when it cannot.
 */
import type { ProcessView } from '../../store/claude/model.js';
import type { TeamView, WorkerView } from '../../store/teams/model.js';
import type { OmcStore } from '../../store/store.js';
import { jumpTo } from '../sessions/jump-flow.js';
import type { AppActions } from '../../kit/pane.js';

export function workerProcess(store: OmcStore, w: WorkerView): ProcessView | null {
  const pid = w.heartbeat?.pid ?? null;
  if (pid === null) return null;
  for (const c of store.claude.getSnapshot().bySession.values()) if (c.process?.pid === pid) return c.process;
  // No registry entry (an older CLI): the pid alone, judged as the teams domain judged it.
  return {
    pid,
    sessionId: '',
    status: w.pidAlive === false ? 'gone' : 'unknown',
    reason: 'from the worker heartbeat',
    since: null,
    entrypoint: null,
    version: null,
    kind: null,
    name: null,
    tmux: null,
    tmuxWhere: null,
    cwd: null,
    waitingFor: null,
    procStart: null,
    startedAt: null,
    registryRel: '',
  };
}

export function jumpToWorker(app: AppActions, store: OmcStore, team: TeamView, w: WorkerView | null): void {
  if (!w) {
    app.flash('jump: this team has no worker to jump to', 'error');
    return;
  }
  const p = workerProcess(store, w);
  if (!p) {
    app.flash(`jump: worker ${w.name} of ${team.name} has no pid in its heartbeat`, 'error');
    return;
  }
  jumpTo(app, `worker ${w.name} of ${team.name}`, p);
}
