/**
 * `omc-top doctor` explains each push channel; `--test-push` sends one test
 * message per channel (loopback servers receive it) and says which failed
 * with the HTTP status; OMC's own channels are offered but used only when
 * `push.reuseOmc` is on; no secret appears in the text or the --json.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';
import { loopbackServer } from '../helpers/loopback-http.js';

const run = promisify(execFile);
const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOKEN = '987654321:AAF-doctor_secret-token-abcdef';

function homes(config: unknown, omc?: unknown) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-push-doctor-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'xdg', 'omc-top'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'claude'));
  fs.writeFileSync(path.join(dir, 'xdg', 'omc-top', 'config.json'), JSON.stringify(config));
  if (omc) fs.writeFileSync(path.join(dir, 'claude', '.omc-config.json'), JSON.stringify(omc));
  return {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, 'xdg'),
    CLAUDE_CONFIG_DIR: path.join(dir, 'claude'),
  };
}

async function doctor(env: NodeJS.ProcessEnv, args: string[]) {
  const r = await run(process.execPath, [BUNDLE, 'doctor', ...args], { env, cwd: env.HOME, timeout: 60_000 }).catch(
    (e: { stdout: string; code: number }) => e,
  );
  return { stdout: r.stdout, code: 'code' in r ? r.code : 0 };
}

describe('doctor and push', () => {
  it('--test-push: one test message per channel, the failing one named with its status, no secret printed', async () => {
    const ok = await loopbackServer(200);
    const bad = await loopbackServer(500);
    cleanups.push(
      () => ok.close(),
      () => bad.close(),
    );
    const env = homes({
      push: {
        channels: [
          { type: 'ntfy', url: `${ok.base}/topic-secret-xyz` },
          { type: 'telegram', botToken: TOKEN, chatId: 7, apiBase: bad.base },
        ],
      },
    });
    const text = await doctor(env, ['--test-push']);
    expect(ok.received).toHaveLength(1);
    expect(ok.received[0]?.body).toBe('omc-top: test message from omc-top doctor');
    expect(bad.received).toHaveLength(1);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/BROKEN\s+push\s+1 of 2 channel\(s\) took the test message/);
    expect(text.stdout).toContain(`ntfy (${ok.base.slice(7)}): from the config file; test message: sent (HTTP 200)`);
    expect(text.stdout).toContain('test message: FAILED (HTTP 500)');
    const json = await doctor(env, ['--json']);
    const push = (JSON.parse(json.stdout) as { checks: Array<{ id: string; data: unknown }> }).checks.find(
      (c) => c.id === 'push',
    );
    expect(push?.data).toMatchObject({ reuseOmc: false, channels: [{ source: 'config' }, { source: 'config' }] });
    for (const out of [text.stdout, json.stdout]) {
      expect(out).not.toContain('topic-secret-xyz');
      expect(out).not.toContain(TOKEN);
      expect(out).not.toContain('AAF-doctor');
    }
    // Without --test-push nothing is sent.
    expect(ok.received).toHaveLength(1);
  });

  it("OMC's own channels: named as an offer, sent to only with push.reuseOmc", async () => {
    const srv = await loopbackServer(200);
    cleanups.push(() => srv.close());
    const omc = {
      notifications: {
        enabled: true,
        telegram: { enabled: true, botToken: TOKEN, chatId: '5' },
        discord: { enabled: false, webhookUrl: 'https://discord.com/api/webhooks/1/off' },
      },
    };
    const off = await doctor(homes({}, omc), ['--test-push']);
    expect(off.stdout).toContain('enable telegram: set "push": {"reuseOmc": true} to push there too');
    expect(srv.received).toHaveLength(0);
    // Reuse on: the telegram channel from OMC's file is used (pointed at loopback through apiBase is not
    // possible for OMC's file, so a webhook from OMC's file stands in for the real send).
    const omcHook = {
      notifications: { enabled: true, webhook: { enabled: true, url: `${srv.base}/omc-hook-secret` } },
    };
    const on = await doctor(homes({ push: { reuseOmc: true } }, omcHook), ['--test-push']);
    expect(srv.received).toHaveLength(1);
    expect(on.stdout).toContain(`webhook "OMC webhook": from OMC's settings; test message: sent (HTTP 200)`);
    expect(on.stdout).not.toContain('omc-hook-secret');
  });

  it('a bad channel is a problem line naming the field', async () => {
    const env = homes({ push: { channels: [{ type: 'telegram', botToken: 'nope', chatId: 1 }] } });
    const r = await doctor(env, []);
    expect(r.stdout).toMatch(/config\.json: push\.channels\.0\.botToken: not a Telegram bot token/);
    expect(r.stdout).not.toContain('"nope"');
  });
});
