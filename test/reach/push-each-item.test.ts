/**
 * One push per thing that needs you: three permission prompts of one session a few seconds apart are three items
 * (three ids), so three pushes reach a loopback ntfy stand-in and the bell rings three times; the same item raised
 * again within the repeat window (its file flapping) is one push and one ring.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Transition } from '../../src/feeds/attention/engine.js';
import type { NeedItem } from '../../src/feeds/attention/needs.js';
import { Notifier } from '../../src/feeds/notify/notifier.js';
import { resolveChannel } from '../../src/feeds/notify/push/channel.js';
import { PushSender } from '../../src/feeds/notify/push/sender.js';
import { loopbackServer } from '../helpers/loopback-http.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SID = 'f3c1a2b4-5d6e-4f70-8192-a3b4c5d6e7f8';

/** The agent kind's transition when the session's Claude starts waiting on a prompt shown at `since`. */
const waiting = (since: number, waitingOn: string): Transition => {
  const need: NeedItem = {
    id: `waiting:${SID}@${since}`,
    kind: 'waiting',
    reason: 'waiting for you',
    text: 'waiting for you',
    since,
    session: SID,
    mode: 'ralph',
    team: null,
    worker: null,
    path: null,
    waitingOn,
    name: 'proj-67',
    tmux: 'main:@0',
    action: 'jump',
  };
  return {
    kind: 'agent',
    key: SID,
    from: 'busy',
    to: 'waiting',
    needs: need.reason,
    news: null,
    fact: {
      value: 'waiting',
      session: SID,
      mode: 'ralph',
      team: null,
      worker: null,
      path: `state/sessions/${SID}`,
      need,
      needs: need.reason,
      news: null,
    },
  };
};

async function scene() {
  const ntfy = await loopbackServer(200);
  cleanups.push(() => ntfy.close());
  const sender = new PushSender([resolveChannel({ type: 'ntfy', url: `${ntfy.base}/topic` })], {
    backoffMs: 20,
    retries: 0,
    timeoutMs: 3000,
    onProblem: () => undefined,
  });
  const clock = { now: 1_000_000 };
  const writes: string[] = [];
  const n = new Notifier({
    channels: ['bell'],
    project: 'proj',
    write: (b) => writes.push(b),
    env: {},
    clock: () => clock.now,
    config: { notify: { debounceMs: 0 } },
    push: (m) => sender.send(m),
  });
  cleanups.push(
    () => n.dispose(),
    () => sender.dispose(),
  );
  /** The session's Claude shows a prompt `atMs` into the scene; the notifier's debounce then runs out. */
  const raise = (t: Transition, atMs: number) => {
    clock.now = 1_000_000 + atMs;
    n.handle([t]);
    n.flush();
  };
  return { ntfy, sender, n, writes, raise };
}

describe('push: each item of one session is its own push', () => {
  it('three prompts of one session within seconds: three pushes and three rings, each naming its command', async () => {
    const { ntfy, sender, n, writes, raise } = await scene();
    raise(waiting(1_000_000, 'Bash touch p1.txt'), 0);
    raise(waiting(1_004_500, 'Bash touch p2.txt'), 4_500);
    raise(waiting(1_009_000, 'Bash touch p3.txt'), 9_000);
    await sender.idle();
    expect(ntfy.received.map((r) => r.body)).toEqual(
      [1, 2, 3].map((i) => `proj · proj-67 (main:@0): waiting for you: Bash touch p${i}.txt`),
    );
    expect(writes.filter((w) => w === '\x07')).toHaveLength(3);
    expect(n.sent).toHaveLength(3);
  });

  it('the same item raised again within the minute (its file flapping): one push, one ring', async () => {
    const { ntfy, sender, n, writes, raise } = await scene();
    const prompt = waiting(1_000_000, 'Bash touch p1.txt');
    raise(prompt, 0);
    raise(prompt, 3_000);
    raise(prompt, 30_000);
    await sender.idle();
    expect(ntfy.received).toHaveLength(1);
    expect(writes.filter((w) => w === '\x07')).toHaveLength(1);
    expect(n.sent).toHaveLength(1);
  });
});
