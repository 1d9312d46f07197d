/**
 * `omc-top serve` judges by the OMC that runs the project's hooks (the page said what the newest book would, whatever
 * was installed), and follows a plugin update while it runs, as the monitor does: the page's row is re-judged. The
 * real bundle (`node scripts/build.mjs` first), its page's event stream read over loopback with the token.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, waitFor, writeLiveRalph, type TempProject } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, omc55Root, pluginWorld, writeRetiredUltrawork } from '../helpers/omc-plugin.js';
import { BIN } from '../helpers/pty.js';

const SID = 'aaaaaaaa-1111-4222-8333-444444444444';
const SID2 = 'bbbbbbbb-1111-4222-8333-444444444444';
const cleanups: Array<() => void> = [];
let p: TempProject | null = null;
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  p?.cleanup();
  p = null;
});

/** `omc-top serve --readonly` in `cwd`, and everything its page's event stream has sent so far. */
async function serveEvents(
  cwd: string,
  env: Record<string, string>,
  base: string,
): Promise<(() => string) & { url: URL; stderr: () => string }> {
  const full: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    XDG_CONFIG_HOME: path.join(base, 'config'),
    XDG_STATE_HOME: path.join(base, 'state'),
    XDG_CACHE_HOME: path.join(base, 'cache'),
  };
  delete full.CI;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--readonly'], {
    cwd,
    env: full,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const url = new URL(
    await waitFor(() => /http:\/\/\S+/.exec(out)?.[0], { timeoutMs: 60_000, what: `the URL (${err})` }),
  );
  const stream = eventStream(url);
  return Object.assign(() => stream.events, { url, stderr: () => err });
}

/** The page's event stream at `url` (its token in the hash): what it has sent so far. */
function eventStream(url: URL): { events: string } {
  const stream = { events: '' };
  const req = http.get({
    host: url.hostname,
    port: url.port,
    path: '/events',
    headers: { host: url.host, 'x-omc-top-token': url.hash.slice(1) },
  });
  req.on('response', (res) => res.on('data', (d: Buffer) => (stream.events += d.toString('utf8'))));
  req.on('error', () => undefined);
  cleanups.unshift(() => req.destroy());
  return stream;
}

describe('serve and the OMC that runs the hooks', () => {
  it("the page's row is judged by the installed OMC's book, and re-judged after a plugin update", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-upgrade-'));
    cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
    const w = pluginWorld(tmp);
    installPlugin(w.config, OMC444);
    p = makeProject({ prefix: 'omc-top-serve-upgrade-proj-' });
    writeRetiredUltrawork(p.root, SID);
    const events = await serveEvents(p.dir, w.env, tmp);
    await waitFor(() => events().includes(SID), { timeoutMs: 30_000, what: `the row (${events()})` });
    expect(events()).toContain('"status":"enforced"');
    expect(events()).not.toContain('not-enforced');

    installPlugin(w.config, OMC55); // `claude plugin update`
    await waitFor(() => events().includes('"status":"not-enforced"'), {
      timeoutMs: 30_000,
      what: `the re-judged row (${events()})`,
    });
    expect(events()).toContain('ultrawork 2/50 (retired)');
    // serve has no message line: the monitor's line for it is on its stderr.
    await waitFor(() => events.stderr().includes('omc-top serve: OMC 5.5.0 now (was 4.4.4): verdicts re-judged\n'), {
      what: `the OMC line on stderr (${events.stderr()})`,
    });
  });
  it('an upgrade that moves the state (OMC_STATE_DIR: 4.4.4 ignores it, 5.5.0 keeps state there) is followed', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-moved-'));
    cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
    const w = pluginWorld(tmp);
    installPlugin(w.config, OMC444);
    p = makeProject({ prefix: 'omc-top-serve-moved-proj-' });
    writeRetiredUltrawork(p.root, SID);
    const env = { ...w.env, OMC_STATE_DIR: path.join(tmp, 'central') };
    // Where OMC 5.5.0's own code keeps this project's state, with a ralph loop its hooks left there.
    const central = omc55Root(p.dir, env);
    writeLiveRalph({ root: central }, { sessionId: SID2, iteration: 3, prompt: 'ralph in the central state' });
    const events = await serveEvents(p.dir, env, tmp);
    await waitFor(() => events().includes(SID), { timeoutMs: 30_000, what: `the row (${events()})` });
    expect(events()).not.toContain(SID2);

    installPlugin(w.config, OMC55); // `claude plugin update`
    await waitFor(() => events().includes(SID2), { timeoutMs: 30_000, what: `the new root's row (${events()})` });
    // A page opened now gets the whole picture: the new root's loop, none of the old root's.
    const fresh = eventStream(events.url);
    const first = await waitFor(() => /^data: .*$/m.exec(fresh.events)?.[0], { what: 'a fresh page' });
    expect(first).toContain(SID2);
    expect(first).not.toContain(SID);
    // And what changes there now reaches the page.
    writeLiveRalph({ root: central }, { sessionId: SID2, iteration: 4, prompt: 'ralph in the central state' });
    await waitFor(() => events().includes('ralph 4/'), { timeoutMs: 15_000, what: `the change there (${events()})` });
  });

  it("OMC_STATE_DIR written into the project's .claude/settings.json is followed there, and said on stderr", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-setting-'));
    cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
    const w = pluginWorld(tmp);
    installPlugin(w.config, OMC55);
    p = makeProject({ prefix: 'omc-top-serve-setting-proj-' });
    writeLiveRalph(p, { sessionId: SID, iteration: 2, prompt: 'ralph in the project .omc' });
    const base = path.join(tmp, 'central');
    // Where OMC 5.5.0's own code keeps this project's state once its hooks get OMC_STATE_DIR, with a loop there.
    const central = omc55Root(p.dir, { ...w.env, OMC_STATE_DIR: base });
    writeLiveRalph({ root: central }, { sessionId: SID2, iteration: 3, prompt: 'ralph in the central state' });
    const events = await serveEvents(p.dir, w.env, tmp);
    await waitFor(() => events().includes(SID), { timeoutMs: 30_000, what: `the row (${events()})` });
    expect(events()).not.toContain(SID2);

    // Claude Code gives its running hooks the new value at once: OMC writes under OMC_STATE_DIR from now on.
    const root = p.root;
    fs.mkdirSync(path.join(p.dir, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(p.dir, '.claude', 'settings.json'), JSON.stringify({ env: { OMC_STATE_DIR: base } }));
    await waitFor(() => events().includes(SID2), { timeoutMs: 30_000, what: `the new root's row (${events()})` });
    const said = `omc-top serve: OMC_STATE_DIR set in the project's .claude/settings.json: state read from ${central} now (was ${root})\n`;
    await waitFor(() => events.stderr().includes(said), { what: `the move on stderr (${events.stderr()})` });
    // A page opened now gets the whole picture: the new root's loop, none of the old root's.
    const fresh = eventStream(events.url);
    const first = await waitFor(() => /^data: .*$/m.exec(fresh.events)?.[0], { what: 'a fresh page' });
    expect(first).toContain(SID2);
    expect(first).not.toContain(SID);
  });
});
