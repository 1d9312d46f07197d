/**
 * Doctor's check of push: each channel the monitor would send to (from the
 * config file, and from OMC's own settings when `push.reuseOmc` is on), what
 * OMC's settings offer when reuse is off, and with `--test-push` one test
 * message per channel with its HTTP answer. Labels only: no token, topic or
 * webhook path is ever printed, in text or --json.
 */
import { loadConfig, configPath } from '../config/config-file.js';
import { redact, type PushMessage, type ResolvedChannel } from '../feeds/notify/push/channel.js';
import { pushChannels } from '../feeds/notify/push/index.js';
import { leaseRefusal } from '../feeds/notify/push/lease.js';
import { readOmcChannels } from '../feeds/notify/push/omc-channels.js';
import { ownStateDir } from '../io/state-dir.js';
import { attemptOnce, DEFAULT_TIMEOUT_MS } from '../feeds/notify/push/sender.js';
import type { DoctorCheck } from './doctor-types.js';
import { docPath } from '../io/doc-path.js';

const TEST_MESSAGE: PushMessage = { project: 'omc-top', session: null, waitingOn: 'test message from omc-top doctor' };

const plainHttp = (c: ResolvedChannel) => {
  try {
    const u = new URL(c.request(TEST_MESSAGE).url);
    return u.protocol === 'http:' && !/^(127\.|\[::1\]|localhost$)/.test(u.hostname);
  } catch {
    return false;
  }
};

export async function pushCheck(env: NodeJS.ProcessEnv, test: boolean, root?: string): Promise<DoctorCheck> {
  const base = { id: 'push' as const, title: 'push' };
  const loaded = loadConfig(configPath(env));
  const setup = pushChannels(loaded.config, env);
  const omc = readOmcChannels(env);
  const reuse = loaded.config.push?.reuseOmc === true;
  const secrets = setup.channels.flatMap((c) => c.secrets);
  const details: string[] = [];
  const results: Array<{ channel: string; source: string; ok: boolean | null; answer: string | null }> = [];
  for (const c of setup.channels) {
    const from = c.source === 'omc' ? "OMC's settings" : 'the config file';
    if (!test) {
      results.push({ channel: c.label, source: c.source, ok: null, answer: null });
      details.push(`${c.label}: from ${from}${plainHttp(c) ? ' (plain http: sent unencrypted)' : ''}`);
      continue;
    }
    const r = await attemptOnce(c, TEST_MESSAGE, loaded.config.push?.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    results.push({ channel: c.label, source: c.source, ok: r.ok, answer: r.detail });
    details.push(`${c.label}: from ${from}; test message: ${r.ok ? 'sent' : 'FAILED'} (${r.detail})`);
  }
  if (!reuse && omc.channels.length > 0) {
    const names = omc.channels.map((c) => c.type).join(', ');
    details.push(`OMC's settings (${omc.file}) enable ${names}: set "push": {"reuseOmc": true} to push there too`);
  }
  if (reuse && omc.channels.length === 0 && !omc.problem)
    details.push(`push.reuseOmc is on; ${omc.file} enables no channel omc-top can use`);
  details.push(...setup.problems, ...(!reuse && omc.problem ? [omc.problem] : []), ...(reuse ? [] : omc.skipped));
  if (setup.channels.length > 0 && !test) details.push('omc-top doctor --test-push sends a test message to each');
  // The project's push lease in place of which something else stands: no omc-top on the project pushes.
  const leaseRefused = root !== undefined && setup.channels.length > 0 ? leaseRefusal(ownStateDir(env), root) : null;
  if (leaseRefused) details.unshift('remove it: omc-top on this project then pushes again');
  const failed = results.filter((r) => r.ok === false);
  const summary = leaseRefused
    ? leaseRefused
    : setup.channels.length === 0
      ? `off: no channel in the config file ("push": {"channels": [...]}, see ${docPath('reach.md')})`
      : test
        ? `${results.length - failed.length} of ${results.length} channel(s) took the test message`
        : `${setup.channels.length} channel(s): ${setup.channels.map((c) => c.label).join(', ')}`;
  return {
    ...base,
    status:
      failed.length > 0 || leaseRefused
        ? 'broken'
        : setup.problems.length > 0
          ? 'warn'
          : setup.channels.length > 0
            ? 'ok'
            : 'info',
    summary: redact(summary, secrets),
    details: details.map((d) => redact(d, secrets)),
    data: {
      channels: results,
      reuseOmc: reuse,
      omcFile: omc.file,
      omcOffers: omc.channels.map((c) => c.type),
      leaseRefused,
    },
  };
}
