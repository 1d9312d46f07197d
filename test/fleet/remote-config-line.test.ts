/**
 * A remote `watch --json` says a bad config file of its own on stderr at start (commands/watch.ts). That line is
 * no reason for the stream's end: a host lost without a word of ssh's shows the exit status, not the config.
 */
import { describe, expect, it } from 'vitest';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { RemoteHost } from '../../src/fleet/remote.js';
import { waitFor } from '../helpers/fixtures.js';

const CONFIG_LINE = 'omc-top watch: config: /home/me/.config/omc-top/config.json: title: … (left out: title; …)';

async function lostWith(script: string): Promise<string> {
  // sh -c SCRIPT ssh -T -o BatchMode=yes -- dest cmd: everything after the script is $0, $1…
  const host = new RemoteHost({
    spec: parseHostSpec('box')!,
    ssh: { bin: '/bin/sh', args: ['-c', script, 'ssh'] },
    onChange: () => undefined,
  });
  try {
    host.start();
    await waitFor(() => host.phase === 'lost', { timeoutMs: 20_000, what: 'the host lost' });
    return host.message;
  } finally {
    await host.stop();
  }
}

describe("a remote watch's config line", () => {
  it('is not given as the reason the stream ended; a later line of ssh is', async () => {
    expect(await lostWith(`echo '${CONFIG_LINE}' >&2; exit 255`)).toBe('ssh exited with status 255');
    expect(await lostWith(`echo '${CONFIG_LINE}' >&2; echo 'Connection to box closed.' >&2; exit 255`)).toBe(
      'Connection to box closed.',
    );
  });
});
