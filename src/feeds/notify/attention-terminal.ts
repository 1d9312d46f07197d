/**
 * The full-screen app's attention layer, outside React: follows the store
 * with an AttentionMonitor, hands each batch to the Notifier, and keeps the
 * terminal title (OSC 2) at "needs you: N". The title the terminal had is
 * pushed on its title stack at start (XTWINOPS 22) and popped back at exit
 * (23); terminals without the stack ignore both. Title text is cleaned of
 * control bytes.
 */
import { AttentionMonitor } from '../attention/monitor.js';
import type { OmcStore } from '../../store/store.js';
import { cleanLine } from '../../io/sanitize.js';
import { loadConfig, parseChannels, type Channel } from '../../config/config-file.js';
import { Notifier } from './notifier.js';
import { startPush } from './push/index.js';

export const DEFAULT_CHANNELS: readonly Channel[] = ['bell', 'tmux'];
const PUSH_TITLE = '\x1b[22;0t';
const POP_TITLE = '\x1b[23;0t';

export interface AttentionTerminal {
  notifier: Notifier;
  monitor: AttentionMonitor;
  /** Set when the config file is bad (the defaults apply): show it to the user. */
  configError: string | null;
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
}): AttentionTerminal {
  const loaded = loadConfig();
  const push = startPush(loaded.config, { env: opts.env, onProblem: opts.onProblem });
  for (const p of push.problems) opts.onProblem?.(p);
  const flag = opts.notify === undefined ? null : parseChannels(opts.notify);
  const channels = Array.isArray(flag) ? flag : (loaded.config.notify?.channels ?? DEFAULT_CHANNELS);
  const notifier = new Notifier({
    channels,
    project: opts.project,
    config: loaded.config,
    write: opts.write,
    env: opts.env,
    ...(push.sender ? { push: (m) => push.sender?.send(m) } : {}),
  });
  const monitor = new AttentionMonitor(opts.store);
  const titled = !opts.noTitle && loaded.config.title !== false;
  let shown = -1;
  const title = () => {
    const n = monitor.needsYou().length;
    if (!titled || n === shown) return;
    shown = n;
    opts.write(`\x1b]2;${cleanLine(`omc-top ${opts.project}${n > 0 ? ` · needs you: ${n}` : ''}`)}\x07`);
  };
  if (titled) opts.write(PUSH_TITLE);
  title();
  const offTransitions = monitor.onTransitions((batch) => {
    notifier.handle(batch);
    title();
  });
  // The count also changes without a transition (the progressive start's first read settling): follow it.
  const offCount = monitor.count.subscribe(title);
  const off = () => {
    offTransitions();
    offCount();
  };
  return {
    notifier,
    monitor,
    configError: typeof flag === 'string' ? flag : loaded.error,
    dispose() {
      off();
      monitor.dispose();
      notifier.dispose();
      push.sender?.dispose();
      if (titled) opts.write(POP_TITLE);
    },
  };
}
