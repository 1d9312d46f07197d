/**
 * Starts the same store and watcher the monitor would, waits for the watcher to
 * settle (file events, or polling and why), and counts the directories it has
 * to watch. A real start, not a guess from the limits: ENOSPC, EMFILE and
 * filesystems without inotify all show up as the mode the monitor would get.
 */
import { countDirectories } from '../io/watch/inotify-limits.js';
import type { RootResolution } from '../store/root.js';
import { OmcStore } from '../store/store.js';
import type { WatchMode } from '../io/watch/tree-watcher.js';

export interface WatchProbe {
  mode: WatchMode;
  detail: string;
  /** Directories under the root, the root included: one inotify watch each. */
  directories: number;
}

export async function watchProbe(res: RootResolution, poll: boolean, timeoutMs: number): Promise<WatchProbe> {
  const store = new OmcStore({
    root: res.root,
    readonly: true,
    watch: poll ? 'poll' : 'auto',
    projectDir: res.projectDir,
    rootRule: res.rule,
  });
  const settled = new Promise<void>((resolve) => {
    const done = () => {
      const m = store.status.getSnapshot().watchMode;
      if (m === 'events' || m === 'polling' || m === 'waiting') resolve();
    };
    store.status.subscribe(done);
    done();
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    store.start();
    await Promise.race([settled, timeout]);
    const { watchMode, watchDetail } = store.status.getSnapshot();
    return { mode: watchMode, detail: watchDetail, directories: countDirectories(res.root) };
  } finally {
    clearTimeout(timer);
    await store.close();
  }
}
