/**
 * The push lease under contention: when several omc-top start on one project at the same instant, exactly one of
 * them takes the lease and pushes, the others stay quiet; a process that is taking it this instant (its marker
 * beside the lease) is left to finish; a marker left by a process that died while taking does not block for good.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PushLease } from '../../src/feeds/notify/push/lease.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';

const LEASE_MODULE = fileURLToPath(new URL('../../src/feeds/notify/push/lease.ts', import.meta.url));
const ROOT = '/srv/shop/.omc';

/**
 * A child that says it is ready once loaded, takes the lease when `go` appears, prints whether it may push, and
 * lives until `done` appears (so the one holding the lease is alive while the others look at it).
 */
const CHILD = `
import fs from 'node:fs';
const [, , mod, dir, root, go, done, ready] = process.argv;
const { PushLease } = await import(mod);
const until = (f) => new Promise((r) => { const t = setInterval(() => fs.existsSync(f) && (clearInterval(t), r()), 2); });
fs.writeFileSync(ready + '/' + process.pid, '');
await until(go);
const lease = new PushLease(dir, root);
process.stdout.write(String(lease.mayPush()) + '\\n');
await until(done);
`;

interface Child {
  out: () => string;
  closed: Promise<void>;
}

function startChild(script: string, dir: string, go: string, done: string, ready: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script, LEASE_MODULE, dir, ROOT, go, done, ready], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const closed = new Promise<void>((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}: ${err}`)))),
  );
  return { out: () => out.trim(), closed };
}

describe('the push lease taken by many at once', () => {
  it('eight processes released together: exactly one may push, and the lease names it', async ({ tempDir }) => {
    const base = tempDir('lease-race-');
    const script = path.join(base, 'child.mjs');
    fs.writeFileSync(script, CHILD);
    for (let round = 0; round < 2; round++) {
      const dir = path.join(base, `state-${round}`);
      const go = path.join(base, `go-${round}`);
      const done = path.join(base, `done-${round}`);
      const ready = path.join(base, `ready-${round}`);
      fs.mkdirSync(ready);
      const children = Array.from({ length: 8 }, () => startChild(script, dir, go, done, ready));
      // Released together: `go` is written once every child has loaded and is polling for it.
      await waitFor(() => fs.readdirSync(ready).length === 8, { what: 'eight children loaded', timeoutMs: 60_000 });
      fs.writeFileSync(go, '');
      // Every child answers while all of them still live (the holder too), then they are let go.
      await waitFor(() => children.every((c) => c.out() !== ''), { what: 'eight answers', timeoutMs: 30_000 });
      const answers = children.map((c) => c.out());
      fs.writeFileSync(done, '');
      await Promise.all(children.map((c) => c.closed));
      expect(answers).toHaveLength(8);
      expect(answers.filter((a) => a === 'true')).toHaveLength(1);
      expect(fs.readdirSync(dir).filter((n) => n.endsWith('.taking'))).toEqual([]);
    }
  });

  it('a process taking it this instant is left to finish: another one stays quiet and writes nothing', ({
    tempDir,
  }) => {
    const dir = tempDir('lease-marker-');
    const name = rootFileName('push-lease', ROOT);
    fs.writeFileSync(path.join(dir, `${name}.taking`), '');
    const lease = new PushLease(dir, ROOT, { pid: 4242, startIdentity: () => 'absent' });
    expect(lease.mayPush()).toBe(false);
    expect(fs.existsSync(path.join(dir, name))).toBe(false);
  });

  it('a marker left by a process that died while taking it is cleared after a while, and the lease taken', ({
    tempDir,
  }) => {
    const dir = tempDir('lease-stale-');
    const name = rootFileName('push-lease', ROOT);
    const marker = path.join(dir, `${name}.taking`);
    fs.writeFileSync(marker, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(marker, old, old);
    const lease = new PushLease(dir, ROOT, { pid: 4242, startIdentity: () => 'absent' });
    expect(lease.mayPush()).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')).pid).toBe(4242);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
