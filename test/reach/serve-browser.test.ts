/**
 * `omc-top serve` in Debian's headless Chromium: the page shows a loop's
 * iteration change within a second of the file write (server-sent events),
 * and the server refuses an action without the token, from another origin,
 * and under an unexpected Host header (DNS rebinding).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { startServer } from '../../src/commands/serve/server.js';
import { singleSource } from '../../src/commands/serve/source.js';
import { makeProject, REPO, writeOmcJson } from '../helpers/fixtures.js';

const run = promisify(execFile);
const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SESSION = 'befb1f7b-e9bc-4db9-97a3-f31e7239cd2c';

async function serve() {
  const p = makeProject({ withFixture: true, prefix: 'omc-top-serve-' });
  cleanups.push(() => p.cleanup());
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-state-'));
  cleanups.push(() => fs.rmSync(state, { recursive: true, force: true }));
  const store = new OmcStore({ root: p.root, readonly: false, watch: 'auto', projectDir: p.dir });
  store.start();
  const source = singleSource(store, 'shop', { XDG_STATE_HOME: state });
  await new Promise((r) => setImmediate(r));
  const token = 'test-token-0123456789';
  const served = await startServer({ source, token, listen: '127.0.0.1', port: 0, readonly: false });
  cleanups.push(
    () => source.close(),
    () => served.close(),
  );
  return { p, state, base: `http://127.0.0.1:${served.port}`, token };
}

describe.skipIf(!fs.existsSync(CHROMIUM))('serve in headless Chromium', () => {
  it('shows a loop iteration change within a second of the write', async () => {
    const { p, base, token } = await serve();
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(`${base}/#${token}`);
    const rowText = `(document.querySelector('[data-session="${SESSION}"]') || {}).textContent || ''`;
    let text = '';
    const deadline = Date.now() + 15_000;
    while (!/ralph 3\/100/.test(text) && Date.now() < deadline) text = await browser.evaluate<string>(rowText);
    expect(text).toMatch(/ralph 3\/100/);
    const file = path.join(p.root, 'state', 'sessions', SESSION, 'ralph-state.json');
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const t0 = Date.now();
    writeOmcJson(file, { ...v, iteration: 4, last_checked_at: new Date().toISOString() });
    while (!/ralph 4\/100/.test(text) && Date.now() - t0 < 5000) text = await browser.evaluate<string>(rowText);
    const took = Date.now() - t0;
    expect(text).toMatch(/ralph 4\/100/);
    expect(took).toBeLessThan(1000);
  });

  it('acknowledging an item on the page drops the count on the page and in status --tmux', async () => {
    const { p, state, base, token } = await serve();
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(`${base}/#${token}`);
    const count = `(document.getElementById('count') || {}).textContent || ''`;
    let before = '';
    const deadline = Date.now() + 15_000;
    while (!/needs you: \d+/.test(before) && Date.now() < deadline) before = await browser.evaluate<string>(count);
    const n = Number(/needs you: (\d+)/.exec(before)?.[1]);
    expect(n).toBeGreaterThan(0);
    const tmux = () =>
      run(process.execPath, [BUNDLE, 'status', '--tmux', '--root', p.root], {
        env: {
          PATH: process.env.PATH,
          HOME: state,
          XDG_STATE_HOME: state,
          CLAUDE_CONFIG_DIR: path.join(state, 'no-claude'),
        },
      }).then((r) => r.stdout);
    const tmuxBefore = await tmux();
    expect(tmuxBefore).toContain(String(n));
    await browser.evaluate(`document.querySelector('[data-need] button').click()`);
    let after = before;
    const t0 = Date.now();
    while (after === before && Date.now() - t0 < 5000) after = await browser.evaluate<string>(count);
    expect(after).toBe(n - 1 > 0 ? `needs you: ${n - 1}` : 'nothing needs you');
    const tmuxAfter = await tmux();
    expect(tmuxAfter).not.toBe(tmuxBefore);
  });

  it('refuses actions without the token, from another origin, and under another Host', async () => {
    const { base, token } = await serve();
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/api/ack`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ root: 'local', ids: ['x'] }),
      }).then((r) => r.status);
    expect(await post({})).toBe(401);
    expect(await post({ 'x-omc-top-token': 'wrong' })).toBe(401);
    expect(await post({ 'x-omc-top-token': token, origin: 'http://evil.example' })).toBe(403);
    expect(await post({ 'x-omc-top-token': token })).toBe(409); // accepted; nothing by that id needs you
    // A page on another origin, in the browser: its fetch is refused (no CORS, and the Origin check).
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate('data:text/html,<p>elsewhere</p>');
    const status = await browser.evaluate<string>(
      `fetch('${base}/events', { headers: { 'x-omc-top-token': '${token}' } }).then(r => String(r.status), e => 'blocked')`,
    );
    expect(status).toBe('blocked');
    // DNS rebinding: the right address under a foreign name.
    const http = await import('node:http');
    const code = await new Promise<number>((resolve) => {
      http
        .get(`${base}/`, { headers: { host: 'evil.example' } }, (r) => (r.resume(), resolve(r.statusCode ?? 0)))
        .on('error', () => resolve(-1));
    });
    expect(code).toBe(421);
  });
});
