/**
 * Push from the full-screen fleet view (`--all`): every local project's attention monitor (the one its row and
 * its panes count with) feeds push as the monitor's does: the same transitions, debounce and redaction, and
 * only for projects whose push lease this process holds (no double message when a monitor or `serve` already
 * pushes for one). Remote hosts' rows are not pushed from here: their own omc-top would push for them.
 */
import path from 'node:path';
import type { OmcTopConfig } from '../config/config-file.js';
import { pushForRoots } from '../feeds/notify/push-roots.js';
import type { LocalFleet } from './local.js';

export function pushFromFleet(
  fleet: LocalFleet,
  opts: { config: OmcTopConfig; readonly: boolean; env?: NodeJS.ProcessEnv; onProblem(line: string): void },
): () => void {
  return pushForRoots({
    roots: () =>
      fleet.localRoots().map((r) => ({
        id: r.info.id,
        project: path.basename(r.info.projectDir),
        root: r.info.root,
        monitor: r.monitor,
      })),
    subscribe: (l) => fleet.subscribe(l),
    ...opts,
  });
}
