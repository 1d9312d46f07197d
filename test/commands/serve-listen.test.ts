/**
 * `serve --listen 0.0.0.0`: the page answers to the machine's own addresses (what another machine must use), to the
 * names the user gave with --allow-host, and still to nothing else (DNS rebinding). Every request goes to a loopback
 * address; 127.0.0.2 stands in for "the machine's address" (the server is handed the address list it would read from
 * os.networkInterfaces()).
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/commands/serve/server.js';
import { allowedHosts, hostAllowed, isLoopbackAddress } from '../../src/commands/serve/guard.js';
import { allowHostName, listenAddress, runServeCommand } from '../../src/commands/serve/command.js';
import { UsageError } from '../../src/commands/args.js';
import { singleSource } from '../../src/commands/serve/source.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject } from '../helpers/fixtures.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOKEN = 'test-token-0123456789';

async function serve(listen: string, addresses: () => readonly string[], names: string[] = []) {
  const p = makeProject({ prefix: 'omc-top-serve-listen-' });
  cleanups.push(() => p.cleanup());
  const store = new OmcStore({ root: p.root, readonly: true, watch: 'none', projectDir: p.dir });
  store.start();
  const source = singleSource(store, 'shop', { XDG_STATE_HOME: p.dir });
  const refused: string[] = [];
  const served = await startServer({
    source,
    token: TOKEN,
    listen,
    port: 0,
    readonly: true,
    names,
    addresses,
    onRefusedHost: (h) => refused.push(h),
  });
  cleanups.push(
    () => source.close(),
    () => served.close(),
  );
  return { port: served.port, refused };
}

/** GET `path` from a loopback `address`, naming `host` in the Host header; the status and the body. */
function get(address: string, port: number, host: string, path = '/', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: address, port, path, headers: { host, ...headers } }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('serve --listen 0.0.0.0', () => {
  it("answers to the machine's addresses and the names given, refuses any other Host and says why", async () => {
    const { port, refused } = await serve('0.0.0.0', () => ['127.0.0.1', '127.0.0.2', '::1'], ['box.lan']);
    // The machine's address, as another machine would open it.
    const page = await get('127.0.0.2', port, `127.0.0.2:${port}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>omc-top</title>');
    // Its stream too, with the token, from the page's own origin.
    const events = await new Promise<number>((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.2',
          port,
          path: '/events',
          headers: { host: `127.0.0.2:${port}`, origin: `http://127.0.0.2:${port}`, 'x-omc-top-token': TOKEN },
        },
        (r) => {
          resolve(r.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', reject);
    });
    expect(events).toBe(200);
    // A name the user gave for this machine.
    expect((await get('127.0.0.1', port, `box.lan:${port}`)).status).toBe(200);
    expect((await get('127.0.0.1', port, `BOX.LAN:${port}`)).status).toBe(200);
    // Anything else is still refused (a rebinding page sends its own name), and the refusal says why.
    for (const host of [`evil.example:${port}`, `127.0.0.3:${port}`, `127.0.0.2:${port + 1}`]) {
      const r = await get('127.0.0.1', port, host);
      expect(r.status, host).toBe(421);
      expect(JSON.parse(r.body).error).toMatch(/answers only to an address it listens on .*--allow-host/);
    }
    await get('127.0.0.1', port, `evil.example:${port}`);
    // serve's stderr hears of each refused name once.
    expect(refused).toEqual([`evil.example:${port}`, `127.0.0.3:${port}`, `127.0.0.2:${port + 1}`]);
    // A named --listen answers to that address only, not to the machine's others.
    const named = await serve('127.0.0.1', () => ['127.0.0.1', '127.0.0.2']);
    expect((await get('127.0.0.1', named.port, `127.0.0.1:${named.port}`)).status).toBe(200);
    expect((await get('127.0.0.1', named.port, `127.0.0.2:${named.port}`)).status).toBe(421);
  });

  it('--allow-host takes a host name or an IP address (IPv6 with brackets or without), nothing else', async () => {
    await expect(runServeCommand(['--allow-host', 'evil name'])).rejects.toThrow(
      /--allow-host needs a host name or an IP address, not "evil name"/,
    );
    await expect(runServeCommand(['--allow-host', 'a.example/../x'])).rejects.toThrow(UsageError);
    await expect(runServeCommand(['--listen', '[127.0.0.1]'])).rejects.toThrow(/--listen needs an address/);
    // As the Host header names it: an IPv6 address bracketed, in the short form a browser writes; no port.
    expect(allowHostName('Box.LAN:9000')).toBe('box.lan');
    expect(allowHostName('192.0.2.2')).toBe('192.0.2.2');
    expect(allowHostName('::1')).toBe('[::1]');
    expect(allowHostName('0:0:0:0:0:0:0:1')).toBe('[::1]');
    expect(allowHostName('[2001:DB8::1]:9000')).toBe('[2001:db8::1]');
    expect(allowHostName('2001:db8::1')).toBe('[2001:db8::1]');
    for (const bad of ['[evil]', '[::1', 'fe80::1%eth0', '[fe80::1%25eth0]', '[]', 'a b'])
      expect(allowHostName(bad), bad).toBeNull();
    expect(listenAddress('[::1]')).toBe('::1');
    expect(listenAddress('::')).toBe('::');
    expect(listenAddress('localhost')).toBe('localhost');
    for (const bad of ['[127.0.0.1]', '[::1', 'a b', '']) expect(listenAddress(bad), bad).toBeNull();
    for (const a of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '0:0::1', '::ffff:127.0.0.1', 'localhost'])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['0.0.0.0', '::', '128.0.0.1', '192.0.2.2', '::2', 'fe80::1', 'box.lan'])
      expect(isLoopbackAddress(a), a).toBe(false);
  });

  it('an address the machine gains later (DHCP, a VPN) is answered to', async () => {
    let list = ['127.0.0.1'];
    const { port } = await serve('0.0.0.0', () => list);
    list = ['127.0.0.1', '127.0.0.2'];
    expect((await get('127.0.0.2', port, `127.0.0.2:${port}`)).status).toBe(200);
  });
});

