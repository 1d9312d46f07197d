/**
 * Push from the full-screen fleet view (`--all`, `--host`): every local project's attention monitor (the one its
 * row and its panes count with) feeds push as the monitor's does: the same transitions, debounce and redaction,
 * and only for projects whose push lease this process holds (no double message when a monitor or `serve`
 * already pushes for one). A remote host's items (its attention lines) take the same notifier path; its
 * project's lease is on that machine, taken there by the stream for us (`watch --push-lease`), so they are
 * pushed from here only while no omc-top there pushes for it (RemoteHost.mayPush).
 */
import type { OmcTopConfig } from '../config/config-file.js';
import { pushForRoots, type PushFeed } from '../feeds/notify/push-roots.js';
import { shownName } from '../io/shown-path.js';
import type { LocalFleet } from './local.js';
import type { RemoteHost } from './remote.js';
import type { RemoteFleet } from './remotes.js';

/** A host's project as push names it: its name there and the machine ("shop @ boxa"). */
export function remoteProjectName(h: RemoteHost): string {
  return `${h.project || h.spec.dir || '~'} @ ${h.spec.destination}`;
}

/** Each host of `--host` (and of the config file) as a push feed: asked again as hosts come and go. */
export function remoteFeeds(remote: RemoteFleet | undefined): PushFeed[] {
  return (remote?.hostsList ?? []).map((h) => ({
    id: h.spec.label,
    project: () => remoteProjectName(h),
    onNeeds: (l) => h.onNeeds(l),
    mayPush: () => h.mayPush(),
  }));
}

export function pushFromFleet(
  fleet: LocalFleet,
  opts: {
    config: OmcTopConfig;
    readonly: boolean;
    env?: NodeJS.ProcessEnv;
    remote?: RemoteFleet;
    onProblem(line: string): void;
  },
): () => void {
  const { remote, ...rest } = opts;
  return pushForRoots({
    roots: () =>
      fleet.localRoots().map((r) => ({
        id: r.info.id,
        project: shownName(r.info.projectDir),
        root: r.info.root,
        monitor: r.monitor,
      })),
    feeds: () => remoteFeeds(remote),
    subscribe: (l) => fleet.subscribe(l),
    ...rest,
  });
}
