/**
 * The fleet view's terminal notifications (`--all`, `--host`): every local project's attention monitor (the one its
 * row, its panes and its count read) and each host's stream of items feed one Notifier on the channels the monitor
 * uses (attention-terminal.ts terminalChannels: `--notify`, the config's `notify`, else bell and tmux). So a
 * transition that needs you rings as in the monitor, with its debounce (one notification for what arrives
 * together, across projects, "+N more"), its repeat guard and reason rules, named by its project. `N` switches it
 * off and on. Push stays with push-roots.ts (its lease decides which omc-top pushes).
 */
import type { OmcTopConfig } from '../../config/config-file.js';
import type { AttentionMonitor } from '../attention/monitor.js';
import { terminalChannels } from './attention-terminal.js';
import { Notifier, raisedBy } from './notifier.js';
import type { PushFeed } from './push-roots.js';
import type { NotifySwitch } from './switch-words.js';

export interface RingRoot {
  id: string;
  project: string;
  monitor: AttentionMonitor;
}

export interface FleetRinger {
  /** The `N` switch (the opened project's panes use it too). */
  notifier: NotifySwitch;
  /** The `--notify` value is bad (the defaults apply): one line to show. */
  configError: string | null;
  /** The config file changed: its `notify` (channels, debounce, reasons) from now on; `--notify` still wins. */
  configure(config: OmcTopConfig): void;
  dispose(): void;
}

export function ringForRoots(opts: {
  roots(): readonly RingRoot[];
  /** Remote projects (`--host`, the config file's hosts): asked again whenever `subscribe` calls. */
  feeds?(): readonly PushFeed[];
  /** Called when roots or hosts may have been added, opened again (a new monitor) or closed. */
  subscribe(l: () => void): () => void;
  notify?: string;
  config: OmcTopConfig;
  write(bytes: string): void;
  env?: NodeJS.ProcessEnv;
}): FleetRinger {
  const { channels, error } = terminalChannels(opts.notify, opts.config);
  const notifier = new Notifier({
    channels,
    project: 'omc-top --all',
    config: opts.config,
    write: opts.write,
    env: opts.env,
  });
  const attached = new Map<string, { monitor: AttentionMonitor; off: () => void }>();
  const sync = () => {
    const now = opts.roots();
    const ids = new Set(now.map((r) => r.id));
    for (const [id, a] of attached) {
      if (ids.has(id)) continue;
      a.off();
      attached.delete(id);
    }
    for (const r of now) {
      const had = attached.get(r.id);
      if (had?.monitor === r.monitor) continue;
      had?.off();
      const off = r.monitor.onTransitions((batch) => notifier.handle(batch, r.monitor.isAcked, r.project));
      attached.set(r.id, { monitor: r.monitor, off });
    }
    // Hosts by their label: one taken out of the config file stops ringing, one added starts.
    const feeds = opts.feeds?.() ?? [];
    const feedIds = new Set(feeds.map((f) => f.id));
    for (const [id, off] of feedsOn) {
      if (feedIds.has(id)) continue;
      off();
      feedsOn.delete(id);
    }
    for (const f of feeds) {
      if (feedsOn.has(f.id)) continue;
      feedsOn.set(
        f.id,
        f.onNeeds((items) => notifier.handle(items.map(raisedBy), undefined, f.project())),
      );
    }
  };
  const feedsOn = new Map<string, () => void>();
  sync();
  const offRoots = opts.subscribe(sync);
  return {
    notifier: { isEnabled: () => notifier.isEnabled(), setEnabled: (on) => notifier.setEnabled(on), fleet: true },
    configError: error,
    configure(config) {
      notifier.configure(terminalChannels(opts.notify, config).channels, config);
    },
    dispose() {
      offRoots();
      for (const a of attached.values()) a.off();
      attached.clear();
      feedsOn.forEach((off) => off());
      feedsOn.clear();
      notifier.dispose();
    },
  };
}
