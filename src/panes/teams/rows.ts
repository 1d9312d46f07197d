/**
 * Pure text layout of the teams pane: team rows, worker rows, task rows,
 * event rows. Every function returns strings already cut to the width, so
 * tests can pin what a user reads at 60, 80 and 200 columns.
 */
import type { EventView, ShutdownView, TaskView, TeamView, WorkerView } from '../../store/teams/model.js';
import { workerLiveness, type Liveness } from '../../store/teams/omc-team-rules.js';
import { clip, fit, formatAge, formatAgo, formatClock, width as textWidth } from '../../ui/format.js';

/** `[██████░░░░]`: completed cells, failed cells (▒), the rest. */
export function progressBar(done: number, failed: number, total: number, cells: number): string {
  if (cells <= 0) return '';
  if (total <= 0) return '[' + '·'.repeat(cells) + ']';
  const d = Math.round((done / total) * cells);
  const f = Math.min(cells - d, Math.round((failed / total) * cells));
  return '[' + '█'.repeat(d) + '▒'.repeat(f) + '░'.repeat(Math.max(0, cells - d - f)) + ']';
}

export const shortSession = (id: string) => (id.length > 8 ? id.slice(0, 8) : id);

export function countsText(t: TeamView, compact: boolean): string {
  const c = t.counts;
  return compact
    ? `pend ${c.pending} · blk ${c.blocked} · run ${c.in_progress} · done ${c.completed} · fail ${c.failed}`
    : `${c.pending} pending · ${c.blocked} blocked · ${c.in_progress} in progress · ${c.completed} completed · ${c.failed} failed`;
}

export function phaseText(t: TeamView): string {
  return t.pipelinePhase && t.pipelinePhase !== t.phase ? `${t.phase} (${t.pipelinePhase})` : t.phase;
}

export function historyText(t: TeamView, withTimes: boolean): string {
  if (t.phaseHistory.length === 0) return 'no phase history';
  return t.phaseHistory
    .map(
      (p) =>
        (withTimes && p.atMs !== null ? `${p.phase} ${formatClock(p.atMs).slice(0, 5)}` : p.phase) +
        (withTimes && p.reason ? ` (${p.reason})` : ''),
    )
    .join(' → ');
}

export function loopText(t: TeamView): string {
  const parts: string[] = [];
  if (t.iteration !== null || t.maxIterations !== null)
    parts.push(`iter ${t.iteration ?? '?'}/${t.maxIterations ?? '?'}`);
  if (t.fixAttempt !== null || t.maxFixAttempts !== null)
    parts.push(`fix ${t.fixAttempt ?? '?'}/${t.maxFixAttempts ?? '?'}`);
  return parts.join(' · ');
}

export function ownerText(t: TeamView, full = false): string {
  if (!t.owner) return 'no owning session';
  return `session ${full ? t.owner.sessionId : shortSession(t.owner.sessionId)}`;
}

/** Workers whose liveness check fails at `now` (flagged in the list). */
export function flaggedWorkers(t: TeamView, now: number, staleMs: number): number {
  return t.workers.filter((w) => workerLiveness(w, now, staleMs).flag !== null).length;
}

export function shutdownSummary(t: TeamView): string {
  const asked = t.workers.filter((w) => w.shutdown?.requestedMs != null);
  if (asked.length === 0) return t.teamShutdownMs !== null ? '⏻ team shutdown requested' : '';
  const acked = asked.filter((w) => w.shutdown?.ack && !w.shutdown.ack.stale).length;
  return `⏻ ${acked}/${asked.length} acked`;
}

/** What a team's three list lines show, each cell whole: teamLines cuts them to the width, the `/` filter reads them. */
export function teamCells(t: TeamView, now: number, staleMs: number) {
  const flagged = flaggedWorkers(t, now, staleMs);
  const sd = shutdownSummary(t);
  const probs = t.problems.filter((p) => p.severity !== 'info').length;
  return {
    name: t.name + (t.location === 'project' ? ' ⁴ˣ' : ''),
    phase: phaseText(t),
    progress: `${t.counts.completed}/${t.counts.total}`,
    workers: `${t.workers.length}w${flagged ? ` ⚠${flagged}` : ''}`,
    age: formatAge(t.updatedMs, now),
    state: [
      t.stalled ? 'stalled: no live worker' : t.unreadable?.length ? 'live workers unknown (unreadable)' : '',
      ownerText(t),
      loopText(t),
      sd,
      probs ? `⚠ ${probs} problem${probs > 1 ? 's' : ''}` : '',
    ]
      .filter((x) => x !== '')
      .join(' · '),
    counts: countsText(t, true),
    history: historyText(t, false),
  };
}

