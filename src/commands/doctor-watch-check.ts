/** Doctor's watch check: the mode a real watcher start got, against the kernel's inotify limits. */
import { inotifyLimits } from '../io/watch/inotify-limits.js';
import { POLL_CHOSEN_WORDS } from '../io/watch/tree-watcher.js';
import type { CheckStatus, DoctorCheck } from './doctor-types.js';
import type { WatchProbe } from './doctor-watch.js';

export function watchCheck(probe: WatchProbe | null, poll: boolean, procRoot: string): DoctorCheck {
  const { watches, instances } = inotifyLimits(procRoot);
  const data: Record<string, unknown> = {
    requested: poll ? 'poll' : 'auto',
    mode: probe?.mode ?? null,
    detail: probe?.detail ?? null,
    directories: probe?.directories ?? null,
    maxUserWatches: watches,
    maxUserInstances: instances,
  };
  const details: string[] = [];
  if (watches !== null || instances !== null) {
    details.push(
      `inotify limits (per user, all processes): max_user_watches ${watches ?? 'unknown'}, ` +
        `max_user_instances ${instances ?? 'unknown'}`,
    );
  }
  if (probe) {
    details.push(
      `this tree needs about ${probe.directories} watch${probe.directories === 1 ? '' : 'es'} (one per directory) and 1 instance`,
    );
  }
  if (!probe) {
    return { id: 'watch', title: 'watching', status: 'info', summary: 'no .omc root to watch', details, data };
  }
  let status: CheckStatus = 'ok';
  let summary: string;
  if (probe.mode === 'events') summary = 'file events (inotify)';
  // The user's choice, in the words the monitor and the fleet say it with: a fact, not a warning.
  else if (probe.mode === 'polling' && poll) summary = POLL_CHOSEN_WORDS;
  else if (probe.mode === 'polling') {
    status = 'warn';
    summary = `polling every second: ${probe.detail}`;
  } else {
    status = 'warn';
    summary = `watcher did not settle (${probe.mode}: ${probe.detail})`;
  }
  const tight = watches !== null && probe.directories * 2 > watches;
  if (tight) {
    if (status === 'ok' && !poll) status = 'warn';
    details.push(
      `raise the limit (sudo sysctl fs.inotify.max_user_watches=${Math.max(524288, probe.directories * 4)}) ` +
        'or use --poll',
    );
  }
  return { id: 'watch', title: 'watching', status, summary, details, data };
}
