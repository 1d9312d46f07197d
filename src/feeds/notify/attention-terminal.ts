/**
 * The full-screen app's attention layer, outside React: follows the store
 * with an AttentionMonitor (acknowledgements from omc-top's state directory),
 * hands each batch to the Notifier, keeps the status cache `status --tmux`
 * reads, and keeps the terminal title at "needs you: N" (the same count as the
 * header), pushed and popped as terminal/title.ts does for every screen.
 */
import { AckFile } from '../attention/acks.js';
import { AttentionMonitor } from '../attention/monitor.js';
import { publishStatusCache } from '../attention/status-publisher.js';
import type { OmcStore } from '../../store/store.js';
import { keepTitle, type TitleKeeper } from '../../terminal/title.js';
import { ownStateDir } from '../../io/state-dir.js';
import { loadConfig, parseChannels, type Channel, type OmcTopConfig } from '../../config/config-file.js';
import { describe, Notifier } from './notifier.js';
import { startPush } from './push/index.js';
import { LeasedPush } from './push/leased-push.js';

export const DEFAULT_CHANNELS: readonly Channel[] = ['bell', 'tmux'];

/**
 * The terminal channels a full-screen omc-top (the monitor, the fleet) notifies on: `--notify`, else the config
 * file's `notify.channels`, else bell and tmux. `error`: the `--notify` value is bad (the defaults apply).
 */
export function terminalChannels(
  notify: string | undefined,
  config: OmcTopConfig,
): { channels: readonly Channel[]; error: string | null } {
  const flag = notify === undefined ? null : parseChannels(notify);
  return {
    channels: Array.isArray(flag) ? flag : (config.notify?.channels ?? DEFAULT_CHANNELS),
    error: typeof flag === 'string' ? flag : null,
  };
}

export interface AttentionTerminal {
  notifier: Notifier;
  monitor: AttentionMonitor;
  /** Set when the config file is bad (the defaults apply): show it to the user. */
  configError: string | null;
  /** The terminal title at "needs you: N": the full-screen lifecycle pauses it while the terminal is handed over. */
  title: TitleKeeper;
  dispose(): void;
}

export function startAttentionTerminal(opts: {
  store: OmcStore;
  write(bytes: string): void;
  project: string;
  /** The `--notify` value, if given. */
  notify?: string;
  /** `--no-title`. */
  noTitle?: boolean;
  env?: NodeJS.ProcessEnv;
  /** A push channel failed (redacted, one line naming the channel and the HTTP status). */
  onProblem?(line: string): void;
  /** News (a loop finished, hit its max, was stopped by someone else): the message line and log. Never counted. */
  onNews?(text: string): void;
}): AttentionTerminal {
  const env = opts.env ?? process.env;
  const loaded = loadConfig();
  const push = startPush(loaded.config, { env: opts.env, onProblem: opts.onProblem });
  for (const p of push.problems) opts.onProblem?.(p);
  const { channels, error: flagError } = terminalChannels(opts.notify, loaded.config);
  const dir = ownStateDir(env);
  // One omc-top pushes for a project (serve or the fleet view may run on it too): the lease holder, which also
  // pushes what another saw while it held the lease, so a handover loses nothing (push/leased-push.ts).
  const sender = push.sender;
  const leased = sender
    ? new LeasedPush(dir, opts.store.root, (m, done) => sender.send(m, done), {
        readonly: opts.store.readonly,
        clock: opts.store.clock,
        onProblem: (line) => opts.onProblem?.(`push: ${line}`),
      })
    : null;
  const notifier = new Notifier({
    channels,
    project: opts.project,
    config: loaded.config,
    write: opts.write,
    env,
    ...(leased
      ? { push: (m, ids) => leased.offer([{ ids: [...ids], message: m }]), onEnabled: (on) => leased.mute(!on) }
      : {}),
  });
  const acks = new AckFile(dir, opts.store.root);
  const unwatchAcks = acks.watch();
  const monitor = new AttentionMonitor(opts.store, { acks });
  // --readonly writes nothing at all: `status --tmux` then computes the line itself.
  const unpublish = opts.store.readonly
    ? () => undefined
    : publishStatusCache({ store: opts.store, monitor, project: opts.project, dir });
  const title = keepTitle({
    enabled: !opts.noTitle && loaded.config.title !== false,
    write: opts.write,
    text: () => {
      const n = monitor.count.getSnapshot();
      return `omc-top ${opts.project}${n > 0 ? ` · needs you: ${n}` : ''}`;
    },
    onChange: (l) => monitor.count.subscribe(l),
  });
  const offTransitions = monitor.onTransitions((batch) => {
    notifier.handle(batch, monitor.isAcked);
    for (const t of batch) if (t.news) opts.onNews?.(describe(t, opts.project));
  });
  return {
    notifier,
    monitor,
    configError: flagError ?? loaded.error,
    title,
    dispose() {
      offTransitions();
      unpublish();
      unwatchAcks();
      monitor.dispose();
      // What waited for the debounce is left to the next holder of the lease (read before the notifier drops it).
      leased?.dispose(notifier.pendingPushes());
      notifier.dispose();
      push.sender?.dispose();
      title.stop();
    },
  };
}
