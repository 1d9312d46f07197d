import { isChar, isCtrl, isKey, type InputEvent } from '../../input/keys.js';
import { livenessChangesAt } from '../../store/team/omc-team-rules.js';
import { ageTickMs } from '../../ui/format.js';
import type { KeyContext, PaneModule } from '../types.js';
import { detailLayout } from './detail.js';
import { followSessions, sessionsSelection } from './link.js';
import {
  backspaceFilter,
  backspaceTaskFilter,
  clearFilter,
  clearTaskFilter,
  closeDetail,
  cycleFocus,
  endFilter,
  endTaskFilter,
  initTeamsPane,
  moveTask,
  moveTeam,
  moveWorker,
  openDetail,
  scrollEvents,
  selectedTeamIndex,
  startFilter,
  startTaskFilter,
  typeFilter,
  typeTaskFilter,
  visibleTasks,
  visibleTeams,
  type TeamsPaneState,
} from './reducer.js';
import { askTeamShutdown, askWorkerShutdown } from './shutdown-flow.js';
import { TeamsView } from './view.js';

/** The pane's height as the app lays it out (header, problem lines, message, footer). */
const paneRows = (ctx: KeyContext<TeamsPaneState>) =>
  Math.max(
    1,
    ctx.size.rows - 1 - 3 - (ctx.store.problems.getSnapshot().length === 0 ? 0 : ctx.size.rows - 1 >= 20 ? 2 : 1),
  );

type Move = 'down' | 'up' | 'pagedown' | 'pageup' | 'home' | 'end';

function moveKey(ev: InputEvent): Move | null {
  if (isKey(ev, 'down') || isChar(ev, 'j')) return 'down';
  if (isKey(ev, 'up') || isChar(ev, 'k')) return 'up';
  if (isKey(ev, 'pagedown') || isCtrl(ev, 'd')) return 'pagedown';
  if (isKey(ev, 'pageup') || isCtrl(ev, 'u')) return 'pageup';
  if (isKey(ev, 'home') || isChar(ev, 'g')) return 'home';
  if (isKey(ev, 'end') || isChar(ev, 'G')) return 'end';
  return null;
}

/** A move as (delta, absolute) for a list with `page` rows. */
function delta(m: Move, page: number): [number, boolean] {
  switch (m) {
    case 'down':
      return [1, false];
    case 'up':
      return [-1, false];
    case 'pagedown':
      return [page, false];
    case 'pageup':
      return [-page, false];
    case 'home':
      return [0, true];
    case 'end':
      return [Number.MAX_SAFE_INTEGER, true];
  }
}

function typing(ev: InputEvent): string | null {
  if (ev.kind === 'paste') return ev.text.replace(/\s+/g, ' ');
  return ev.key.name === 'char' && !ev.key.ctrl && !ev.key.meta ? ev.key.ch : null;
}