describe('the Host a browser sends through a tunnel or on port 80', () => {
  it('a loopback literal on any port or none passes, and a name given with --allow-host; any other Host is 421', async () => {
    const { port, refused } = await serve('127.0.0.1', () => ['127.0.0.1'], ['box.lan']);
    // ssh -L 9000:127.0.0.1:<port>: the browser names the tunnel's end; port 80: it names no port.
    for (const host of ['localhost:9000', '127.0.0.1', 'localhost', '[::1]:9000', '[::1]', 'box.lan:9000', 'box.lan'])
      expect((await get('127.0.0.1', port, host)).status, host).toBe(200);
    // The stream with the token, from the tunnel's origin (the page's own, as the browser sees it).
    const stream = (origin: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port,
            path: '/events',
            headers: { host: 'localhost:9000', origin, 'x-omc-top-token': TOKEN },
          },
          (r) => {
            resolve(r.statusCode ?? 0);
            req.destroy();
          },
        );
        req.on('error', reject);
      });
    expect(await stream('http://localhost:9000')).toBe(200);
    expect(await stream('http://evil.example:9000')).toBe(403);
    // Still no token, no stream.
    expect((await get('127.0.0.1', port, 'localhost:9000', '/events')).status).toBe(401);
    for (const host of [
      'evil.example',
      'evil.example:9000',
      '127.0.0.2',
      `127.0.0.2:${port}`,
      'localhost.evil.example',
      'box.lan.evil',
    ]) {
      expect((await get('127.0.0.1', port, host)).status, host).toBe(421);
    }
    expect(refused).toContain('evil.example:9000');
  });

  it("the listen address and the machine's addresses pass with serve's own port, or none when it is 80", () => {
    const h = allowedHosts('0.0.0.0', 80, [], ['192.0.2.2']);
    expect(hostAllowed('192.0.2.2', h)).toBe(true);
    expect(hostAllowed('192.0.2.2:80', h)).toBe(true);
    expect(hostAllowed('192.0.2.2:81', h)).toBe(false);
    const other = allowedHosts('192.0.2.2', 8377);
    expect(hostAllowed('192.0.2.2:8377', other)).toBe(true);
    expect(hostAllowed('192.0.2.2', other)).toBe(false);
    expect(hostAllowed('localhost:1', other)).toBe(true);
  });
});
