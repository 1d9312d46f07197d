/**
 * What a push failure says, on every surface that shows it (the monitor's message line and `M` log, `serve`'s
 * stderr, the fleet view's message line, which keeps the last line only): one line per message, once every channel
 * answered, naming each channel that failed and why, and which channels took it — never "the message was not
 * delivered" when a channel took it, and never one channel's failure hidden behind another's. Loopback servers
 * stand in for ntfy, a webhook, Telegram and Discord.
 */
import { resolveChannel } from '../../src/feeds/notify/push/channel.js';
import { LeasedPush } from '../../src/feeds/notify/push/leased-push.js';
import { PushSender, type Delivery } from '../../src/feeds/notify/push/sender.js';
import type { PushChannel } from '../../src/config/push-config.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { item, liveProcess, ROOT } from '../helpers/leased-omc-top.js';
import { loopbackServer } from '../helpers/loopback-http.js';

const TOKEN = '123456789:AAH-secret_telegram-token-xyz';

async function channels(answers: { ntfy: number; hook: number; telegram: number; discord: number }) {
  const s = {
    ntfy: await loopbackServer(answers.ntfy),
    hook: await loopbackServer(answers.hook),
    telegram: await loopbackServer(answers.telegram),
    discord: await loopbackServer(answers.discord),
  };
  for (const x of Object.values(s)) onTestFinished(() => x.close());
  const list: PushChannel[] = [
    { type: 'ntfy', url: `${s.ntfy.base}/omc-topic-s3cret` },
    { type: 'webhook', url: `${s.hook.base}/hooks/abcdef123`, name: 'hook' },
    { type: 'telegram', botToken: TOKEN, chatId: '42', apiBase: s.telegram.base, name: 'tg' },
    { type: 'discord', webhookUrl: 'https://discord.com/api/webhooks/111/discord-secret', apiBase: s.discord.base },
  ];
  const problems: string[] = [];
  const sender = new PushSender(
    list.map((c) => resolveChannel(c)),
    { retries: 1, backoffMs: 10, timeoutMs: 10_000, onProblem: (l) => problems.push(l) },
  );
  onTestFinished(() => sender.dispose());
  const port = (x: { base: string }) => x.base.split(':')[2];
  const labels = {
    ntfy: `ntfy (127.0.0.1:${port(s.ntfy)})`,
    discord: `discord (127.0.0.1:${port(s.discord)})`,
  };
  return { s, sender, problems, labels };
}

describe('a push that failed on some channels', () => {
  it('one line names each channel that failed and the ones that took it', async () => {
    const { sender, problems, labels } = await channels({ ntfy: 200, hook: 500, telegram: 429, discord: 200 });
    const said: Delivery[] = [];
    sender.send(item(1).message, (d) => said.push(d));
    await waitFor(() => problems.length > 0, { timeoutMs: 20_000, what: 'the failure line' });
    await sender.idle();
    expect(said).toEqual(['taken']);
    expect(problems).toEqual([
      'push: not delivered to webhook "hook": HTTP 500 (after 2 tries); not delivered to telegram "tg": HTTP 429 ' +
        `(after 2 tries); ${labels.ntfy} and ${labels.discord} took it`,
    ]);
    expect(problems[0]).not.toContain('the message was not delivered');
    for (const secret of ['omc-topic-s3cret', 'abcdef123', TOKEN, 'discord-secret'])
      expect(problems[0]).not.toContain(secret);
  });

  it('taken by none: one line names every failing channel and what happens next', async ({ tempDir }) => {
    const { sender, problems } = await channels({ ntfy: 503, hook: 500, telegram: 429, discord: 404 });
    const proc = await liveProcess();
    const push = new LeasedPush(tempDir('failure-line-'), ROOT, (m, done) => sender.send(m, done), { pid: proc.pid });
    onTestFinished(() => push.dispose());
    push.offer([item(2)]);
    await waitFor(() => problems.length > 0, { timeoutMs: 20_000, what: 'the failure line' });
    await sender.idle();
    expect(problems).toHaveLength(1);
    const line = problems[0] ?? '';
    for (const part of [
      /not delivered to ntfy \(127\.0\.0\.1:\d+\): HTTP 503 \(after 2 tries\)/,
      /not delivered to webhook "hook": HTTP 500 \(after 2 tries\)/,
      /not delivered to telegram "tg": HTTP 429 \(after 2 tries\)/,
      /not delivered to discord \(127\.0\.0\.1:\d+\): HTTP 404;/,
    ])
      expect(line).toMatch(part);
    expect(line).toMatch(/; sent again in 1 min$/);
  });
});