/** The right end of a team's first line (`4w ⚠3  40s`): workers (⚠ flagged), then the age, right-aligned. */
const RIGHT_TITLES = 'WORKERS  AGE';
/** Room kept for PROGRESS before the name and phase columns get theirs: a count such as `12/30` and a space. */
const PROGRESS_MIN = 6;

/**
 * The name and phase columns of the list, shared by the rows and their titles. Narrow, they give up cells (the
 * phase first, then the name) so PROGRESS keeps room for its count (`2/6`): the count wins over their tails.
 */
function teamColumns(width: number): { nameW: number; phaseW: number } {
  const narrow = width < 70;
  let nameW = narrow ? 14 : 18;
  let phaseW = narrow ? 10 : 22;
  let short = PROGRESS_MIN - (width - (2 + nameW + 1 + phaseW + 1) - RIGHT_TITLES.length - 1);
  const give = (w: number, min: number) => {
    const k = Math.max(0, Math.min(short, w - min));
    short -= k;
    return w - k;
  };
  phaseW = give(phaseW, 6);
  nameW = give(nameW, 8);
  return { nameW, phaseW };
}

/** `[███░] 2/6` in `room` cells: the bar shrinks first, then goes; the count stays whole while it fits. */
function progressCell(t: TeamView, count: string, room: number, barMax: number): string {
  const cells = Math.min(barMax, room - textWidth(count) - 3);
  if (cells >= 3) return `${progressBar(t.counts.completed, t.counts.failed, t.counts.total, cells)} ${count}`;
  return count;
}

/** The three lines of one team in the list. */
export function teamLines(
  t: TeamView,
  now: number,
  width: number,
  staleMs: number,
  selected: boolean,
): [string, string, string] {
  const narrow = width < 70;
  const { nameW, phaseW } = teamColumns(width);
  const barCells = narrow ? 8 : 12;
  const c = teamCells(t, now, staleMs);
  const right = `${c.workers} ${c.age.padStart(4)}`;
  const head =
    (selected ? '▸ ' : '  ') +
    fit(c.name, nameW) +
    ' ' +
    // A narrow column has OMC's phase alone (the filter reads the pipeline's too).
    fit(narrow ? t.phase : c.phase, phaseW) +
    ' ';
  const room = Math.max(0, width - textWidth(head) - textWidth(right) - 1);
  const mid = fit(progressCell(t, c.progress, room, barCells), room);
  const l1 = fit(head + mid + ' ' + right, width);
  const l2 = clip(`    ${c.state}`, width);
  const l3 = clip(`    ${c.counts} · ${c.history}`, width);
  return [l1, l2, l3];
}

/**
 * The column titles, with the list's note (`↓3 more`) in the blank run before WORKERS when it fits there; when
 * the row is too narrow for both, the note wins over the right titles (the legend in `?` explains `4w ⚠3`).
 */
export function teamsHeader(width: number, note = ''): string {
  const { nameW, phaseW } = teamColumns(width);
  const left = '  ' + fit('TEAM', nameW) + ' ' + fit('PHASE', phaseW) + ' PROGRESS';
  const room = width - textWidth(left) - RIGHT_TITLES.length;
  if (note === '') return room >= 2 ? left + ' '.repeat(room) + RIGHT_TITLES : fit(left, width);
  if (room >= textWidth(note) + 4) return left + ' '.repeat(room - textWidth(note) - 2) + note + '  ' + RIGHT_TITLES;
  const bare = fit(left, Math.max(0, width - textWidth(note) - 2));
  return fit(bare + '  ' + note, width);
}

