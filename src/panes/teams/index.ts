import type { Binding } from '../../kit/bindings.js';
import type { Move } from '../../kit/list.js';
import { filterBindings, filterStartBindings, mode, navBindings, scrollDelta, underTitles } from '../../kit/nav.js';
import { taskLines } from './task-lines.js';
import { ROWS_PER_TEAM, teamsListLayout } from './layout.js';
import { livenessChangesAt } from '../../store/teams/omc-team-rules.js';
import { ageTickMs } from '../../ui/format.js';
import type { KeyContext, PaneModule } from '../../kit/pane.js';
import { detailLayout } from './detail.js';
import { followSessions, sessionsSelection } from './link.js';
import {
  backspaceFilter,
  backspaceTaskFilter,
  clearFilter,
  clearTaskFilter,
  closeDetail,
  closeTask,
  openTask,
  scrollTask,
  selectedTask,
  cycleFocus,
  endFilter,
  endTaskFilter,
  initTeamsPane,
  moveTask,
  moveTeam,
  moveWorker,
  openDetail,
  scrollEvents,
  selectedWorker,
  settleDetail,
  settleTeams,
  startFilter,
  startTaskFilter,
  typeFilter,
  typeTaskFilter,
  visibleTasks,
  type TeamsPaneState,
} from './reducer.js';
import { askTeamShutdown, askWorkerShutdown } from './shutdown-flow.js';
import { TeamsView } from './view.js';
import { jumpToWorker } from './worker-jump.js';
import { rootWriteBlock } from '../../ui/not-known.js';

type Ctx = KeyContext<TeamsPaneState>;
type S = TeamsPaneState;

const TASK_FILTER = mode<S>('typing a task filter', (s) => s.detail?.taskFilterEditing === true);
const FILTER = mode<S>('typing a filter', (s) => s.detail === null && s.filterEditing);
const LIST = mode<S>('team list', (s) => s.detail === null && !s.filterEditing);
const DETAIL = mode<S>('in a team', (s) => s.detail !== null && !s.detail.taskFilterEditing && !s.detail.taskOpen);
const TASK = mode<S>('reading a task', (s) => s.detail !== null && !s.detail.taskFilterEditing && s.detail.taskOpen);

const snapOf = (ctx: Ctx) => ctx.store.teams.getSnapshot();
const list = (ctx: Ctx) => teamsListLayout(ctx.state, snapOf(ctx), ctx.body, ctx.app.now());
const selectedTeam = (ctx: Ctx) => {
  const l = list(ctx);
  return l.rows[l.view.index];
};
const detailTeam = (ctx: Ctx) => snapOf(ctx).teams.find((t) => t.key === ctx.state.detail?.key);
const layoutOf = (ctx: Ctx) => {
  const team = detailTeam(ctx);
  const d = ctx.state.detail;
  return team && d
    ? {
        team,
        d,
        layout: detailLayout(team, d, ctx.body.columns, ctx.body.rows, ctx.app.now(), snapOf(ctx).heartbeatStaleMs),
      }
    : null;
};

/** In a team, the move keys act on the focused section: workers, tasks, or the events (scrolled from the tail). */
function moveInDetail(ctx: Ctx, m: Move): void {
  const x = layoutOf(ctx);
  if (!x) return;
  const { team, d, layout } = x;
  if (d.focus === 'workers') ctx.set((s) => moveWorker(s, layout.workers, m, layout.rows.workers));
  else if (d.focus === 'tasks') ctx.set((s) => moveTask(s, layout.tasks, m, layout.rows.tasks));
  else {
    // Events: "down" is towards the newest; End follows the live tail again.
    const rows = layout.rows.events;
    const back =
      m === 'last'
        ? -Infinity
        : m === 'first'
          ? Infinity
          : typeof m === 'number'
            ? -m
            : -m.page * Math.max(1, rows - 1);
    ctx.set((s) => scrollEvents(s, team, rows, back));
  }
}

