/**
 * Push: loopback servers standing in for ntfy, a webhook, Telegram and
 * Discord receive exactly one message per item that newly needs the user
 * (after the bell's debounce), none for news; a channel that fails says so
 * in one redacted line naming the channel and the HTTP status; one that
 * hangs or answers 500 never holds up the notifier or the event loop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Transition } from '../../src/feeds/attention/engine.js';
import type { NeedItem } from '../../src/feeds/attention/needs.js';
import { Notifier } from '../../src/feeds/notify/notifier.js';
import { resolveChannel } from '../../src/feeds/notify/push/channel.js';
import { PushSender } from '../../src/feeds/notify/push/sender.js';
import type { PushChannel } from '../../src/config/push-config.js';
import { waitFor } from '../helpers/fixtures.js';
import { loopbackServer, type LoopbackServer } from '../helpers/loopback-http.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOKEN = '123456789:AAH-secret_telegram-token-xyz';

async function servers(answer: number | 'hang' = 200) {
  const s = {
    ntfy: await loopbackServer(answer),
    hook: await loopbackServer(answer),
    telegram: await loopbackServer(answer),
    discord: await loopbackServer(answer),
  };
  for (const x of Object.values(s)) cleanups.push(() => x.close());
  const channels: PushChannel[] = [
    { type: 'ntfy', url: `${s.ntfy.base}/omc-topic-s3cret` },
    { type: 'webhook', url: `${s.hook.base}/hooks/abcdef123`, headers: { 'x-key': 'hook-secret-value' } },
    { type: 'telegram', botToken: TOKEN, chatId: '42', apiBase: s.telegram.base },
    {
      type: 'discord',
      webhookUrl: 'https://discord.com/api/webhooks/111/discord-secret-token',
      apiBase: s.discord.base,
    },
  ];
  return { s, channels };
}

function monitor(channels: PushChannel[], opts: { retries?: number; timeoutMs?: number } = {}) {
  const problems: string[] = [];
  const sender = new PushSender(
    channels.map((c) => resolveChannel(c)),
    {
      backoffMs: 20,
      retries: opts.retries ?? 0,
      timeoutMs: opts.timeoutMs ?? 3000,
      onProblem: (l) => problems.push(l),
    },
  );
  const n = new Notifier({
    channels: ['bell'],
    project: 'shop',
    write: () => undefined,
    env: {},
    config: { notify: { debounceMs: 0, reasons: { 'loop finished': true } } },
    push: (m) => sender.send(m),
  });
  cleanups.push(
    () => n.dispose(),
    () => sender.dispose(),
  );
  return { n, sender, problems };
}

/** A transition that raises a need (reason), or that is news (needs null, news set), or neither. */
const T = (
  needs: string | null,
  key: string,
  session = 'sess-1',
  over: Partial<NeedItem> = {},
  news: string | null = null,
): Transition => {
  const need: NeedItem | null = needs
    ? {
        id: `agent:${key}@1`,
        kind: 'waiting',
        reason: needs,
        text: needs,
        since: 1,
        session,
        mode: 'ralph',
        team: null,
        worker: null,
        path: null,
        waitingOn: null,
        name: null,
        tmux: null,
        action: 'jump',
        ...over,
      }
    : null;
  return {
    kind: 'agent',
    key,
    from: 'busy',
    to: 'waiting',
    needs,
    news,
    fact: { value: 'waiting', session, mode: 'ralph', team: null, worker: null, path: null, need, needs, news },
  };
};

const all = (s: Record<string, LoopbackServer>) => Object.values(s);

