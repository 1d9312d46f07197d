/**
 * The lines of one opened team: a header (phase, owner, loop numbers,
 * progress, phase history), then three sections — workers, tasks, the live
 * tail of events.jsonl — sharing the rows that are left, the focused section
 * getting the most. Pure, so the key map can page by the same heights the
 * view draws, and tests can pin the text.
 */
import type { TaskView, TeamView, WorkerView } from '../../store/teams/model.js';
import { workerLiveness } from '../../store/teams/omc-team-rules.js';
import { clip, formatAgo } from '../../ui/format.js';
import { eventsWindow, SECTIONS, taskIds, visibleTasks, workerIds, type DetailState, type Section } from './reducer.js';
import { listView, moreText, withNote } from '../../kit/list.js';
import {
  countsText,
  durationText,
  eventLine,
  historyText,
  loopText,
  ownerText,
  phaseText,
  progressBar,
  taskLine,
  workerLine,
} from './rows.js';

export type Tone = 'title' | 'section' | 'focus' | 'dim' | 'warn' | 'error' | 'ok';

export interface Line {
  text: string;
  tone?: Tone;
  /** The selected row of the focused section. */
  selected?: boolean;
}

export interface DetailLayout {
  lines: Line[];
  /** Rows each section got, for paging. */
  rows: Record<Section, number>;
  tasks: TaskView[];
  workers: readonly WorkerView[];
}

function headerLines(t: TeamView, width: number, now: number): Line[] {
  const narrow = width < 70;
  const loops = loopText(t);
  const out: Line[] = [
    {
      text: clip(
        `${t.name}${t.location === 'project' ? ' (4.x, project .omc)' : ''}  ${phaseText(t)} · ${t.board} · ${ownerText(t, !narrow)}${loops ? ` · ${loops}` : ''}`,
        width,
      ),
      tone: 'title',
    },
    {
      text: clip(
        `${progressBar(t.counts.completed, t.counts.failed, t.counts.total, narrow ? 10 : 20)} ${t.counts.completed}/${t.counts.total} done · ${countsText(t, width < 100)}`,
        width,
      ),
    },
    { text: clip(`phases: ${historyText(t, !narrow)}`, width), tone: 'dim' },
  ];
  const notes: string[] = [];
  if (t.kind === 'bridge') notes.push('legacy MCP bridge team (heartbeats only)');
  if (t.lifecycle && t.lifecycle !== 'active') notes.push(`lifecycle ${t.lifecycle}`);
  if (t.teamShutdownMs !== null) notes.push(`team shutdown requested ${formatAgo(t.teamShutdownMs, now)}`);
  const probs = t.problems.filter((p) => p.severity !== 'info').length;
  if (probs > 0) notes.push(`⚠ ${probs} problem${probs > 1 ? 's' : ''} in this team's files (! lists them)`);
  if (notes.length > 0) out.push({ text: clip(notes.join(' · '), width), tone: probs > 0 ? 'warn' : 'dim' });
  return out;
}

/**
 * How many events the header can honestly name: all of them when the file was read from its start, else the number
 * read from its tail (the log is not read whole to count it).
 */
function eventsCount(t: TeamView): string {
  return t.eventsWhole ? String(t.eventsSeen) : `(last ${t.eventsSeen} read)`;
}

/** Shares `avail` rows between the sections: one each, then most of the rest to the focused one. */
export function allocate(avail: number, wanted: Record<Section, number>, focus: Section): Record<Section, number> {
  const rows: Record<Section, number> = { workers: 0, tasks: 0, events: 0 };
  if (avail <= 0) return rows;
  if (avail < SECTIONS.length) {
    rows[focus] = avail;
    return rows;
  }
  for (const s of SECTIONS) rows[s] = 1;
  let rest = avail - SECTIONS.length;
  const need = (s: Section) => Math.max(0, Math.max(1, wanted[s]) - rows[s]);
  const give = (s: Section, n: number) => {
    const k = Math.max(0, Math.min(n, need(s), rest));
    rows[s] += k;
    rest -= k;
  };
  give(focus, Math.ceil(rest * 0.6));
  const others = SECTIONS.filter((s) => s !== focus);
  give(others[0] as Section, Math.ceil(rest / 2));
  give(others[1] as Section, rest);
  for (const s of [focus, ...others]) give(s, rest);
  return rows;
}