function onKey(ev: InputEvent, ctx: KeyContext<TeamsPaneState>): boolean {
  const snap = ctx.store.teams.getSnapshot();
  // Follow the sessions pane first (a team session selected there preselects its team).
  const synced = followSessions(ctx.state, sessionsSelection(ctx.ui, ctx.store), snap);
  if (synced !== ctx.state) ctx.set(synced);
  const state = synced;
  const { set } = ctx;

  if (state.detail) {
    const team = snap.teams.find((t) => t.key === state.detail?.key);
    const d = state.detail;
    if (d.taskFilterEditing) {
      const text = typing(ev);
      if (isKey(ev, 'enter')) set(endTaskFilter);
      else if (isKey(ev, 'escape')) set(clearTaskFilter);
      else if (isKey(ev, 'backspace')) set(backspaceTaskFilter);
      else if ((isKey(ev, 'down') || isKey(ev, 'up')) && team)
        set((s) => moveTask(s, visibleTasks(team, d.taskFilter), isKey(ev, 'down') ? 1 : -1));
      else if (text !== null) set((s) => typeTaskFilter(s, text));
      else return false;
      return true;
    }
    if (ev.kind !== 'key') return false;
    if (isKey(ev, 'escape') && d.taskFilter !== '') {
      set(clearTaskFilter);
      return true;
    }
    if (isKey(ev, 'escape') || isKey(ev, 'backspace') || isKey(ev, 'left') || isChar(ev, 'h')) {
      set(closeDetail);
      return true;
    }
    if (!team) return false;
    const layout = detailLayout(team, d, ctx.size.columns, paneRows(ctx), ctx.app.now(), snap.heartbeatStaleMs);
    const m = moveKey(ev);
    if (m) {
      const [n, abs] = delta(m, Math.max(1, layout.rows[d.focus] - 1));
      if (d.focus === 'workers') set((s) => moveWorker(s, layout.workers, n, abs));
      else if (d.focus === 'tasks') set((s) => moveTask(s, layout.tasks, n, abs));
      else {
        // Events: "down" is towards the newest; End follows the live tail again.
        const total = team.events.length;
        const back = m === 'end' ? -Infinity : m === 'home' ? Infinity : -n;
        set((s) => scrollEvents(s, total, layout.rows.events, back));
      }
      return true;
    }
    if (isKey(ev, 'tab')) set((s) => cycleFocus(s, 1));
    else if (isKey(ev, 'backtab')) set((s) => cycleFocus(s, -1));
    else if (isChar(ev, '/')) set(startTaskFilter);
    else if (isChar(ev, 'x'))
      askWorkerShutdown(ctx, team, layout.workers.find((w) => w.name === d.worker) ?? layout.workers[0] ?? null);
    else if (isChar(ev, 'X')) askTeamShutdown(ctx, team);
    else return false;
    return true;
  }

  if (state.filterEditing) {
    const text = typing(ev);
    if (isKey(ev, 'enter')) set(endFilter);
    else if (isKey(ev, 'escape')) set(clearFilter);
    else if (isKey(ev, 'backspace')) set(backspaceFilter);
    else if (isKey(ev, 'down') || isKey(ev, 'up'))
      set((s) => moveTeam(s, visibleTeams(snap, s.filter), isKey(ev, 'down') ? 1 : -1));
    else if (text !== null) set((s) => typeFilter(s, text));
    else return false;
    return true;
  }
  if (ev.kind !== 'key') return false;
  const rows = visibleTeams(snap, state.filter);
  const sel = rows[selectedTeamIndex(state, rows)];
  const m = moveKey(ev);
  if (m) {
    const [n, abs] = delta(m, Math.max(1, Math.floor((paneRows(ctx) - 1) / 3)));
    set((s) => moveTeam(s, rows, n, abs));
  } else if (isChar(ev, '/')) set(startFilter);
  else if (isKey(ev, 'escape') && state.filter !== '') set(clearFilter);
  else if ((isKey(ev, 'enter') || isKey(ev, 'right') || isChar(ev, 'l')) && sel) set((s) => openDetail(s, sel.key));
  else if (isChar(ev, 'X') && sel) askTeamShutdown(ctx, sel);
  else return false;
  return true;
}

export const teamsPane: PaneModule<TeamsPaneState> = {
  id: 'teams',
  title: 'Teams',
  hotkey: 't',
  init: initTeamsPane,
  onKey,
  capturesText: (s) => s.filterEditing || (s.detail?.taskFilterEditing ?? false),
  hints: (s) =>
    s.filterEditing || s.detail?.taskFilterEditing
      ? [
          ['type', 'filter'],
          ['⏎', 'keep'],
          ['Esc', 'clear'],
        ]
      : s.detail
        ? [
            ['Tab', 'section'],
            ['↑↓', 'move'],
            ['x', 'stop worker'],
            ['X', 'stop team'],
            ['/', 'tasks'],
            ['Esc', 'back'],
          ]
        : [
            ['↑↓ jk', 'move'],
            ['⏎', 'open'],
            ['/', 'filter'],
            ['X', 'stop team'],
          ],
  help: [
    ['j / k, ↑ / ↓', 'move the selection (teams; in a team: workers, tasks, or scroll events)'],
    ['g / G, Home / End', 'first / last (events: oldest kept / follow the live tail)'],
    ['PgUp / PgDn, Ctrl-U / Ctrl-D', 'page up / down'],
    ['Enter, →, l', 'open the team: workers with heartbeats, tasks with blockers, live events'],
    ['Tab / Shift-Tab', 'in a team: switch between workers, tasks and events'],
    ['/', 'filter teams (in a team: filter tasks by #id, status, owner or subject)'],
    ['x', "ask the selected worker to shut down (asks first; writes OMC's shutdown-request.json + inbox note)"],
    ['X', 'ask every worker of the team to shut down (asks first; also writes shutdown.json)'],
    ['Esc', 'clear the filter / back to the team list'],
    ['t in Sessions', 'opens this pane with the selected team session’s team preselected'],
    ['⚠ flags', 'no heartbeat yet · pid gone · no beat within OMC’s threshold (180 s; OMC_TEAM_HEARTBEAT_STALE_MS)'],
  ],
  View: TeamsView,
  nextTick(state, store, now) {
    const snap = store.teams.getSnapshot();
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
