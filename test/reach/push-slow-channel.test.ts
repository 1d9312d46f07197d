/**
 * A channel that answers later than the timeout (an ntfy behind a slow proxy: 8 s with `timeoutMs: 3000`) may have
 * taken each request it did not answer. Such a timeout says "it may have arrived", is not tried again at once, and
 * the ledger's later tries (leased-push.ts: 1 min, 2, 4, 8) send it there once more at most: the phone gets it once
 * or twice, not a dozen times. `doctor --test-push` says the same words. The retry schedule runs on an injected
 * clock (the lease's beat sends what is due past its pause); the timeout is real, short, against a loopback server
 * that never answers.
 */
import { configPath } from '../../src/config/config-file.js';
import { pushCheck } from '../../src/commands/doctor-push.js';
import { resolveChannel } from '../../src/feeds/notify/push/channel.js';
import { LeasedPush, RETRY_FIRST_MS } from '../../src/feeds/notify/push/leased-push.js';
import { PushSender, type Delivery } from '../../src/feeds/notify/push/sender.js';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { item, liveProcess, ROOT } from '../helpers/leased-omc-top.js';
import { loopbackServer } from '../helpers/loopback-http.js';
import { scaled } from '../helpers/time-scale.js';

/** Long enough for a loaded machine's loopback server to have read the request before the sender gives up. */
const TIMEOUT_MS = scaled(600);

describe('a channel slower than the timeout', () => {
  it('gets the message at most twice, each failure saying it may have arrived', async ({ tempDir }) => {
    const dir = tempDir('slow-channel-');
    const slow = await loopbackServer('hang');
    onTestFinished(() => slow.close());
    const problems: string[] = [];
    const said: Delivery[] = [];
    const sender = new PushSender([resolveChannel({ type: 'ntfy', url: `${slow.base}/slow-topic` })], {
      retries: 2,
      backoffMs: 10,
      timeoutMs: TIMEOUT_MS,
      onProblem: (l) => problems.push(l),
    });
    onTestFinished(() => sender.dispose());
    const clock = { now: Date.now() };
    const proc = await liveProcess();
    const push = new LeasedPush(dir, ROOT, (m, done) => sender.send(m, (d) => (said.push(d), done(d))), {
      pid: proc.pid,
      clock: () => clock.now,
    });
    onTestFinished(() => push.dispose());
    push.offer([item(1)]);
    await waitFor(() => said.length === 1, { timeoutMs: 30_000, what: 'the first answer' });
    await sender.idle();
    // Not tried again at once: the server has it (it read the whole request) and has not answered.
    expect(slow.received).toHaveLength(1);
    expect(slow.received[0]?.body).toBe('shop · sess-1: waiting for you: permission prompt');
    expect(problems).toEqual([
      expect.stringMatching(
        /^push: ntfy \(127\.0\.0\.1:\d+\): no answer within \d+ ms: it may have arrived; sent again in 1 min$/,
      ),
    ]);
    expect(said).toEqual(['may-pass']);
    // The ledger's next try, past its pause: once more, in case it did not arrive.
    clock.now += RETRY_FIRST_MS;
    push.lease.beat();
    await waitFor(() => said.length === 2, { timeoutMs: 30_000, what: 'the second answer' });
    await sender.idle();
    expect(slow.received).toHaveLength(2);
    expect(problems[1]).toMatch(
      /: no answer within \d+ ms: it may have arrived \(sent 2 times: not sent there again\); not sent again by this omc-top$/,
    );
    // Then never again, however long the item stays due (the ledger keeps it 15 min; 1, 2, 4, 8 min pauses).
    for (let i = 0; i < 6; i++) {
      clock.now += 8 * RETRY_FIRST_MS;
      push.lease.beat();
      await sender.idle();
    }
    expect(slow.received).toHaveLength(2);
    expect(problems).toHaveLength(2);
  });

  it('the same message offered again to the sender is sent there twice at most', async () => {
    const slow = await loopbackServer('hang');
    onTestFinished(() => slow.close());
    const sender = new PushSender([resolveChannel({ type: 'ntfy', url: `${slow.base}/slow-topic` })], {
      retries: 2,
      backoffMs: 10,
      timeoutMs: TIMEOUT_MS,
    });
    onTestFinished(() => sender.dispose());
    const said: Delivery[] = [];
    for (let i = 0; i < 5; i++) sender.send(item(2).message, (d) => said.push(d));
    await waitFor(() => said.length === 5, { timeoutMs: 30_000, what: 'five answers' });
    await sender.idle();
    expect(slow.received).toHaveLength(2);
    expect(said).toEqual(['may-pass', 'refused', 'refused', 'refused', 'refused']);
  });

  it('doctor --test-push says it may have arrived', async ({ tempDir }) => {
    const home = tempDir('slow-doctor-');
    const slow = await loopbackServer('hang');
    onTestFinished(() => slow.close());
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg'), CLAUDE_CONFIG_DIR: path.join(home, 'claude') };
    fs.mkdirSync(path.join(home, 'xdg', 'omc-top'), { recursive: true });
    const config = { push: { channels: [{ type: 'ntfy', url: `${slow.base}/slow-topic` }], timeoutMs: TIMEOUT_MS } };
    fs.writeFileSync(configPath(env), JSON.stringify(config));
    const check = await pushCheck(env, true);
    expect(check.details[0]).toMatch(/; test message: FAILED \(no answer within \d+ ms: it may have arrived\)$/);
    expect(slow.received).toHaveLength(1);
  });
});
