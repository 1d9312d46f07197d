/**
 * omc-top's own state for the attention inbox: the acknowledgements file (a
 * second reader sees an ack at once; two writers merge; a damaged file is a
 * problem line and the acknowledgements read before still hold, never a
 * crash) and the status cache (used only while its monitor is alive and keeps
 * rewriting it, for its own root, with the acknowledgements as it read them).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AckFile } from '../../src/feeds/attention/acks.js';
import {
  liveStatusCache,
  STATUS_CACHE_STALE_MS,
  statusCacheName,
  statusCacheText,
} from '../../src/feeds/attention/status-cache.js';
import { atomicWriteSync, ensureOwnDir, touchUnder } from '../../src/io/safe-fs/index.js';
import { waitFor } from '../helpers/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function scratch(): { dir: string; root: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-acks-'));
  dirs.push(base);
  return { dir: path.join(base, 'state', 'omc-top'), root: path.join(base, 'proj', '.omc') };
}

/** A monitor stand-in in a process of its own: writes a status cache for `root`, then exits or lives on. */
function cacheWriter(dir: string, root: string, values: object, then: 'exits' | 'lives on') {
  const mod = (f: string) => JSON.stringify(path.resolve(f));
  const write = `f.ensureOwnDir(${JSON.stringify(dir)}); f.atomicWriteSync(${JSON.stringify(dir)}, m.statusCacheName(${JSON.stringify(root)}), m.statusCacheText(${JSON.stringify(root)}, ${JSON.stringify(values)}, null, Date.now(), null));`;
  const after = then === 'lives on' ? ' setInterval(() => undefined, 1000);' : '';
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `Promise.all([import(${mod('src/feeds/attention/status-cache.ts')}), import(${mod('src/io/safe-fs/index.ts')})]).then(([m, f]) => { ${write}${after} })`,
    ],
    { stdio: 'ignore' },
  );
}

describe('acknowledgements', () => {
  it('an ack is on disk for every other reader; two writers merge', async () => {
    const { dir, root } = scratch();
    const a = new AckFile(dir, root);
    const b = new AckFile(dir, root);
    expect(a.has('x')).toBe(false);
    await a.ack(['x'], 1);
    await b.ack(['y'], 2);
    const c = new AckFile(dir, root);
    expect([c.has('x'), c.has('y')]).toEqual([true, true]);
    expect(b.has('x')).toBe(true);
    expect(a.load()).toBe(true);
    expect(a.has('y')).toBe(true);
    // Another root's file is another file.
    expect(new AckFile(dir, `${root}2`).has('x')).toBe(false);
  });

  it('a damaged file: a problem line, the acks read before still hold, nothing throws; the next ack repairs it', async () => {
    const { dir, root } = scratch();
    const a = new AckFile(dir, root);
    await a.ack(['x'], 1);
    for (const bad of ['{ "version": 1, "acks": ', '[]', '{"version":2,"acks":{}}', '{"version":1,"acks":[1]}']) {
      fs.writeFileSync(path.join(dir, a.file), bad);
      expect(() => a.load()).not.toThrow();
      expect(a.problem).toMatch(
        /acknowledgements \(attention-[0-9a-f]{16}\.json\) .*; the ones read before still hold/,
      );
      expect(a.has('x')).toBe(true);
    }
    // A fresh reader has no last good value: nothing acknowledged, the same problem, no crash.
    const fresh = new AckFile(dir, root);
    expect(fresh.has('x')).toBe(false);
    expect(fresh.problem).not.toBeNull();
    await a.ack(['y'], 2);
    expect(a.problem).toBeNull();
    expect([a.has('x'), a.has('y')]).toEqual([true, true]);
  });

  it('entries that are not id → time are skipped, the rest hold', () => {
    const { dir, root } = scratch();
    const a = new AckFile(dir, root);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, a.file), JSON.stringify({ version: 1, acks: { good: 5, bad: 'x', '': 3 } }));
    a.load();
    expect([a.has('good'), a.has('bad'), a.size()]).toEqual([true, false, 1]);
  });
});

