/**
 * The serve page says what serve's stderr says about the config file (a phone never sees that stderr): the same
 * line, word for word, `push is OFF` included when the file's only channel was left out; a key holding markup
 * and a character reference reads as the text it is, and makes no element. The real bundle
 * (`node scripts/build.mjs` first) in Debian's headless Chromium; a good config file puts no line on the page.
 * The page is served before any token is checked: the line (the file's path, its fault) reaches only a client
 * with the token, on its stream.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { NO_CLAUDE_DIR, waitFor } from '../helpers/fixtures.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

/** `omc-top serve --readonly` in `cwd` with `config` as the config file: the page's URL and serve's stderr. */
async function serve(cwd: string, base: string, config: unknown): Promise<{ url: string; err: () => string }> {
  fs.mkdirSync(path.join(base, 'config', 'omc-top'), { recursive: true });
  fs.writeFileSync(path.join(base, 'config', 'omc-top', 'config.json'), JSON.stringify(config));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: base,
    XDG_CONFIG_HOME: path.join(base, 'config'),
    XDG_STATE_HOME: path.join(base, 'state'),
    XDG_CACHE_HOME: path.join(base, 'cache'),
    CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR,
  };
  delete env.CI;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--readonly'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((r) => child.once('close', r));
  onTestFinished(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const url = await waitFor(() => /http:\/\/\S+/.exec(out)?.[0], { timeoutMs: 60_000, what: `the URL (${err})` });
  return { url, err: () => err };
}

async function browse(url: string) {
  const browser = await launchChromium();
  onTestFinished(() => browser.close());
  await browser.navigate(url);
  // The page is up once its script connected (the header's connection cell says so).
  const deadline = Date.now() + scaled(15_000);
  while ((await browser.evaluate<string>(`(document.getElementById('conn') || {}).textContent || ''`)) !== 'live') {
    if (Date.now() > deadline) throw new Error('the page never connected');
  }
  return browser;
}

const CONFIG_TEXT = `(document.getElementById('config') || {}).textContent ?? null`;

/** A GET on serve's address (`url` without its `#token`): status and body; `token` in the header when given. */
function get(url: string, pathName: string, token?: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: u.hostname, port: u.port, path: pathName, headers: token ? { 'x-omc-top-token': token } : {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
          // The stream stays open: its first picture is enough.
          if (pathName === '/events' && /^data: \{/m.test(body)) req.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, body });
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.on('error', reject);
  });
}

const BAD_CONFIG = { push: { channels: [{ type: 'ntfy', url: 'ftp://127.0.0.1/x' }] } };

describe("serve's config line is for a client with the token", () => {
  it('the page served before the token says nothing of the config file; the stream with the token says its line', async ({
    emptyProject,
    tempDir,
  }) => {
    const base = tempDir('omc-top-serve-cfg-');
    const { url, err } = await serve(emptyProject.dir, base, BAD_CONFIG);
    const said = await waitFor(() => /^omc-top serve: (config: .*)$/m.exec(err())?.[1], { what: 'the config line' });
    const token = new URL(url).hash.slice(1);
    expect(token).not.toBe('');
    for (const file of ['/', '/app.js', '/app.css']) {
      const page = await get(url, file);
      expect(page.status, file).toBe(200);
      expect(page.body, file).not.toContain('push is OFF');
      expect(page.body, file).not.toContain(base);
      expect(page.body, file).not.toContain('config.json');
    }
    expect((await get(url, '/events')).status).toBe(401);
    const stream = await get(url, '/events', token);
    expect(stream.status).toBe(200);
    const line = /^event: config\ndata: (.*)$/m.exec(stream.body)?.[1];
    expect(line && (JSON.parse(line) as string)).toBe(said);
  });
});

describe.skipIf(!fs.existsSync(CHROMIUM))("the serve page says the config file's line", () => {
  it('the words serve says on stderr, push is OFF included, markup in a key shown as text', async ({
    emptyProject,
    tempDir,
  }) => {
    const key = '<img src=x onerror="document.title=1">&amp;';
    const { url, err } = await serve(emptyProject.dir, tempDir('omc-top-serve-cfg-'), { ...BAD_CONFIG, [key]: 1 });
    // Said before the URL, on the other pipe: it may arrive after it.
    const said = await waitFor(() => /^omc-top serve: (config: .*)$/m.exec(err())?.[1], { what: 'the config line' });
    expect(said).toMatch(/push is OFF \(no channel left\)/);
    expect(said).toContain(key);
    const browser = await browse(url);
    // Shown once the stream (with the token) brought it.
    const deadline = Date.now() + scaled(15_000);
    while ((await browser.evaluate<string | null>(CONFIG_TEXT)) !== said) {
      if (Date.now() > deadline) throw new Error(`the page never said ${said}`);
    }
    // Text, not markup: no element came from the key, and its reference is not read as "&".
    expect(await browser.evaluate<number>(`document.querySelectorAll('#config *').length`)).toBe(0);
    expect(await browser.evaluate<string>(`document.title`)).toBe('omc-top');

    // The file fixed: serve says nothing, and neither does the page.
    const fixed = await serve(emptyProject.dir, tempDir('omc-top-serve-cfg-'), { title: false });
    expect(fixed.err()).toBe('');
    const page = await browse(fixed.url);
    expect(await page.evaluate<string | null>(CONFIG_TEXT)).toBeNull();
  });
});
