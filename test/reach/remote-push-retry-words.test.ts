/**
 * A `--host` project's push that no channel took ends its failure line as a local project's does: what happens
 * next (`sent again in 1 min` for a failure that may pass, `not sent again by this omc-top` for one refused
 * outright), after the channel's own words (`HTTP 503 (after 2 tries)`). Its lease is on that machine, so the plan
 * is kept here (push/retry-plan.ts, the one a local lease follows). Loopback servers stand in for ntfy.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NeedItem } from '../../src/feeds/attention/needs.js';
import { pushForRoots, type PushFeed } from '../../src/feeds/notify/push-roots.js';
import { resolveChannel } from '../../src/feeds/notify/push/channel.js';
import { LeasedPush } from '../../src/feeds/notify/push/leased-push.js';
import { PushSender } from '../../src/feeds/notify/push/sender.js';
import { waitFor } from '../helpers/fixtures.js';
import { item, liveProcess, ROOT } from '../helpers/leased-omc-top.js';
import { loopbackServer, type LoopbackServer } from '../helpers/loopback-http.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SID = 'f3c1a2b4-5d6e-4f70-8192-a3b4c5d6e7f8';

const orphaned = (n: number): NeedItem => ({
  id: `orphaned:${SID}#${n}`,
  kind: 'orphaned',
  reason: 'orphaned loop',
  text: 'orphaned loop',
  since: 1_000_000 + n,
  session: SID,
  mode: 'ralph',
  team: null,
  worker: null,
  path: null,
  waitingOn: null,
  name: null,
  tmux: null,
  action: 'jump',
});

/** A `--host` project (as fleet/push.ts remoteFeeds makes one) whose stream says `item` newly needs the user. */
async function remoteFailureLine(
  status: number,
  retryFirstMs?: number,
): Promise<{ line: string; received: number; ntfy: LoopbackServer }> {
  const ntfy = await loopbackServer(status);
  cleanups.push(() => ntfy.close());
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-remote-retry-'));
  cleanups.push(() => fs.rmSync(state, { recursive: true, force: true }));
  let raise: (items: NeedItem[]) => void = () => undefined;
  const feed: PushFeed = {
    id: 'me@devbox:/srv/shop',
    project: () => 'shop @ devbox',
    onNeeds: (l) => {
      raise = l;
      return () => undefined;
    },
    mayPush: () => true,
  };
  const problems: string[] = [];
  const stop = pushForRoots({
    roots: () => [],
    feeds: [feed],
    subscribe: () => () => undefined,
    config: {
      push: { channels: [{ type: 'ntfy', url: `${ntfy.base}/topic` }], retries: 1 },
      notify: { debounceMs: 0 },
    },
    readonly: false,
    env: { XDG_STATE_HOME: state },
    onProblem: (l) => problems.push(l),
    ...(retryFirstMs ? { retryFirstMs } : {}),
  });
  cleanups.push(stop);
  raise([orphaned(status)]);
  const line = await waitFor(() => problems.find((p) => p.startsWith('push: not delivered')), {
    timeoutMs: 20_000,
    what: "the remote project's failure line",
  });
  return { line, received: ntfy.received.length, ntfy };
}

/** The same failure for a local project (its lease here): the line it ends with. */
async function localFailureLine(status: number): Promise<string> {
  const ntfy = await loopbackServer(status);
  cleanups.push(() => ntfy.close());
  const problems: string[] = [];
  const sender = new PushSender([resolveChannel({ type: 'ntfy', url: `${ntfy.base}/topic` })], {
    retries: 1,
    onProblem: (l) => problems.push(l),
  });
  cleanups.push(() => sender.dispose());
  const proc = await liveProcess();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-local-retry-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const push = new LeasedPush(dir, ROOT, (m, done) => sender.send(m, done), { pid: proc.pid });
  cleanups.push(() => push.dispose());
  push.offer([item(status)]);
  return waitFor(() => problems[0], { timeoutMs: 20_000, what: "the local project's failure line" });
}

/** The line without the channel's address (a port of its own per server). */
const words = (line: string) => line.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:PORT');

describe("a --host project's push failure says what happens next, as a local project's does", () => {
  it('a failure that may pass (HTTP 503): after 2 tries; sent again in 1 min', async () => {
    const remote = await remoteFailureLine(503);
    expect(remote.received).toBe(2);
    expect(words(remote.line)).toBe(
      'push: not delivered to ntfy (127.0.0.1:PORT): HTTP 503 (after 2 tries); sent again in 1 min',
    );
    expect(words(await localFailureLine(503))).toBe(words(remote.line));
  });

  it('refused outright (HTTP 404): not sent again by this omc-top', async () => {
    const remote = await remoteFailureLine(404);
    expect(words(remote.line)).toBe(
      'push: not delivered to ntfy (127.0.0.1:PORT): HTTP 404; not sent again by this omc-top',
    );
    expect(words(await localFailureLine(404))).toBe(words(remote.line));
  });

  it('and it is sent again then: a channel back up takes it', async () => {
    const remote = await remoteFailureLine(503, 2000);
    expect(remote.line).toMatch(/HTTP 503 \(after 2 tries\); sent again in 2 s$/);
    remote.ntfy.answer = 200;
    await waitFor(() => remote.ntfy.received.some((r) => r.answered === 200), {
      timeoutMs: 20_000,
      what: 'the item sent again',
    });
    // The two tries of the first send, then the send again (a loaded machine may have sent it again once more
    // before the channel came back).
    const answers = remote.ntfy.received.map((r) => r.answered);
    expect(answers.slice(0, 2)).toEqual([503, 503]);
    expect(answers.at(-1)).toBe(200);
  });
});
