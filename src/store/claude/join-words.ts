/**
 * The join's own words, said the same on every surface that shows the session's process (the detail, peek, the
 * fleet row's reason, `--json`, `send`, the note and interrupt messages, the CLAUDE cell of a session row and of a fleet
 * row): how many Claude processes run the session, and a process whose hooks read another `.omc`.
 */
import { shownPath } from '../../io/shown-path.js';
import type { ProcessView } from './model.js';

/** "2 Claude processes run this session (pids 30950, 30968)"; null when one does. */
export function processesText(p: Pick<ProcessView, 'pid' | 'alsoPids'> | null): string | null {
  const others = p?.alsoPids ?? [];
  if (!p || others.length === 0) return null;
  const pids = [p.pid, ...others].sort((a, b) => a - b);
  return `${pids.length} Claude processes run this session (pids ${pids.join(', ')})`;
}

/**
 * "its pane now runs another Claude (proj-x, pid 2892): r resumes this loop in a new window"; null when the process's
 * pane is not another live Claude's (ProcessView.paneNow). The one sentence the attention item (`--json` too), the
 * detail and J say.
 */
export function paneTakenText(p: Pick<ProcessView, 'paneNow'> | null): string | null {
  const h = p?.paneNow;
  if (!h) return null;
  return `its pane now runs another Claude (${h.name ? `${h.name}, ` : ''}pid ${h.pid}): r resumes this loop in a new window`;
}

/** "Claude (pid 7) runs this session from /p/other: its hooks do not read this .omc"; null when they do. */
export function elsewhereText(p: Pick<ProcessView, 'pid' | 'elsewhere'> | null): string | null {
  if (!p?.elsewhere) return null;
  return `Claude (pid ${p.pid}) runs this session from ${shownPath(p.elsewhere)}: its hooks do not read this .omc`;
}

/**
 * The CLAUDE cell's word for a Claude running this session from where its hooks read another `.omc`: not `busy` or
 * `idle` here, since nothing runs this root's loop (its needs say the loop is orphaned: attention.ts).
 */
export const ELSEWHERE_WORD = 'elsewhere';

/** The CLAUDE cell's word for a process: ELSEWHERE_WORD when its hooks read another `.omc`, else its status. */
export const processWord = (status: string, elsewhere: boolean): string => (elsewhere ? ELSEWHERE_WORD : status);

/** The pid an answer went to, with the others when there are: "pid 30968; 2 Claude processes run this session (…)". */
export function answeredPid(p: Pick<ProcessView, 'pid' | 'alsoPids'>): string {
  const more = processesText(p);
  return more ? `pid ${p.pid}; ${more}` : `pid ${p.pid}`;
}

/** The process's reason with what the join adds (the fleet row and serve say this): "working on a turn; 2 Claude …". */
export function processReason(p: ProcessView): string {
  return [p.reason, processesText(p), elsewhereText(p)].filter((x) => x !== null).join('; ');
}
