/**
 * What the full-screen app needs of the attention layer (attention-terminal.ts
 * starts it next to the app): the "needs you" count for the header, the items
 * behind it for the problems view, and the notifier's on/off switch for the
 * toggle key. Optional everywhere: `--json`, scripts and most tests run
 * without it.
 */
import type { NeedItem } from './engine.js';
import type { Subscribable } from '../../store/types.js';

export interface AttentionControl {
  monitor: { count: Subscribable<number>; needsYou(): readonly NeedItem[] };
  notifier: { isEnabled(): boolean; setEnabled(on: boolean): void };
}

export interface NeedLine {
  path: string;
  message: string;
  severity: 'needs you';
}

/** A session's, team's or file's item as a line of the problems view: Enter then opens what it names. */
export function needLines(items: readonly NeedItem[]): NeedLine[] {
  return items.map((n) => {
    const f = n.fact;
    const path =
      f.path ??
      (f.session
        ? `state/sessions/${f.session}/`
        : f.team
          ? `state/team/${f.team}/`
          : n.kind === 'problem'
            ? '.omc'
            : '.omc');
    const who = [f.session ? f.session.slice(0, 8) : null, f.team ? `team ${f.team}` : null, f.worker, f.mode]
      .filter(Boolean)
      .join(' ');
    return { path, severity: 'needs you', message: `needs you: ${n.reason}${who ? ` (${who})` : ''}` };
  });
}

/**
 * The problems view's list: the file problems, then what needs the user (`G` reaches them; the title
 * counts them). A new problem with a file is one of the needs-you reasons, but it is already a line
 * above, so it is not listed twice.
 */
export function withNeeds<P extends { path: string; message: string; severity: string }>(
  problems: readonly P[],
  attention: AttentionControl | null | undefined,
): ReadonlyArray<P | NeedLine> {
  const items = attention ? attention.monitor.needsYou().filter((n) => n.kind !== 'problem') : [];
  return items.length === 0 ? problems : [...problems, ...needLines(items)];
}
