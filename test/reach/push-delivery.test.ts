/**
 * The sender says what became of each message (feeds/notify/push/sender.ts), which is when the push ledger counts
 * it pushed: `taken` once one channel answered 2xx, even if another failed; otherwise, once every channel gave up,
 * `may-pass` (a 5xx, a timeout: worth sending again later) or `refused` (another 4xx: the same request would be
 * refused again). Loopback channels standing in for ntfy and a webhook.
 */
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { resolveChannel } from '../../src/feeds/notify/push/channel.js';
import { PushSender, type Delivery } from '../../src/feeds/notify/push/sender.js';
import { waitFor } from '../helpers/fixtures.js';
import { loopbackServer } from '../helpers/loopback-http.js';

const MESSAGE = { project: 'shop', session: 'sess-1', waitingOn: 'waiting for you: permission prompt' };

/** What `send` said for one message to channels answering with these statuses (one ntfy each). */
async function deliveryWith(...answers: (number | 'hang')[]): Promise<{ said: Delivery[]; problems: string[] }> {
  const servers = await Promise.all(answers.map((a) => loopbackServer(a)));
  for (const s of servers) onTestFinished(() => s.close());
  const problems: string[] = [];
  const sender = new PushSender(
    servers.map((s) => resolveChannel({ type: 'ntfy', url: `${s.base}/topic-abcdef` })),
    { retries: 1, backoffMs: 10, timeoutMs: 3000, onProblem: (l) => problems.push(l) },
  );
  onTestFinished(() => sender.dispose());
  const said: Delivery[] = [];
  sender.send(MESSAGE, (d) => said.push(d));
  await waitFor(() => said.length > 0, { timeoutMs: 20_000, what: 'what became of the message' });
  await sender.idle();
  return { said, problems };
}

describe('what became of a push message', () => {
  it('taken when a channel answered 2xx', async () => {
    expect(await deliveryWith(200)).toEqual({ said: ['taken'], problems: [] });
  });

  it('taken when one channel took it and another failed (the failure still says its line)', async () => {
    const r = await deliveryWith(500, 200);
    expect(r.said).toEqual(['taken']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(
      /^push: not delivered to ntfy \(127\.0\.0\.1:\d+\): HTTP 500 \(after 2 tries\); ntfy \(127\.0\.0\.1:\d+\) took it$/,
    );
  });

  it('may-pass when every channel failed and one failure may pass; refused when each refused outright', async () => {
    expect((await deliveryWith(500, 404)).said).toEqual(['may-pass']);
    expect((await deliveryWith(401, 404)).said).toEqual(['refused']);
  });
});
