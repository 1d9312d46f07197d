/**
 * Teams pane state and its pure transitions. Selections are kept by key / name
 * / id, not by row index, so rows that move (a team turned "done", a task was
 * added) keep the selection where the user put it.
 */
import { initList, listView, moveList, scrollTo, settleList, type ListState, type Move } from '../../kit/list.js';
import type { TaskView, TeamView, TeamsSnapshot, WorkerView } from '../../store/teams/model.js';
import { ClockedRowsMemo, filterWords, showsEveryWord } from '../../kit/row-filter.js';
import { taskCells, teamCells } from './rows.js';

export type Section = 'workers' | 'tasks' | 'events';
export const SECTIONS: readonly Section[] = ['workers', 'tasks', 'events'];

/**
 * Where the events view is held while scrolled back: the newest shown event, by its place in the reading of
 * events.jsonl it came from (TeamView.eventsReading / eventSeq), so appended events do not slide the lines being read.
 * null follows the live tail.
 */
export interface EventsAnchor {
  reading: number;
  seq: number;
}

export interface DetailState {
  key: string;
  focus: Section;
  /** The selected worker and task by name / id, with the kit's nearest-neighbour fallback and scroll window. */
  workers: ListState;
  tasks: ListState;
  events: EventsAnchor | null;
  taskFilter: string;
  taskFilterEditing: boolean;
  /** Enter on a task: its full text (owner, blockers, result, the whole error), scrolled by `taskScroll`. */
  taskOpen: boolean;
  taskScroll: number;
}

export interface TeamsPaneState {
  /** The selected team (by key) and the list's scroll window (in teams, not rows). */
  list: ListState;
  filter: string;
  filterEditing: boolean;
  /**
   * The sessions-pane selection that was current when this pane last synced
   * with it (undefined: never). When it differs, the sessions pane moved and
   * the team of the newly selected session is preselected (link.ts).
   */
  anchorSession: string | null | undefined;
  detail: DetailState | null;
}

export const initTeamsPane = (): TeamsPaneState => ({
  list: initList(),
  filter: '',
  filterEditing: false,
  anchorSession: undefined,
  detail: null,
});

/**
 * The words the list's `/` filter reads in a team: what its three lines show at `now` (rows.ts teamCells), and
 * beside them its board word (running, blocked, done…), its owner's whole session id, its task, where it lives, its
 * kind and `problem` when it has one (the detail says each).
 */
function teamSearchText(t: TeamView, now: number, staleMs: number): string {
  return [
    ...Object.values(teamCells(t, now, staleMs)),
    t.board,
    t.owner?.sessionId ?? '',
    t.task ?? '',
    t.location,
    t.kind,
    t.problems.length ? 'problem' : '',
  ].join(' ');
}

const teamMemo = new ClockedRowsMemo<TeamsSnapshot, TeamView>();

/**
 * The list's order: teams that finished last, otherwise newest team first,
 * then by key. Running / blocked / waiting flip with every claimed or
 * finished task, so they do not move a row: the list keeps its order while a
 * team works, and a row moves only when its team is done.
 */
