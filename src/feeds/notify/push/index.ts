/**
 * Push as the monitor starts it: the config file's channels, plus OMC's own
 * when `push.reuseOmc` is on, behind one sender. Null when no channel is set
 * (nothing runs, nothing is imported into the hot path).
 */
import type { OmcTopConfig } from '../../../config/config-file.js';
import { resolveChannel, type ResolvedChannel } from './channel.js';
import { readOmcChannels } from './omc-channels.js';
import { PushSender, type SenderOptions } from './sender.js';

export interface PushSetup {
  channels: ResolvedChannel[];
  /** Problems found while setting up (OMC's file unreadable, an OMC channel not usable). */
  problems: string[];
}

export function pushChannels(config: OmcTopConfig, env: NodeJS.ProcessEnv = process.env): PushSetup {
  const own = (config.push?.channels ?? []).map((c) => resolveChannel(c, 'config'));
  if (!config.push?.reuseOmc) return { channels: own, problems: [] };
  const omc = readOmcChannels(env);
  return {
    channels: [...own, ...omc.channels.map((c) => resolveChannel(c, 'omc'))],
    problems: [...(omc.problem ? [omc.problem] : []), ...omc.skipped],
  };
}

export function startPush(
  config: OmcTopConfig,
  opts: Pick<SenderOptions, 'onProblem' | 'onSent'> & { env?: NodeJS.ProcessEnv } = {},
): { sender: PushSender | null; problems: string[] } {
  const setup = pushChannels(config, opts.env);
  if (setup.channels.length === 0) return { sender: null, problems: setup.problems };
  const sender = new PushSender(setup.channels, {
    timeoutMs: config.push?.timeoutMs,
    retries: config.push?.retries,
    onProblem: opts.onProblem,
    onSent: opts.onSent,
  });
  return { sender, problems: setup.problems };
}

export { messageText, type PushMessage, type ResolvedChannel } from './channel.js';
export { PushSender } from './sender.js';