const SHUTDOWN_READONLY = '--readonly: shutdown requests are disabled (nothing is written)';
const noTeam = (ctx: Ctx) => (selectedTeam(ctx) ? null : 'no team selected');
/** Enter and X act on the selected team: not offered in the footer while none is (no teams, a filter matching none). */
const teamSelected = (ctx: Ctx) => selectedTeam(ctx) !== undefined;
/** Under a root that cannot be read no shutdown request is offered (ui/not-known.ts rootWriteBlock says why). */
const rootReadable = (ctx: Ctx) => rootWriteBlock(ctx.store) === null;

/** One move for the list's keys and the filter field's ↑↓. */
const moveTeams = (ctx: Ctx, to: Move) => {
  const l = list(ctx);
  ctx.set((s) => moveTeam(s, l.rows, to, l.height));
};

const bindings: Binding<S>[] = [
  ...filterBindings(TASK_FILTER, {
    keep: endTaskFilter,
    clear: clearTaskFilter,
    backspace: backspaceTaskFilter,
    move: (ctx, by) => {
      const team = detailTeam(ctx);
      const d = ctx.state.detail;
      if (team && d) ctx.set((s) => moveTask(s, visibleTasks(team, d.taskFilter, ctx.app.now()), by));
    },
  }),
  ...filterBindings(FILTER, {
    keep: endFilter,
    clear: clearFilter,
    backspace: backspaceFilter,
    move: moveTeams,
  }),
  ...navBindings(LIST, 'teams', moveTeams, {
    place: (ctx) => ({ ...underTitles(list(ctx)), rowsPerItem: ROWS_PER_TEAM }),
  }),
  {
    keys: ['enter', 'right', 'l'],
    help: 'open the team: workers with heartbeats, tasks with blockers, live events',
    hint: 'open',
    when: LIST,
    disabled: noTeam,
    offered: teamSelected,
    run: (ctx) => {
      const t = selectedTeam(ctx);
      if (t) ctx.set((s) => openDetail(s, t.key));
    },
  },
  ...filterStartBindings(
    LIST,
    'filter teams by the words their lines show (name, phase, state, counts, age), owner, task or location',
    {
      start: startFilter,
      clear: clearFilter,
      filtered: (s) => s.filter !== '',
    },
  ),
  {
    keys: ['X'],
    help: 'ask every worker of the team to shut down (asks first; also writes shutdown.json)',
    hint: 'stop team',
    when: LIST,
    writes: true,
    readonlyText: SHUTDOWN_READONLY,
    disabled: (ctx) => rootWriteBlock(ctx.store) ?? noTeam(ctx),
    offered: (ctx) => rootReadable(ctx) && teamSelected(ctx),
    run: (ctx) => {
      const t = selectedTeam(ctx);
      if (t) askTeamShutdown(ctx, t);
    },
  },
  ...navBindings(DETAIL, 'the focused section (events: End follows the live tail)', moveInDetail),
  {
    keys: [']'],
    help: 'focus the next section: workers, tasks, events',
    hint: 'section',
    hintKeys: '[ ]',
    when: DETAIL,
    run: (c) => c.set((s) => cycleFocus(s, 1)),
  },
  { keys: ['['], help: 'focus the previous section', when: DETAIL, run: (c) => c.set((s) => cycleFocus(s, -1)) },
  {
    keys: ['/'],
    help: 'filter tasks by the words their rows show (#id, status, owner, blockers, subject, lease)',
    hint: 'tasks',
    when: DETAIL,
    run: (c) => c.set(startTaskFilter),
  },
  {
    keys: ['x'],
    help: "ask the selected worker to shut down (asks first; writes OMC's shutdown-request.json + inbox note)",
    hint: 'stop worker',
    when: DETAIL,
    writes: true,
    readonlyText: SHUTDOWN_READONLY,
    disabled: (ctx) => rootWriteBlock(ctx.store),
    offered: rootReadable,
    run: (ctx) => {
      const x = layoutOf(ctx);
      if (x) askWorkerShutdown(ctx, x.team, selectedWorker(x.layout.workers, x.d));
    },
  },
  {
    keys: ['J'],
    help: "jump: switch tmux to the selected worker's pane (its Claude process)",
    hint: 'jump',
    when: DETAIL,
    run: (ctx) => {
      const x = layoutOf(ctx);
      if (x) jumpToWorker(ctx.app, ctx.store, x.team, selectedWorker(x.layout.workers, x.d));
    },
  },
  {
    keys: ['X'],
    help: 'ask every worker of the team to shut down (asks first)',
    hint: 'stop team',
    when: DETAIL,
    writes: true,
    readonlyText: SHUTDOWN_READONLY,
    disabled: (ctx) => rootWriteBlock(ctx.store),
    offered: rootReadable,
    run: (ctx) => {
      const t = detailTeam(ctx);
      if (t) askTeamShutdown(ctx, t);
    },
  },
  {
    keys: ['escape'],
    help: 'clear the task filter',
    when: mode<S>('in a team', (s) => DETAIL.test(s) && (s.detail?.taskFilter ?? '') !== ''),
    run: (c) => c.set(clearTaskFilter),
  },
  {
    keys: ['enter', 'right', 'l'],
    help: 'on a task: open it (owner, blockers, the whole error of a failed task, the result)',
    hint: 'task',
    when: mode<S>('in a team', (s) => DETAIL.test(s) && s.detail?.focus === 'tasks'),
    run: (c) => c.set(openTask),
  },
  {
    keys: ['escape', 'backspace', 'left', 'h'],
    help: 'back to the team list',
    hint: 'back',
    when: DETAIL,
    run: (c) => c.set(closeDetail),
  },
  ...navBindings(
    TASK,
    'scroll',
    (ctx, to) => {
      const team = detailTeam(ctx);
      const d = ctx.state.detail;
      const t = team && d ? selectedTask(team, d, ctx.app.now()) : undefined;
      if (!team || !t) return;
      const total = taskLines(team, t, ctx.body.columns - 1).length;
      ctx.set((s) => scrollTask(s, scrollDelta(to, ctx.body.rows), total, ctx.body.rows));
    },
    { hint: false },
  ),
  {
    keys: ['escape', 'backspace', 'left', 'h'],
    help: 'back to the team',
    hint: 'back',
    when: TASK,
    run: (c) => c.set(closeTask),
  },
];