export function compareTeamRows(a: TeamView, b: TeamView): number {
  const ad = a.board === 'done' ? 1 : 0;
  const bd = b.board === 'done' ? 1 : 0;
  if (ad !== bd) return ad - bd;
  const ac = a.createdMs ?? -Infinity;
  const bc = b.createdMs ?? -Infinity;
  if (ac !== bc) return bc - ac;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

const orderMemo = new WeakMap<TeamsSnapshot, TeamView[]>();
function ordered(snap: TeamsSnapshot): TeamView[] {
  let rows = orderMemo.get(snap);
  if (!rows) orderMemo.set(snap, (rows = [...snap.teams].sort(compareTeamRows)));
  return rows;
}

/** Teams shown for a filter: every word must be in what the team's lines show at `now` (teamSearchText). */
export function visibleTeams(snap: TeamsSnapshot, filter: string, now: number): TeamView[] {
  const words = filterWords(filter);
  if (words.length === 0) return ordered(snap);
  return teamMemo.rows(snap, words.join(' '), now, () =>
    ordered(snap).filter((t) => showsEveryWord(teamSearchText(t, now, snap.heartbeatStaleMs), words)),
  );
}

const taskMemo = new ClockedRowsMemo<TeamView, TaskView>();

/**
 * Tasks shown for the detail filter: every word must be in what the task's row shows at `now` (rows.ts taskCells),
 * or be its status as OMC writes it (`in_progress`) or `blocked-by-<id>` for a task it waits on.
 */
export function visibleTasks(team: TeamView, filter: string, now: number): TaskView[] {
  const words = filterWords(filter);
  if (words.length === 0) return team.tasks as TaskView[];
  return taskMemo.rows(team, words.join(' '), now, () =>
    team.tasks.filter((t) =>
      showsEveryWord(
        [...Object.values(taskCells(t, now)), t.status, ...t.blockedBy.map((b) => `blocked-by-${b}`)].join(' '),
        words,
      ),
    ),
  );
}

const workerIdsMemo = new WeakMap<readonly WorkerView[], string[]>();
export function workerIds(rows: readonly WorkerView[]): string[] {
  let ids = workerIdsMemo.get(rows);
  if (!ids) workerIdsMemo.set(rows, (ids = rows.map((w) => w.name)));
  return ids;
}

const taskIdsMemo = new WeakMap<readonly TaskView[], string[]>();
export function taskIds(rows: readonly TaskView[]): string[] {
  let ids = taskIdsMemo.get(rows);
  if (!ids) taskIdsMemo.set(rows, (ids = rows.map((t) => t.id)));
  return ids;
}

const keysMemo = new WeakMap<readonly TeamView[], string[]>();
export function teamKeys(rows: readonly TeamView[]): string[] {
  let keys = keysMemo.get(rows);
  if (!keys) keysMemo.set(rows, (keys = rows.map((t) => t.key)));
  return keys;
}

export function moveTeam(s: TeamsPaneState, rows: readonly TeamView[], to: Move, height: number): TeamsPaneState {
  const list = moveList(s.list, teamKeys(rows), to, height);
  return list === s.list ? s : { ...s, list };
}

export function settleTeams(s: TeamsPaneState, rows: readonly TeamView[], height: number): TeamsPaneState {
  const list = settleList(s.list, teamKeys(rows), height);
  return list === s.list ? s : { ...s, list };
}

export const startFilter = (s: TeamsPaneState): TeamsPaneState => ({ ...s, filterEditing: true });
export const typeFilter = (s: TeamsPaneState, text: string): TeamsPaneState => ({
  ...s,
  filter: s.filter + text,
});
export const backspaceFilter = (s: TeamsPaneState): TeamsPaneState => ({
  ...s,
  filter: Array.from(s.filter).slice(0, -1).join(''),
});
export const endFilter = (s: TeamsPaneState): TeamsPaneState => ({ ...s, filterEditing: false });
export const clearFilter = (s: TeamsPaneState): TeamsPaneState => ({ ...s, filter: '', filterEditing: false });

export function openDetail(s: TeamsPaneState, key: string): TeamsPaneState {
  return {
    ...s,
    list: { ...s.list, id: key },
    detail: {
      key,
      focus: 'workers',
      workers: initList(),
      tasks: initList(),
      events: null,
      taskFilter: '',
      taskFilterEditing: false,
      taskOpen: false,
      taskScroll: 0,
    },
  };
}

export const closeDetail = (s: TeamsPaneState): TeamsPaneState => ({ ...s, detail: null });

function withDetail(s: TeamsPaneState, f: (d: DetailState) => DetailState): TeamsPaneState {
  return s.detail ? { ...s, detail: f(s.detail) } : s;
}

export function cycleFocus(s: TeamsPaneState, delta: number): TeamsPaneState {
  return withDetail(s, (d) => ({
    ...d,
    focus: SECTIONS[(SECTIONS.indexOf(d.focus) + delta + SECTIONS.length) % SECTIONS.length] as Section,
  }));
}

export function moveWorker(
  s: TeamsPaneState,
  workers: readonly WorkerView[],
  to: Move,
  height = Number.MAX_SAFE_INTEGER,
): TeamsPaneState {
  return withDetail(s, (d) => ({ ...d, workers: moveList(d.workers, workerIds(workers), to, height) }));
}

export function moveTask(
  s: TeamsPaneState,
  tasks: readonly TaskView[],
  to: Move,
  height = Number.MAX_SAFE_INTEGER,
): TeamsPaneState {
  return withDetail(s, (d) => ({ ...d, tasks: moveList(d.tasks, taskIds(tasks), to, height) }));
}

/** Pins the detail's selections to the rows shown, so a later change falls back to the row now under the cursor. */
export function settleDetail(
  s: TeamsPaneState,
  workers: readonly WorkerView[],
  tasks: readonly TaskView[],
  rows: { workers: number; tasks: number },
): TeamsPaneState {
  const d = s.detail;
  if (!d) return s;
  const w = settleList(d.workers, workerIds(workers), rows.workers);
  const t = settleList(d.tasks, taskIds(tasks), rows.tasks);
  return w === d.workers && t === d.tasks ? s : { ...s, detail: { ...d, workers: w, tasks: t } };
}

/** The sequence number of `team.events[i]` in its reading of events.jsonl (stable while events are appended). */
export const eventSeq = (team: TeamView, i: number): number => team.eventsSeen - team.events.length + i;

/**
 * The events window: `end` is one past the newest shown event. Following, it is the newest; held, it is the anchored
 * event's place now. An anchor from an earlier reading (the file was replaced) follows again; an anchor older than the
 * oldest event kept (trimmed under it) shows the oldest kept.
 */
export function eventsWindow(
  team: TeamView,
  anchor: EventsAnchor | null,
  rows: number,
): { start: number; end: number } {
  const n = team.events.length;
  let end = n;
  if (anchor && anchor.reading === team.eventsReading) {
    const at = anchor.seq - eventSeq(team, 0);
    end = Math.max(Math.min(n, Math.max(0, rows)), Math.min(n, at + 1));
  }
  return { start: Math.max(0, end - Math.max(0, rows)), end };
}

/** Positive `delta` scrolls towards older events; reaching the newest follows the live tail again. */
export function scrollEvents(s: TeamsPaneState, team: TeamView, rows: number, delta: number): TeamsPaneState {
  return withDetail(s, (d) => {
    const n = team.events.length;
    const { end } = eventsWindow(team, d.events, rows);
    const next = Math.max(Math.min(n, Math.max(1, rows)), Math.min(n, end - delta));
    const events = next >= n ? null : { reading: team.eventsReading, seq: eventSeq(team, next - 1) };
    return { ...d, events };
  });
}

export const startTaskFilter = (s: TeamsPaneState) =>
  withDetail(s, (d) => ({ ...d, focus: 'tasks', taskFilterEditing: true }));
export const typeTaskFilter = (s: TeamsPaneState, text: string) =>
  withDetail(s, (d) => ({ ...d, taskFilter: d.taskFilter + text }));
export const backspaceTaskFilter = (s: TeamsPaneState) =>
  withDetail(s, (d) => ({ ...d, taskFilter: Array.from(d.taskFilter).slice(0, -1).join('') }));
export const endTaskFilter = (s: TeamsPaneState) => withDetail(s, (d) => ({ ...d, taskFilterEditing: false }));
export const clearTaskFilter = (s: TeamsPaneState) =>
  withDetail(s, (d) => ({ ...d, taskFilter: '', taskFilterEditing: false }));

export const openTask = (s: TeamsPaneState) => withDetail(s, (d) => ({ ...d, taskOpen: true, taskScroll: 0 }));
export const closeTask = (s: TeamsPaneState) => withDetail(s, (d) => ({ ...d, taskOpen: false }));
export function scrollTask(s: TeamsPaneState, delta: number, total: number, height: number): TeamsPaneState {
  return withDetail(s, (d) => ({ ...d, taskScroll: scrollTo(d.taskScroll, delta, total, height) }));
}

/** The task the detail view has selected (the first shown when none is yet; its neighbour when it went). */
export function selectedTask(team: TeamView, d: DetailState, now: number): TaskView | undefined {
  const tasks = visibleTasks(team, d.taskFilter, now);
  const i = listView(d.tasks, taskIds(tasks), Number.MAX_SAFE_INTEGER).index;
  return i < 0 ? undefined : tasks[i];
}

/** The worker the detail view has selected (as selectedTask). */
export function selectedWorker(workers: readonly WorkerView[], d: DetailState): WorkerView | null {
  const i = listView(d.workers, workerIds(workers), Number.MAX_SAFE_INTEGER).index;
  return i < 0 ? null : (workers[i] ?? null);
}
