/**
 * `x` (one worker) and `X` (the whole team): explain what will be written,
 * ask, then write OMC's shutdown request files. The acknowledgement shows up
 * in the worker row when the worker writes shutdown-ack.json.
 */
import type { TeamView, WorkerView } from '../../store/teams/model.js';
import { requestTeamShutdown, requestWorkerShutdown } from '../../store/teams/shutdown.js';
import type { KeyContext } from '../../kit/pane.js';
import type { TeamsPaneState } from './reducer.js';

function refuse(ctx: KeyContext<TeamsPaneState>, team: TeamView, worker: WorkerView | null): boolean {
  if (ctx.app.readonly) {
    ctx.app.flash('--readonly: shutdown requests are disabled (nothing is written)', 'error');
    return true;
  }
  if (team.kind === 'bridge' || worker?.bridge) {
    ctx.app.flash(
      "legacy MCP bridge workers take shutdown signals under Claude's config dir, outside .omc: use OMC's own tools",
      'error',
    );
    return true;
  }
  return false;
}

const AFTER = [
  'The worker reads the note at its next turn and answers in shutdown-ack.json (accept or reject); the answer appears here.',
  'omc-top does not kill panes or processes.',
];

export function askWorkerShutdown(ctx: KeyContext<TeamsPaneState>, team: TeamView, worker: WorkerView | null): void {
  if (!worker) {
    ctx.app.flash('no worker selected', 'error');
    return;
  }
  if (refuse(ctx, team, worker)) return;
  const dir = `${team.dir}/workers/${worker.name}`;
  const again =
    worker.shutdown?.requestedMs != null
      ? ['A shutdown request is already on file; this replaces it with a new one.']
      : [];
  ctx.app.confirm({
    id: 'worker-shutdown',
    title: `Ask ${worker.name} of ${team.name} to shut down?`,
    lines: [
      `Writes ${dir}/shutdown-request.json and adds a shutdown note to ${dir}/inbox.md (OMC's shutdown protocol).`,
      ...again,
      ...(team.stalled ? [NOBODY] : []),
      ...AFTER,
    ],
    prompt: 'y: ask it to shut down   n/Esc: keep it running',
    onConfirm: () =>
      ctx.app.run('shutdown request', () => {
        const domain = ctx.store.teams;
        requestWorkerShutdown(
          { domain, teamKey: team.key, teamName: team.name, readonly: ctx.app.readonly, now: ctx.app.now() },
          worker.name,
        );
        ctx.app.flash(`asked ${worker.name} to shut down; waiting for its acknowledgement`, 'success');
      }),
  });
}

/** A stalled team: no live pid, every heartbeat past the threshold. */
const NOBODY =
  'Warning: no worker of this team is alive (no live pid, every heartbeat past the threshold): nobody will acknowledge this request.';

export function askTeamShutdown(ctx: KeyContext<TeamsPaneState>, team: TeamView): void {
  if (refuse(ctx, team, null)) return;
  const workers = team.workers.filter((w) => !w.bridge).map((w) => w.name);
  if (workers.length === 0) {
    ctx.app.flash(`${team.name} has no workers to ask`, 'error');
    return;
  }
  ctx.app.confirm({
    id: 'team-shutdown',
    title: `Ask all ${workers.length} workers of ${team.name} to shut down?`,
    lines: [
      `Writes shutdown-request.json and an inbox note for ${workers.join(', ')}, and ${team.dir}/shutdown.json (OMC's shutdown protocol).`,
      ...(team.stalled ? [NOBODY] : []),
      ...AFTER,
    ],
    prompt: 'y: shut the team down   n/Esc: keep it running',
    onConfirm: () =>
      ctx.app.run('team shutdown request', () => {
        const domain = ctx.store.teams;
        requestTeamShutdown(
          { domain, teamKey: team.key, teamName: team.name, readonly: ctx.app.readonly, now: ctx.app.now() },
          workers,
        );
        ctx.app.flash(
          `asked ${workers.length} workers of ${team.name} to shut down; waiting for their acknowledgements`,
          'success',
        );
      }),
  });
}