export const teamsPane: PaneModule<TeamsPaneState> = {
  id: 'teams',
  title: 'Teams',
  hotkey: 't',
  init: initTeamsPane,
  bindings,
  typing: {
    active: (s) => s.filterEditing || (s.detail?.taskFilterEditing ?? false),
    type: (ctx, text) => {
      const t = text.replace(/\s+/g, ' ');
      ctx.set((s) => (s.detail?.taskFilterEditing ? typeTaskFilter(s, t) : typeFilter(s, t)));
    },
  },
  beforeKey: (ctx) => {
    // Follow the sessions pane (a team session selected there preselects its team).
    const synced = followSessions(ctx.state, sessionsSelection(ctx.ui, ctx.store, ctx.app.now()), snapOf(ctx));
    if (synced !== ctx.state) ctx.set(synced);
  },
  sources: (store) => {
    const d = store.teams;
    return d ? [d.subscribe] : [];
  },
  settle(state, store, body, now) {
    const snap = store.teams.getSnapshot();
    if (state.detail) {
      const team = snap.teams.find((t) => t.key === state.detail?.key);
      if (!team) return state;
      const l = detailLayout(team, state.detail, body.columns, body.rows, now, snap.heartbeatStaleMs);
      return settleDetail(state, l.workers, l.tasks, l.rows);
    }
    const l = teamsListLayout(state, snap, body, now);
    return settleTeams(state, l.rows, l.height);
  },
  View: TeamsView,
  nextTick(state, store, now) {
    const snap = store.teams.getSnapshot();
    if (!snap) return Infinity;
    let next = Infinity;
    const teams = state.detail ? snap.teams.filter((t) => t.key === state.detail?.key) : snap.teams;
    for (const t of teams) {
      next = Math.min(next, ageTickMs(t.updatedMs, now));
      for (const w of t.workers) {
        const at = livenessChangesAt(w, now, snap.heartbeatStaleMs);
        if (at !== null) next = Math.min(next, at - now);
        if (state.detail) {
          next = Math.min(next, ageTickMs(w.heartbeat?.lastBeatMs ?? null, now));
          if (w.shutdown?.requestedMs != null && !w.shutdown.ack)
            next = Math.min(next, ageTickMs(w.shutdown.requestedMs, now));
        }
      }
    }
    return next;
  },
};