describe('push', () => {
  it('one message per entering item on every channel, naming project, session and what is waited on', async () => {
    const { s, channels } = await servers();
    const { n, sender, problems } = monitor(channels);
    // Two items enter in one debounce window; news (a loop finished, rung on the bell by the config here) and a
    // plain change are not pushed.
    n.handle([
      T('waiting for you', 'a', 'sess-aaaa', {
        name: 'fix-login',
        tmux: 'main:@3',
        waitingOn: 'permission prompt: Bash ls',
      }),
      T(null, 'b', 'sess-b', {}, 'loop finished'),
      T(null, 'b2'),
      T('team failed', 'c', 'sess-cccc'),
    ]);
    n.flush();
    // The same fact again is no new item.
    n.handle([T('waiting for you', 'a', 'sess-aaaa')]);
    n.flush();
    await sender.idle();
    expect(n.sent[0]).toContain('(+2 more)');
    for (const srv of all(s)) expect(srv.received).toHaveLength(2);
    expect(s.ntfy.received[0]?.body).toBe('shop · fix-login (main:@3): waiting for you: permission prompt: Bash ls');
    expect(s.ntfy.received[0]?.url).toBe('/omc-topic-s3cret');
    expect(JSON.parse(s.hook.received[1]?.body ?? '')).toEqual({
      source: 'omc-top',
      project: 'shop',
      session: 'sess-cccc',
      waiting_on: 'team failed',
      text: 'shop · sess-cccc: team failed',
    });
    expect(s.hook.received[0]?.headers['x-key']).toBe('hook-secret-value');
    expect(s.telegram.received[0]?.url).toBe(`/bot${TOKEN}/sendMessage`);
    expect(JSON.parse(s.telegram.received[0]?.body ?? '')).toEqual({
      chat_id: '42',
      text: 'shop · fix-login (main:@3): waiting for you: permission prompt: Bash ls',
    });
    expect(s.discord.received[0]?.url).toBe('/api/webhooks/111/discord-secret-token');
    expect(JSON.parse(s.discord.received[1]?.body ?? '').content).toBe('shop · sess-cccc: team failed');
    expect(problems).toEqual([]);
  });

  it('nothing is pushed while notifications are switched off, for an acknowledged item, nor for a reason turned off', async () => {
    const { s, channels } = await servers();
    const { n, sender } = monitor(channels);
    n.setEnabled(false);
    n.handle([T('dead worker', 'a')]);
    n.flush();
    n.setEnabled(true);
    // An occurrence already acknowledged (in the TUI, say) is not pushed.
    n.handle([T('dead worker', 'acked')], () => true);
    n.flush();
    const quiet = new Notifier({
      channels: ['bell'],
      project: 'shop',
      write: () => undefined,
      env: {},
      config: { notify: { debounceMs: 0, reasons: { 'dead worker': false } } },
      push: (m) => sender.send(m),
    });
    quiet.handle([T('dead worker', 'b')]);
    quiet.flush();
    await sender.idle();
    for (const srv of all(s)) expect(srv.received).toHaveLength(0);
  });

  it('a channel answering 500 is retried a bounded number of times, then one redacted problem line names it and the status', async () => {
    const { s, channels } = await servers(500);
    const { n, sender, problems } = monitor(channels, { retries: 2 });
    n.handle([T('dead worker', 'a')]);
    n.flush();
    await sender.idle();
    for (const srv of all(s)) expect(srv.received).toHaveLength(3);
    // One line for the message, naming every channel that failed (a message line shows the last line only).
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(
      'not delivered to telegram (127.0.0.1:' + s.telegram.base.split(':')[2] + '): HTTP 500 (after 3 tries)',
    );
    expect(problems[0]?.match(/not delivered to /g)).toHaveLength(4);
    const said = problems.join('\n');
    for (const secret of ['omc-topic-s3cret', 'abcdef123', 'hook-secret-value', TOKEN, 'discord-secret-token']) {
      expect(said).not.toContain(secret);
    }
  });

  it('a channel that hangs times out; the notifier returns at once and the event loop keeps its pace', async () => {
    const { s, channels } = await servers('hang');
    const { n, sender, problems } = monitor(channels, { timeoutMs: 400 });
    // Frames: a 16 ms timer stands in for the renderer; record the largest gap while requests hang.
    let last = performance.now();
    let worst = 0;
    const frames = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 16);
    cleanups.push(() => clearInterval(frames));
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) {
      n.handle([T('dead worker', `k${i}`, `sess-${i}`)]);
      n.flush();
    }
    const handled = performance.now() - t0;
    await waitFor(() => (s.ntfy.received.length > 0 ? true : undefined), { timeoutMs: 5000 });
    await sender.idle();
    clearInterval(frames);
    // The 5 handle+flush calls queued their pushes and returned: no request was awaited inline.
    expect(handled).toBeLessThan(400);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(
      /^push: ntfy \(127\.0\.0\.1:\d+\): no answer within 400 ms: it may have arrived; webhook /,
    );
    // Generous for a loaded 2-core machine: a blocked loop would show the 400 ms timeout here.
    expect(worst).toBeLessThan(350);
  });
});
