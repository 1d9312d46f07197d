/**
 * A value that goes into a push request's header or URL (an ntfy token, a webhook header's name or value, a URL)
 * holding a control character — a token pasted with its newline — is a problem of the config file: the line names
 * the field and why, that channel is left out (the others push), and doctor says so, instead of "valid" and every
 * push failing as a "network error" for 15 minutes. A channel answering with a redirect is said as such, once: the
 * same request would be redirected again.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { configCheck } from '../../src/commands/doctor-config.js';
import { pushCheck } from '../../src/commands/doctor-push.js';
import { configPath, loadConfig } from '../../src/config/config-file.js';
import { resolveChannel } from '../../src/feeds/notify/push/channel.js';
import { attemptOnce, PushSender, type Delivery } from '../../src/feeds/notify/push/sender.js';
import { waitFor } from '../helpers/fixtures.js';
import { loopbackServer } from '../helpers/loopback-http.js';

const MESSAGE = { project: 'shop', session: 'sess-1', waitingOn: 'waiting for you: permission prompt' };

function homeWith(config: string): NodeJS.ProcessEnv {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-push-header-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'xdg', 'omc-top'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'claude'));
  const env = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'xdg'), CLAUDE_CONFIG_DIR: path.join(dir, 'claude') };
  fs.writeFileSync(configPath(env), config);
  return env;
}

describe('a control character in a value a push request carries', () => {
  it('is a problem line naming the field; that channel is left out, the others push; doctor says it', async () => {
    const good = await loopbackServer(200);
    const bad = await loopbackServer(200);
    onTestFinished(() => good.close());
    onTestFinished(() => bad.close());
    // As the tester wrote it: the token's newline is in the JSON text (escaped). A newline at the end (a paste that
    // took it along) is whitespace fetch drops from what it sends: that channel stays, its token sent without it.
    const env = homeWith(
      JSON.stringify({
        push: {
          channels: [
            { type: 'ntfy', url: `${good.base}/topic-pasted\n`, token: 'tk_pasted_secret\n' },
            { type: 'ntfy', url: `${bad.base}/topic-secret-2`, token: 'tok with\nnewline' },
            { type: 'webhook', url: `${bad.base}/hook-secret`, headers: { 'x-key': 'v\r\nX-Injected: 1' } },
            { type: 'webhook', url: `${bad.base}/hook-secret`, headers: { 'x\nkey': 'value' } },
            { type: 'ntfy', url: `${bad.base}/topic\tsecret-3` },
            { type: 'ntfy', url: `${good.base}/topic-good` },
          ],
        },
      }),
    );
    const loaded = loadConfig(configPath(env));
    expect(loaded.config.push?.channels).toEqual([
      { type: 'ntfy', url: `${good.base}/topic-pasted`, token: 'tk_pasted_secret' },
      { type: 'ntfy', url: `${good.base}/topic-good` },
    ]);
    expect(loaded.dropped).toEqual([1, 2, 3, 4].map((i) => `push.channels.${i}`));
    expect(loaded.error).toContain('push.channels.1.token: holds a control character (a newline at character 9)');
    expect(loaded.error).not.toMatch(/push is OFF/);
    const doctorConfig = configCheck(env);
    expect(doctorConfig.status).toBe('broken');
    expect(doctorConfig.summary).toContain(
      'push.channels.1.token: holds a control character (a newline at character 9)',
    );
    expect(doctorConfig.details[0]).toMatch(/^omc-top runs without push\.channels\.1, .*push\.channels\.4 until/);
    for (const said of [loaded.error ?? '', doctorConfig.summary]) {
      expect(said).not.toContain('pasted_secret');
      expect(said).not.toContain('topic-secret');
    }
    // Each one says its own field and why (the first issue of a file is on its line; the rest are in `dropped`).
    const { PushSchema } = await import('../../src/config/push-config.js');
    const issues = (channel: unknown) =>
      PushSchema.safeParse({ channels: [channel] }).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ type: 'ntfy', url: good.base, token: 'tok with\nnewline' })).toEqual([
      ['channels.0.token', 'holds a control character (a newline at character 9)'],
    ]);
    expect(issues({ type: 'webhook', url: good.base, headers: { 'x-key': 'v\r\nX-Injected: 1' } })).toEqual([
      ['channels.0.headers.x-key', 'holds a control character (a carriage return at character 2)'],
    ]);
    expect(issues({ type: 'webhook', url: good.base, headers: { 'x-key': 'euro \u20ac' } })).toEqual([
      ['channels.0.headers.x-key', 'holds a character an HTTP header cannot carry (past U+00FF, at character 6)'],
    ]);
    expect(issues({ type: 'ntfy', url: `${good.base}/t\u0007` })).toEqual([
      ['channels.0.url', 'holds a control character (U+0007 at character 25)'],
    ]);
    expect(
      issues({
        type: 'discord',
        webhookUrl: 'https://discord.com/api/webhooks/1/x',
        apiBase: `http://127.0.0.1:9\n/x`,
      }),
    ).toEqual([['channels.0.apiBase', 'holds a control character (a newline at character 19)']]);
    expect(issues({ type: 'ntfy', url: good.base, token: ' \r\n' })).toEqual([
      ['channels.0.token', 'is only whitespace'],
    ]);
    // --test-push: the channel left out is not tried; the one left takes the message.
    const test = await pushCheck(env, true);
    expect(test.summary).toBe('2 of 2 channel(s) took the test message');
    expect(good.received).toHaveLength(2);
    expect(bad.received).toHaveLength(0);
  });

  it('a request fetch will not build (the schema passed by) is said as such and not retried', async () => {
    const srv = await loopbackServer(200);
    onTestFinished(() => srv.close());
    const channel = resolveChannel({ type: 'ntfy', url: `${srv.base}/topic-abcdef`, token: 'tok with\nnewline' });
    const r = await attemptOnce(channel, MESSAGE, 3000);
    expect(r).toMatchObject({
      ok: false,
      retry: false,
      detail: 'the request could not be made: a header or the URL holds a character HTTP cannot carry',
    });
    expect(srv.received).toHaveLength(0);
  });
});

describe('a channel answering with a redirect', () => {
  it('is said as a redirect, once: not retried, not a network error', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => res.writeHead(301, { location: '/elsewhere' }).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const problems: string[] = [];
    const sender = new PushSender([resolveChannel({ type: 'ntfy', url: `${base}/topic-abcdef` })], {
      retries: 2,
      backoffMs: 10,
      timeoutMs: 3000,
      onProblem: (l) => problems.push(l),
    });
    onTestFinished(() => sender.dispose());
    const said: Delivery[] = [];
    sender.send(MESSAGE, (d) => said.push(d));
    await waitFor(() => said.length > 0, { timeoutMs: 20_000, what: 'what became of the message' });
    await sender.idle();
    expect(said).toEqual(['refused']);
    expect(requests).toBe(1);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^push: not delivered to ntfy \(127\.0\.0\.1:\d+\): answered with a redirect \(3xx\): give the final URL$/,
    );
  });
});
