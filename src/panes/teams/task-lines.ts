/** One task in full (Enter on a task): nothing is cut, long text wraps at the pane width. */
import type { TaskView, TeamView } from '../../store/teams/model.js';
import { formatTimestamp, wrapText } from '../../ui/format.js';
import type { ToneLine } from '../../ui/scroll-lines.js';

export function taskLines(team: TeamView, t: TaskView, width: number): ToneLine[] {
  const out: ToneLine[] = [];
  const push = (text: string, tone?: string) => {
    for (const l of wrapText(text, Math.max(10, width))) out.push({ text: l, tone });
  };
  push(`Task #${t.id} of team ${team.name}: ${t.subject}`, 'title');
  push(`status: ${t.status.replace('_', ' ')}   owner: ${t.owner ?? '—'}`);
  if (t.blockedBy.length > 0)
    push(
      `blocked by: ${t.blockedBy.map((b) => `#${b}${t.openBlockers.includes(b) ? ' (open)' : ' (done)'}`).join(', ')}`,
      t.openBlockers.length > 0 ? 'warn' : undefined,
    );
  if (t.leaseUntilMs !== null) push(`claim lease until: ${formatTimestamp(t.leaseUntilMs)}`, 'dim');
  push(`file: ${t.path}`, 'dim');
  if (t.problem) push(`⚠ ${t.problem}`, 'warn');
  if (t.description) {
    // What the worker was asked to do: OMC's task body, its own lines kept.
    out.push({ text: '' });
    push('description:', 'dim');
    for (const line of t.description.split('\n')) push(`  ${line}`);
  }
  if (t.error) {
    out.push({ text: '' });
    push('error:', 'error');
    for (const line of t.error.split('\n')) push(`  ${line}`, 'error');
  }
  if (t.result) {
    out.push({ text: '' });
    push('result:', 'ok');
    for (const line of t.result.split('\n')) push(`  ${line}`);
  }
  return out;
}