describe('status cache', () => {
  const values = { loops: 'ralph 2/5', active: 1, needs: 3, project: 'p' };
  /**
   * The cache as a monitor writes it (status-publisher.ts: this text, atomically replaced in the state directory),
   * at `at`: the file's time is set to it too, as a write at that moment would have.
   */
  const writeCache = (dir: string, root: string, at = Date.now()) => {
    const text = statusCacheText(root, values, null, at, null);
    if (text === null) return false;
    ensureOwnDir(dir);
    atomicWriteSync(dir, statusCacheName(root), text);
    fs.utimesSync(path.join(dir, statusCacheName(root)), at / 1000, at / 1000);
    return true;
  };

  it('is used while its writer runs, for its root, with the acknowledgements as it read them', async () => {
    const { dir, root } = scratch();
    expect(liveStatusCache(dir, root).why).toMatch(/no monitor/);
    expect(writeCache(dir, root)).toBe(true);
    expect(liveStatusCache(dir, root).cache?.values).toEqual(values);
    expect(liveStatusCache(dir, `${root}x`).cache).toBeNull();
    // An acknowledgement made since (by anyone): the cache no longer says what the monitor will show.
    await new AckFile(dir, root).ack(['x'], 1);
    expect(liveStatusCache(dir, root).why).toMatch(/acknowledgements changed/);
  });

  it('a writer that showed no life for STATUS_CACHE_STALE_MS is not used (running, but stuck); a beat revives it', () => {
    const { dir, root } = scratch();
    const at = Date.parse('2026-12-05T12:00:00Z');
    // This process is the writer: alive and not stopped, so only the age can refuse it.
    expect(writeCache(dir, root, at)).toBe(true);
    expect(liveStatusCache(dir, root, at + STATUS_CACHE_STALE_MS).cache?.values).toEqual(values);
    expect(liveStatusCache(dir, root, at + STATUS_CACHE_STALE_MS + 1000).why).toMatch(
      /its monitor has shown no life for 21 s/,
    );
    // Written "after now": the clock moved back; not trusted until its writer's next beat.
    expect(liveStatusCache(dir, root, at - STATUS_CACHE_STALE_MS - 1).why).toMatch(/clock moved back/);
    // The heartbeat: the file's time set to now, its content as it was.
    const beat = at + 60_000;
    expect(touchUnder(dir, statusCacheName(root), beat)).toBe(true);
    expect(liveStatusCache(dir, root, beat + STATUS_CACHE_STALE_MS).cache).toMatchObject({ at, values });
    expect(liveStatusCache(dir, root, beat + STATUS_CACHE_STALE_MS + 1000).cache).toBeNull();
    expect(touchUnder(dir, `${statusCacheName(root)}.none`, beat)).toBe(false);
  });

  it('a writer that is stopped (Ctrl-Z, kill -STOP) is not used until it runs again', async () => {
    const { dir, root } = scratch();
    fs.mkdirSync(dir, { recursive: true });
    // A monitor stand-in: writes its cache, then lives on.
    const child = cacheWriter(dir, root, values, 'lives on');
    try {
      await waitFor(() => liveStatusCache(dir, root).cache ?? null, { what: 'the cache in use', timeoutMs: 30_000 });
      child.kill('SIGSTOP');
      await waitFor(() => /stopped/.test(liveStatusCache(dir, root).why ?? '') || null, { what: 'the writer stopped' });
      child.kill('SIGCONT');
      await waitFor(() => liveStatusCache(dir, root).cache ?? null, { what: 'the cache used again' });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a writer that is gone, or a damaged file, is not used', async () => {
    const { dir, root } = scratch();
    fs.mkdirSync(dir, { recursive: true });
    // A process that wrote a cache and exited.
    const child = cacheWriter(dir, root, values, 'exits');
    await new Promise((r) => child.on('exit', r));
    await waitFor(() => fs.existsSync(path.join(dir, statusCacheName(root))) || null, { what: 'the cache' });
    expect(liveStatusCache(dir, root).why).toMatch(/not running/);
    fs.writeFileSync(path.join(dir, statusCacheName(root)), '{"version":1,"root":');
    expect(liveStatusCache(dir, root).cache).toBeNull();
    fs.writeFileSync(path.join(dir, statusCacheName(root)), JSON.stringify({ version: 1, root, pid: process.pid }));
    expect(liveStatusCache(dir, root).cache).toBeNull();
  });
});
