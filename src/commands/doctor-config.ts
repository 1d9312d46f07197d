/**
 * Doctor's check of the user's defaults file ($XDG_CONFIG_HOME/omc-top/config.json):
 * missing is fine (the defaults), valid shows the values in force and which came
 * from the file, invalid names the file and the field (and, when only some fields
 * were left out, the values of the rest). Invalid is "broken" even though the
 * monitor starts anyway, because the settings the user wrote are not the ones in
 * force. Read exactly as the monitor reads it (src/notify/config.ts).
 */
import path from 'node:path';
import { DEFAULT_CHANNELS } from '../feeds/notify/attention-terminal.js';
import { configPath, loadConfig, REASONS } from '../config/config-file.js';
import { DEFAULT_DEBOUNCE_MS } from '../feeds/notify/notifier.js';
import { statSync } from '../io/safe-fs/index.js';
import type { DoctorCheck } from './doctor-types.js';

export function configCheck(env: NodeJS.ProcessEnv): DoctorCheck {
  const file = configPath(env);
  const base = { id: 'config' as const, title: 'config file' };
  const exists = statSync(path.dirname(file), path.basename(file)) !== null;
  const loaded = loadConfig(file);
  const whole = loaded.dropped.includes('(the whole file)');
  const notify = loaded.config.notify ?? {};
  const inForce = {
    channels: notify.channels ?? [...DEFAULT_CHANNELS],
    debounceMs: notify.debounceMs ?? DEFAULT_DEBOUNCE_MS,
    title: loaded.config.title ?? true,
    reasons: Object.fromEntries(REASONS.map((r) => [r, notify.reasons?.[r] ?? true])),
  };
  const fromFile = [
    ...(notify.channels ? ['notify.channels'] : []),
    ...(notify.debounceMs !== undefined ? ['notify.debounceMs'] : []),
    ...Object.keys(notify.reasons ?? {}).map((r) => `notify.reasons.${r}`),
    ...(loaded.config.title !== undefined ? ['title'] : []),
  ];
  const mark = (key: string) => (fromFile.includes(key) ? '' : ' (default)');
  const channels = inForce.channels.length > 0 ? inForce.channels.join(', ') : 'none';
  const details = [
    `notification channels: ${channels}${mark('notify.channels')}; --notify overrides`,
    `notifications closer than ${inForce.debounceMs} ms become one${mark('notify.debounceMs')}`,
    `terminal title: ${inForce.title ? 'on' : 'off'}${mark('title')}`,
    ...Object.entries(notify.reasons ?? {}).map(
      ([r, v]) => `"${r}": ${v === true ? 'the default channels' : v === false ? 'never' : v.join(', ') || 'none'}`,
    ),
  ];
  if (loaded.error !== null) {
    // Broken even though the monitor runs: settings the user wrote are not the ones in force.
    return {
      ...base,
      status: 'broken',
      summary: loaded.error,
      details: whole
        ? ['omc-top runs with the defaults until the file is fixed (or removed)']
        : [
            `omc-top runs without ${loaded.dropped.join(', ')} until the file is fixed; the rest of it applies:`,
            ...details,
          ],
      data: {
        path: file,
        exists,
        error: loaded.error,
        dropped: loaded.dropped,
        ...(whole ? {} : { inForce, fromFile }),
      },
    };
  }
  return {
    ...base,
    status: 'ok',
    summary: exists ? `${file}: valid` : `${file} does not exist: the defaults apply`,
    details,
    data: { path: file, exists, error: null, inForce, fromFile },
  };
}

/**
 * Whether desktop notifications (the `osc` channel) are on for any reason, as the monitor reads the config file:
 * tmux dropping them matters only then (the default channels are the bell and tmux's own message).
 */
export function oscChannelInUse(env: NodeJS.ProcessEnv): boolean {
  const notify = loadConfig(configPath(env)).config.notify ?? {};
  const on = (list: readonly string[] | undefined) => (list ?? DEFAULT_CHANNELS).includes('osc');
  return (
    on(notify.channels) ||
    Object.values(notify.reasons ?? {}).some((v) =>
      v === true ? on(notify.channels) : Array.isArray(v) && v.includes('osc'),
    )
  );
}
