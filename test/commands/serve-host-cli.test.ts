/**
 * `serve` as a user starts it (the real bundle): `--allow-host NAME:PORT` is taken (a name is answered to on any
 * port), the refusal's hint gives the `--allow-host` that would let the name in, and `--listen ::1` prints the tunnel
 * and the URL to `[::1]`, where it listens. Every request goes to a loopback address.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';
import { makeProject, waitFor } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Starts `serve …` on a fresh project; resolves once both of its lines are out. */
async function serve(args: string[]) {
  const p = makeProject({ prefix: 'omc-top-serve-host-' });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-home-'));
  cleanups.push(
    () => p.cleanup(),
    () => fs.rmSync(home, { recursive: true, force: true }),
  );
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  delete env.XDG_STATE_HOME;
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--root', p.root, ...args], {
    env,
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
  const port = Number(/http:\/\/[^/]*:(\d+)\//.exec(io.out)?.[1]);
  return { io, port };
}

function status(address: string, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: address, port, path: '/', headers: { host } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('serve from the command line', () => {
  it('--allow-host NAME:PORT is taken and answered to on any port; a refusal says which --allow-host lets it in', async () => {
    const { io, port } = await serve(['--allow-host', 'box.lan:9000']);
    expect(port).toBeGreaterThan(0);
    expect(await status('127.0.0.1', port, 'box.lan:9000')).toBe(200);
    expect(await status('127.0.0.1', port, 'box.lan:9443')).toBe(200);
    expect(await status('127.0.0.1', port, 'localhost:9000')).toBe(200);
    expect(await status('127.0.0.1', port, 'other.lan:9000')).toBe(421);
    await waitFor(() => io.err.includes('other.lan'), { what: 'the refusal on stderr' });
    expect(io.err).toContain(
      'omc-top serve: refused a request for Host "other.lan:9000": not an address it listens on; if that name is this machine’s, give it with --allow-host other.lan\n',
    );
  });

  it('--listen ::1: the URL and the tunnel name [::1], where it listens', async () => {
    const { io, port } = await serve(['--listen', '::1']);
    const lines = io.out.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^omc-top serve: http://\\[::1\\]:${port}/#`));
    expect(lines[1]).toBe(
      `  from another machine: ssh -L ${port}:[::1]:${port} <this host>, then open the same URL there`,
    );
    expect(await status('::1', port, `[::1]:${port}`)).toBe(200);
  });
});