export function detailLayout(
  t: TeamView,
  d: DetailState,
  width: number,
  height: number,
  now: number,
  staleMs: number,
): DetailLayout {
  const lines = headerLines(t, width, now);
  const tasks = visibleTasks(t, d.taskFilter, now);
  const workers = t.workers;
  const titles = SECTIONS.length;
  const avail = Math.max(0, height - lines.length - titles);
  const rows = allocate(avail, { workers: workers.length, tasks: tasks.length, events: t.events.length }, d.focus);
  // A section's title says, at its right end, how many of its rows are above / below its window ("↑2 ↓5 more").
  const title = (s: Section, text: string, more = ''): Line => ({
    text: withNote(`${d.focus === s ? '▌' : ' '}${text}`, more, width, clip),
    tone: d.focus === s ? 'focus' : 'section',
  });

  // Workers.
  let alive = 0;
  let flagged = 0;
  for (const w of workers) {
    const l = workerLiveness(w, now, staleMs);
    if (l.alive) alive++;
    if (l.flag) flagged++;
  }
  const wView = listView(d.workers, workerIds(workers), rows.workers);
  const wSel = wView.index;
  lines.push(
    title(
      'workers',
      `WORKERS ${workers.length} · ${alive} alive${flagged ? ` · ${flagged} flagged` : ''} · beat within ${durationText(staleMs)}`,
      moreText(wView, rows.workers, workers.length),
    ),
  );
  if (workers.length === 0)
    lines.push({ text: clip('  no workers listed yet (config.json has none, no worker dirs)', width), tone: 'dim' });
  else {
    const top = wView.top;
    workers.slice(top, top + rows.workers).forEach((w, i) => {
      const l = workerLiveness(w, now, staleMs);
      const isSel = top + i === wSel;
      lines.push({
        text: workerLine(w, now, width, staleMs, isSel),
        tone: l.flag ? 'warn' : w.shutdown?.ack && !w.shutdown.ack.stale ? 'ok' : undefined,
        selected: isSel && d.focus === 'workers',
      });
    });
  }

  // Tasks.
  const filterText =
    d.taskFilterEditing || d.taskFilter !== ''
      ? ` · /${d.taskFilter}${d.taskFilterEditing ? '▏' : ''} ${tasks.length} of ${t.tasks.length} match`
      : '';
  const tView = listView(d.tasks, taskIds(tasks), rows.tasks);
  const tSel = tView.index;
  lines.push(title('tasks', `TASKS ${t.counts.total}${filterText}`, moreText(tView, rows.tasks, tasks.length)));
  if (tasks.length === 0)
    lines.push({
      text: clip(t.tasks.length === 0 ? '  no tasks yet' : '  no task matches the filter', width),
      tone: 'dim',
    });
  else {
    const top = tView.top;
    tasks.slice(top, top + rows.tasks).forEach((k, i) => {
      const isSel = top + i === tSel && d.focus === 'tasks';
      lines.push({
        text: taskLine(k, width, isSel, now),
        tone: k.problem
          ? 'error'
          : k.status === 'failed'
            ? 'error'
            : k.status === 'completed'
              ? 'dim'
              : k.openBlockers.length > 0 || k.status === 'blocked'
                ? 'warn'
                : undefined,
        selected: isSel,
      });
    });
  }

  // Events: the newest at the bottom; scrolled back, held at the event last shown (reducer.ts eventsWindow).
  const ev = t.events;
  const win = eventsWindow(t, d.events, rows.events);
  const following = win.end === ev.length;
  const evMore = moreText({ index: 0, top: win.start }, win.end - win.start, ev.length);
  lines.push(
    title('events', `EVENTS ${eventsCount(t)}${following ? ' · live' : ' · scrolled back (G follows)'}`, evMore),
  );
  if (ev.length === 0)
    lines.push({ text: clip('  no events yet (events.jsonl is empty or missing)', width), tone: 'dim' });
  else {
    const { start, end } = win;
    for (const e of ev.slice(start, end)) {
      lines.push({
        text: eventLine(e, width),
        tone:
          e.type.includes('fail') || e.type.includes('stopped')
            ? 'warn'
            : e.type.includes('completed') || e.type === 'shutdown_ack'
              ? 'ok'
              : undefined,
      });
    }
  }
  return { lines: lines.slice(0, height), rows, tasks, workers };
}
