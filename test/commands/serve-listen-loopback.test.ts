/**
 * `serve --listen` and `--allow-host` as a user types them, through the built bundle: every address of
 * 127.0.0.0/8 and ::1 is loopback (no warning that the page is reachable from elsewhere; it said so for
 * 127.0.0.2), `--listen [::1]` (the form a URL writes) listens on ::1, and `--allow-host` takes IPv6 literals with
 * or without brackets, matched against the bracketed Host a browser sends. A listen that is not loopback
 * (0.0.0.0) still warns. Every request goes to a loopback address.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';
import type { TempProject } from '../helpers/fixtures.js';

/** serve started in `p` with `args`, once it printed its address: the port, and its stdout and stderr so far. */
async function startServe(p: TempProject, args: string[]) {
  const home = path.join(p.dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
  delete env.OMC_STATE_DIR;
  delete env.CLAUDE_CONFIG_DIR;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--readonly', ...args], {
    cwd: p.dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const io = { out: '', err: '' };
  child.stdout.on('data', (d: Buffer) => (io.out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (io.err += d.toString('utf8')));
  const ended = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  onTestFinished(() => void child.kill('SIGKILL'));
  // Both lines (the address, then how to reach it from another machine), or the end.
  const first = await Promise.race([
    new Promise<'listening'>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address: ${io.out} ${io.err}`)), scaled(60_000));
      child.stdout.on('data', () => {
        if (/from another machine: .*\n/.test(io.out)) {
          clearTimeout(timer);
          resolve('listening');
        }
      });
    }),
    ended.then(() => 'ended' as const),
  ]);
  const port = Number(/:(\d+)\/#/.exec(io.out)?.[1] ?? 0);
  /** SIGTERM, then the exit code. */
  const stop = async () => {
    child.kill('SIGTERM');
    return ended;
  };
  return { first, port, io, stop, ended };
}

/** GET / from a loopback `address`, naming `host` in the Host header: the status. */
function status(address: string, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: address, port, path: '/', headers: { host } }, (r) => {
        r.resume();
        r.on('end', () => resolve(r.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/** Whether this machine can listen on ::1 (a machine without IPv6 says so; the flags are still checked). */
function canListenV6(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(0, '::1', () => s.close(() => resolve(true)));
  });
}

const WARNING = /WARNING: listening on/;

describe('serve --listen on a loopback address', () => {
  it('127.0.0.2 is loopback: no warning, the page answers there', async ({ emptyProject }) => {
    const s = await startServe(emptyProject, ['--listen', '127.0.0.2']);
    expect(s.first, s.io.err).toBe('listening');
    expect(s.io.out).toMatch(/^omc-top serve: http:\/\/127\.0\.0\.2:\d+\/#/);
    expect(s.io.out).toContain(`ssh -L ${s.port}:127.0.0.2:${s.port} <this host>`);
    expect(await status('127.0.0.2', s.port, `127.0.0.2:${s.port}`)).toBe(200);
    expect(await s.stop()).toBe(0);
    expect(s.io.err).not.toMatch(WARNING);
  });

  it('[::1] (as a URL writes it) listens on ::1 with no warning; --allow-host takes IPv6 with brackets or without', async ({
    emptyProject,
  }) => {
    const s = await startServe(emptyProject, [
      '--listen',
      '[::1]',
      '--allow-host',
      '[2001:DB8::1]:9000',
      '--allow-host',
      'fd00::0:2',
    ]);
    expect(s.io.err).not.toMatch(/needs/);
    if (!(await canListenV6())) {
      // No IPv6 here: the address was taken, and the listen itself failed (said as such).
      expect(s.first).toBe('ended');
      expect(s.io.err).toContain('cannot listen on [::1]:0');
      return;
    }
    expect(s.first, s.io.err).toBe('listening');
    expect(s.io.out).toMatch(/^omc-top serve: http:\/\/\[::1\]:\d+\/#/);
    expect(await status('::1', s.port, `[::1]:${s.port}`)).toBe(200);
    // The names given, as a browser sends them (bracketed, in their short form), on any port.
    expect(await status('::1', s.port, '[2001:db8::1]:9000')).toBe(200);
    expect(await status('::1', s.port, '[2001:db8::1]')).toBe(200);
    expect(await status('::1', s.port, '[fd00::2]:8377')).toBe(200);
    // Another address is still refused, and stderr says how to allow it.
    expect(await status('::1', s.port, '[2001:db8::3]:9000')).toBe(421);
    expect(await s.stop()).toBe(0);
    expect(s.io.err).not.toMatch(WARNING);
    expect(s.io.err).toContain('give it with --allow-host 2001:db8::3');
  });

  it('0.0.0.0 is not loopback: it still warns', async ({ emptyProject }) => {
    const s = await startServe(emptyProject, ['--listen', '0.0.0.0']);
    expect(s.first, s.io.err).toBe('listening');
    expect(await s.stop()).toBe(0);
    expect(s.io.err).toMatch(/WARNING: listening on 0\.0\.0\.0, not only this machine/);
  });
});
