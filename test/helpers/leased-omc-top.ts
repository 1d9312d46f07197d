/**
 * An omc-top on a project with push channels, as the push lease tests need it: a LeasedPush under the pid of a live
 * process of the test's own (sleep), so "gone" and "stopped" are real, and a channel the test answers for (at once,
 * or held until the test says how it went). What it sent is what its channels would have received.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { PushMessage } from '../../src/feeds/notify/push/channel.js';
import { LeasedPush } from '../../src/feeds/notify/push/leased-push.js';
import type { Delivery } from '../../src/feeds/notify/push/sender.js';
import { runningStartIdentity } from '../../src/io/process-start.js';
import { waitFor } from './fixtures.js';
import { onTestFinished } from './it.js';

export const ROOT = '/srv/shop/.omc';

/** A live process that is not omc-top, killed after the test. */
export async function liveProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  onTestFinished(() => void child.kill('SIGKILL'));
  const pid = child.pid as number;
  await waitFor(() => typeof runningStartIdentity(pid) === 'string' && runningStartIdentity(pid) !== 'absent', {
    what: 'the sleep process running',
  });
  return child as ChildProcess & { pid: number };
}

/** One item that newly needs the user, as the notifier offers it. */
export const item = (n: number) => ({
  ids: [`waiting:sess-${n}@${n}`],
  message: { project: 'shop', session: `sess-${n}`, waitingOn: 'waiting for you: permission prompt' },
});

/**
 * `answer: 'taken'` (default): its channels take each message at once. `'held'`: each waits in `held` until the test
 * calls `answer(delivery)` (the oldest first), as a channel that has the request and has not answered yet.
 */
export async function omcTop(
  dir: string,
  opts: { answer?: 'taken' | 'held'; clock?: () => number } = {},
): Promise<{
  proc: ChildProcess & { pid: number };
  sent: string[];
  push: LeasedPush;
  held: ((d: Delivery) => void)[];
  answer(d: Delivery): void;
}> {
  const proc = await liveProcess();
  const sent: string[] = [];
  const held: ((d: Delivery) => void)[] = [];
  const push = new LeasedPush(
    dir,
    ROOT,
    (m: PushMessage, done) => {
      sent.push(m.session ?? '');
      if (opts.answer === 'held') held.push(done);
      else done('taken');
    },
    { pid: proc.pid, ...(opts.clock ? { clock: opts.clock } : {}) },
  );
  onTestFinished(() => push.dispose());
  const answer = (d: Delivery) => {
    const done = held.shift();
    if (!done) throw new Error('no message is waiting for an answer');
    done(d);
  };
  return { proc, sent, push, held, answer };
}
