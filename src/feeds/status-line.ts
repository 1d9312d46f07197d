/**
 * The one-line summary for `omc-top status`: the running loops with their
 * progress and the needs-you count (the attention view's, view.ts), and a
 * mark when omc-top's state directory is unusable, filled into a user format. Pure, and light: the cheap `status --tmux` path
 * (commands/status-fast.ts) renders with it without loading the store.
 */
import { cleanLine } from '../io/sanitize.js';
import { holdsAgent, LAST_HOLDING_RANK, unreadableDirCount, type SessionsSnapshot } from '../store/sessions/model.js';
import { tmuxLiteral } from '../io/tmux-literal.js';

export const DEFAULT_FORMAT = '{loops} · needs you: {needs}';
export const FORMAT_FIELDS = ['loops', 'active', 'needs', 'project', 'state'] as const;

/**
 * A tmux status bar has room for one loop: the first in the sessions' attention order (the Sessions pane's default
 * order, the one that needs the user most), then `+N` for the others. Two sessions' loops side by side
 * (`ralph 1/100 ralph 2/100`) read as one session's; `{active}` counts them all (N = active − 1).
 */
const SHOWN_LOOPS = 1;

export interface StatusValues {
  loops: string;
  active: number;
  needs: number;
  project: string;
}

/**
 * What a line is filled from: the values (what a monitor's status cache keeps) and `state`, the state directory's
 * mark (store/state-dir/health.ts `stateDirMark`, empty while it is usable), which each call looks at itself: a
 * directory can turn unusable under a monitor whose cache still answers.
 */
export type StatusLineValues = StatusValues & { state: string };

/** The loops the Stop hook holds the agent for (or will, once armed): what a status bar should count. */
export function loopValues(sessions: SessionsSnapshot): Pick<StatusValues, 'loops' | 'active'> {
  // The live monitor asks this once a second. With the domain's count of running loops the scan stops at the
  // second loop instead of passing over 10,000 sessions; with fewer loops it stops at the first session ranked
  // after every one that can hold a loop (the stale ones). Only the shown loops get their text either way.
  const known = sessions.counts?.loops;
  const knownUnreadable = sessions.counts?.unreadable;
  const shown: string[] = [];
  let active = 0;
  let unreadable = 0;
  for (const s of sessions.sessions) {
    // An unreadable session ranks with the holding ones (derive.ts STATUS_RANK), so the walk still meets each; past
    // the shown loops it stops only when the domain counted them too (a snapshot from before that count did not).
    if (known !== undefined && (s.rank > LAST_HOLDING_RANK || (active > SHOWN_LOOPS && knownUnreadable !== undefined)))
      break;
    if (s.status === 'unreadable') unreadable += 1;
    for (const m of s.modes) {
      // Paused loops too: the Stop hook holds them again once the pause ends.
      if (!holdsAgent(m)) continue;
      active += 1;
      if (shown.length === SHOWN_LOOPS) continue;
      const progress = m.iteration === null ? '' : m.max ? ` ${m.iteration}/${m.max}` : ` ${m.iteration}`;
      shown.push(`${m.mode}${progress}`);
    }
  }
  if (known !== undefined) active = known;
  if (knownUnreadable !== undefined) unreadable = knownUnreadable;
  // A directory above the sessions that could not be listed hides any number of them: one unknown more.
  unreadable += unreadableDirCount(sessions);
  // A session omc-top could not read may hold a loop: never "no loops" then, and said apart from the loops seen.
  const unknown = unreadable === 0 ? '' : `? ${unreadable > 1 ? `${unreadable} ` : ''}unreadable`;
  const seen = active === 0 ? '' : shown.join(' ') + (active > SHOWN_LOOPS ? ` +${active - SHOWN_LOOPS}` : '');
  return {
    // The first loop in the sessions domain's attention order, and a count of the others.
    loops: seen === '' && unknown === '' ? 'no loops' : [seen, unknown].filter((t) => t !== '').join(' '),
    active,
  };
}

export function isStatusValues(v: unknown): v is StatusValues {
  const o = v as Partial<StatusValues> | null;
  return (
    !!o &&
    typeof o.loops === 'string' &&
    o.loops.length <= 2000 &&
    typeof o.project === 'string' &&
    o.project.length <= 2000 &&
    Number.isSafeInteger(o.active) &&
    Number.isSafeInteger(o.needs)
  );
}

/** Unknown `{names}` are an error (a typo should not print silently). */
export function checkFormat(format: string): string | null {
  for (const m of format.matchAll(/\{([^{}]*)\}/g)) {
    if (!(FORMAT_FIELDS as readonly string[]).includes(m[1] as string)) {
      return `unknown field {${m[1]}} in --format (known: ${FORMAT_FIELDS.map((f) => `{${f}}`).join(' ')})`;
    }
  }
  return null;
}

/**
 * With `tmux`, `#` is doubled so tmux shows it instead of reading a format or a #(command). The state mark is added
 * at the end (` · state dir unusable`) when the format does not place `{state}` itself: a status line that cannot
 * say acknowledgements and cancels are not kept would leave a script or a tmux bar believing they are.
 */
export function renderStatus(format: string, v: StatusLineValues, tmux: boolean): string {
  const filled = format.replace(/\{(loops|active|needs|project|state)\}/g, (_, k: keyof StatusLineValues) =>
    String(v[k]),
  );
  const line = cleanLine(v.state !== '' && !format.includes('{state}') ? `${filled} · ${v.state}` : filled);
  return tmux ? tmuxLiteral(line) : line;
}
