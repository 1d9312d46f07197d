/**
 * `serve --all` / `serve --host` shows the hosts `omc-top --all` shows: the `--host` flags and the config file's
 * `hosts`, one project named by both shown once (stderr says which, in the fleet's words), and a bad `--host`
 * refused with the fleet's usage error and its reason. serve alone (one project) shows no host. The real bundle;
 * its `ssh` (on PATH) is the fake (test/fleet/fake-ssh.mjs), which answers each host's watch with a row: nothing
 * leaves the machine.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';
import { makeProject, waitFor } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const FAKE_SSH = path.join(import.meta.dirname, '..', 'fleet', 'fake-ssh.mjs');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A HOME with a config file holding `hosts`, and a PATH whose `ssh` is the fake. */
function world(hosts: string[]) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-hosts-'));
  cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
  const config = path.join(base, 'config', 'omc-top');
  fs.mkdirSync(config, { recursive: true });
  fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ hosts }));
  const bin = path.join(base, 'bin');
  const control = path.join(base, 'fake-ssh');
  fs.mkdirSync(bin);
  fs.mkdirSync(control);
  fs.writeFileSync(path.join(bin, 'ssh'), `#!/bin/sh\nexec '${process.execPath}' '${FAKE_SSH}' '${control}' "$@"\n`, {
    mode: 0o755,
  });
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: base,
    XDG_CONFIG_HOME: path.join(base, 'config'),
    XDG_STATE_HOME: path.join(base, 'state'),
    CLAUDE_CONFIG_DIR: path.join(base, 'no-claude'),
  };
  return { base, env };
}

async function serve(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await ended;
  });
  const io = { out: '', err: '' };
  child.stdout!.on('data', (d: Buffer) => (io.out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (io.err += d.toString('utf8')));
  await waitFor(() => /from another machine: .*\n/.test(io.out) || child.exitCode !== null, {
    timeoutMs: scaled(60_000),
    what: 'serve to print its address',
  });
  const m = /http:\/\/[^/]*:(\d+)\/#(\S+)/.exec(io.out);
  return { io, port: Number(m?.[1]), token: m?.[2] ?? '' };
}

/** The hosts of serve's first picture whose rows came (GET /events), with their row count; null before it answers. */
function pictureHosts(port: number, token: string): Promise<Record<string, number> | null> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/events', headers: { 'x-omc-top-token': token } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
        const m = /^data: (\{.*)$/m.exec(text);
        if (!m || !text.includes('\n\n')) return;
        req.destroy();
        try {
          const pic = JSON.parse(m[1] as string) as { roots: { host: string | null; rows: unknown[] }[] };
          resolve(Object.fromEntries(pic.roots.filter((r) => r.host !== null).map((r) => [r.host, r.rows.length])));
        } catch {
          resolve(null);
        }
      });
    });
    req.on('error', () => resolve(null));
  });
}

/** Asks serve's page until `ok` holds of its hosts (polled, never a fixed sleep); throws past the scaled limit. */
async function hostsWhen(port: number, token: string, ok: (h: Record<string, number>) => boolean, what: string) {
  const deadline = Date.now() + scaled(30_000);
  let last: Record<string, number> | null = null;
  for (;;) {
    last = await pictureHosts(port, token);
    if (last && ok(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("serve's hosts are the fleet's", () => {
  it("serve --host shows the config file's hosts too; one project named by both is one host, said once", async () => {
    const { base, env } = world(['me@devbox:/srv/shop/', 'me@gpu1:~/src/model']);
    const { io, port, token } = await serve(['--host', 'me@devbox:/srv/shop'], env, base);
    expect(port).toBeGreaterThan(0);
    expect(io.err).toContain(
      'omc-top serve: --host given twice: me@devbox:/srv/shop/ (the same as me@devbox:/srv/shop): shown once\n',
    );
    const hosts = await hostsWhen(
      port,
      token,
      (h) => Object.values(h).length === 2 && Object.values(h).every((n) => n > 0),
      "both hosts' rows on the page",
    );
    expect(hosts).toEqual({ 'me@devbox:/srv/shop': 1, 'me@gpu1:~/src/model': 1 });
  });

  it('serve --all shows them as omc-top --all does; serve of one project shows none', async () => {
    const { base, env } = world(['me@gpu1:~/src/model']);
    const all = await serve(['--all'], env, base);
    const hosts = await hostsWhen(
      all.port,
      all.token,
      (h) => h['me@gpu1:~/src/model'] === 1,
      "the config's host's row on the page",
    );
    expect(Object.keys(hosts)).toEqual(['me@gpu1:~/src/model']);

    const p = makeProject({ prefix: 'omc-top-serve-one-' });
    cleanups.push(() => p.cleanup());
    const one = await serve(['--root', p.root], env, base);
    expect(await pictureHosts(one.port, one.token)).toEqual({});
  });

  it('a bad --host is refused with the words and the reason omc-top --host gives', () => {
    const { base, env } = world([]);
    const bad = 'box:/srv/a\u2028b';
    const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env, cwd: base, encoding: 'utf8' });
    const fleet = run(['--host', bad]);
    const served = run(['serve', '--host', bad]);
    expect(fleet.status).toBe(2);
    expect(served.status).toBe(2);
    const said = (s: string) => s.split('\n').find((l) => l.includes('--host needs'));
    expect(said(served.stderr)).toMatch(/--host needs user@box or user@box:\/dir, not ".*": the directory holds bidi/);
    expect(said(served.stderr)?.replace(/^omc-top( serve)?: /, '')).toBe(
      said(fleet.stderr)?.replace(/^omc-top( serve)?: /, ''),
    );
  });
});