/** "3m", "30s", "90s": how OMC's thresholds read. */
export function durationText(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000}m` : `${Math.round(ms / 1000)}s`;
}

export function flagText(l: Liveness, w: WorkerView): string {
  switch (l.flag) {
    case 'no-heartbeat':
      return '⚠ no heartbeat';
    case 'pid-gone':
      return `⚠ pid ${w.heartbeat?.pid ?? '?'} gone`;
    case 'not-beating':
      return `⚠ no beat in ${durationText(l.thresholdMs)}`;
    case 'unreadable':
      return '⚠ heartbeat unreadable';
    default:
      return l.alive ? 'ok' : w.heartbeat && !w.heartbeat.reportedAlive ? 'stopped' : '';
  }
}

export function shutdownText(s: ShutdownView | null, now: number): string {
  if (!s) return '';
  if (s.ack && !s.ack.stale)
    return s.ack.status === 'accept'
      ? `⏻ accepted${s.ack.reason ? `: ${s.ack.reason}` : ''}`
      : `⏻ rejected${s.ack.reason ? `: ${s.ack.reason}` : ''}`;
  if (s.requestedMs !== null)
    return `⏻ asked ${formatAgo(s.requestedMs, now)}, no ack yet${s.ack?.stale ? ' (older ack ignored)' : ''}`;
  return '';
}

/** One worker row: name, role, state, current task, heartbeat age, flag, shutdown state. */
export function workerLine(w: WorkerView, now: number, width: number, staleMs: number, selected: boolean): string {
  const l = workerLiveness(w, now, staleMs);
  const narrow = width < 70;
  const beat = formatAge(w.heartbeat?.lastBeatMs ?? null, now);
  const task = w.currentTaskId ? `#${w.currentTaskId}${w.currentTaskSubject ? ' ' + w.currentTaskSubject : ''}` : '—';
  // OMC's own "non-reporting" (working, >5 turns) fires for every long task; it stays in --json only.
  const tail = [flagText(l, w), shutdownText(w.shutdown, now), w.inConfig || w.bridge ? '' : 'not in config']
    .filter((x) => x !== '')
    .join(' · ');
  const fixed =
    (selected ? '▸ ' : '  ') +
    fit(w.name, narrow ? 10 : 12) +
    ' ' +
    (narrow ? '' : fit(w.role ?? '—', 8) + ' ') +
    fit(w.state, 8) +
    ' ' +
    fit(beat.padStart(4), 5);
  const rest = Math.max(0, width - textWidth(fixed) - 1);
  const tailW = Math.min(rest, Math.max(narrow ? 14 : 18, tail.length));
  const taskW = Math.max(0, rest - tailW - 1);
  return fit(fixed + ' ' + (taskW > 0 ? fit(task, taskW) + ' ' : '') + tail, width);
}

/** What a task's row shows, each cell whole: taskLine cuts them to the width, the detail's `/` filter reads them. */
export function taskCells(t: TaskView, now: number) {
  const lease =
    t.leaseUntilMs !== null && t.leaseUntilMs < now ? ` (lease expired ${formatAge(t.leaseUntilMs, now)} ago)` : '';
  return {
    id: `#${t.id}`,
    status: t.problem && t.subject === '(unreadable task)' ? '⚠ invalid' : t.status.replace('_', ' '),
    owner: t.owner ?? '—',
    blockers:
      t.openBlockers.length > 0
        ? `⛓${t.openBlockers.join(',')}`
        : t.blockedBy.length > 0
          ? `(${t.blockedBy.join(',')})`
          : '',
    subject: t.subject + lease + (t.status === 'failed' && t.error ? ` — ${t.error}` : ''),
  };
}

export function taskLine(t: TaskView, width: number, selected: boolean, now: number): string {
  const narrow = width < 70;
  const c = taskCells(t, now);
  const fixed =
    (selected ? '▸ ' : '  ') +
    fit(c.id, 5) +
    ' ' +
    fit(c.status, 11) +
    ' ' +
    fit(c.owner, narrow ? 9 : 11) +
    ' ' +
    (narrow ? '' : fit(c.blockers, 8) + ' ');
  const subject = (narrow && c.blockers ? c.blockers + ' ' : '') + c.subject;
  return fit(fixed + subject, width);
}

export function eventLine(e: EventView, width: number): string {
  const at = e.atMs === null ? '--:--:--' : formatClock(e.atMs);
  const who = e.worker ?? '';
  const what = [e.taskId ? `task ${e.taskId}` : '', e.text].filter((x) => x !== '').join(' · ');
  return fit(`  ${at} ${fit(e.type, 16)} ${fit(who, 12)} ${what}`, width);
}
