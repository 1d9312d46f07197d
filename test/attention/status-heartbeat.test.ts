/**
 * The status cache's heartbeat (status-publisher.ts): the monitor whose cache
 * is on disk rewrites it while nothing changes, so `status` can tell it from a
 * monitor that still runs but is stuck; another monitor on the same root
 * leaves a cache its writer still vouches for alone, and takes it over once
 * that writer is silent or stopped. Time is driven: the store's clock and
 * fake timers (the writes themselves land on disk for real).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import {
  liveStatusCache,
  readStatusCache,
  STATUS_CACHE_HEARTBEAT_MS,
  STATUS_CACHE_STALE_MS,
  statusCacheName,
} from '../../src/feeds/attention/status-cache.js';
import { publishStatusCache, STATUS_CACHE_COUNT_MS } from '../../src/feeds/attention/status-publisher.js';
import { runningStartIdentity } from '../../src/io/process-start.js';
import { atomicWriteSync, ensureOwnDir, LatestFileWrite } from '../../src/io/safe-fs/index.js';
import type { OmcStore } from '../../src/store/store.js';
import { waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { describe, expect, it, type Fixtures } from '../helpers/it.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'eeeeeeee-1111-4222-8333-444444444444';
const cleanups: (() => void)[] = [];
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) c();
});

/** Until `fn` holds, polled on setImmediate (setTimeout is faked here); the deadline is real time. */
async function landed<T>(fn: () => T | null | undefined | false, what: string): Promise<T> {
  const deadline = Date.now() + scaled(10_000);
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** A monitor on `p` with the store's clock at `clock.now`, its first picture settled; timers faked from here. */
async function monitorOn(
  p: Fixtures['emptyProject'],
  newStore: Fixtures['newStore'],
  dir: string,
  clock: { now: number },
): Promise<{ store: OmcStore; monitor: AttentionMonitor }> {
  writeLiveRalph(p, { sessionId: SID, iteration: 2, max: 10 });
  const store = newStore({
    root: p.root,
    projectDir: p.dir,
    watch: 'none',
    claude: { live: false },
    stateDir: dir,
    clock: () => clock.now,
  });
  store.start();
  const monitor = new AttentionMonitor(store);
  cleanups.push(() => monitor.dispose());
  await waitFor(() => monitor.ready || null, { what: 'the first settled picture' });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return { store, monitor };
}

/** A process that runs (a pid with a start identity) but is no omc-top: it never rewrites anything. */
function otherProcess(): { child: ChildProcess; start: string } {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  cleanups.push(() => child.kill('SIGKILL'));
  let start = runningStartIdentity(child.pid as number);
  for (let i = 0; i < 1000 && typeof start !== 'string'; i++) start = runningStartIdentity(child.pid as number);
  if (typeof start !== 'string' || start === 'absent') throw new Error('no start identity for the sleep process');
  return { child, start };
}

describe('the status cache heartbeat', () => {
  it('the writer rewrites it while nothing changes: `at` moves on, so status keeps using it', async ({
    emptyProject: p,
    newStore,
    tempDir,
  }) => {
    const dir = path.join(tempDir('omc-top-beat-'), 'omc-top');
    const clock = { now: Date.now() };
    const { store, monitor } = await monitorOn(p, newStore, dir, clock);
    const t0 = clock.now;
    cleanups.push(publishStatusCache({ store, monitor, project: 'p', dir }));
    vi.advanceTimersByTime(STATUS_CACHE_COUNT_MS);
    await landed(() => readStatusCache(dir, p.root).cache?.at === t0, 'the first write');
    expect(readStatusCache(dir, p.root).cache?.values.loops).toBe('ralph 2/10');
    // Nothing changes on disk; time goes on. Each beat stamps the time it was made.
    for (let beat = 1; beat <= 5; beat++) {
      clock.now += STATUS_CACHE_HEARTBEAT_MS;
      vi.advanceTimersByTime(STATUS_CACHE_HEARTBEAT_MS);
      await landed(() => readStatusCache(dir, p.root).cache?.at === clock.now, `beat ${beat}`);
    }
    // Past the bound since the first write, and still the line status uses: its monitor runs.
    expect(clock.now - t0).toBeGreaterThan(STATUS_CACHE_STALE_MS);
    expect(liveStatusCache(dir, p.root, clock.now).cache?.values.loops).toBe('ralph 2/10');
  });

  it("another monitor's cache is left alone while its writer vouches for it, and taken over when it is silent or stopped", async ({
    emptyProject: p,
    newStore,
    tempDir,
  }) => {
    const dir = path.join(tempDir('omc-top-beat-'), 'omc-top');
    const clock = { now: Date.now() };
    const { store, monitor } = await monitorOn(p, newStore, dir, clock);
    cleanups.push(publishStatusCache({ store, monitor, project: 'p', dir }));
    vi.advanceTimersByTime(STATUS_CACHE_COUNT_MS);
    await landed(() => readStatusCache(dir, p.root).cache?.pid === process.pid, 'our first write');

    const other = otherProcess();
    let othersAt = 0;
    /** The cache as the other monitor (the sleep process) writes it, at `at`. */
    const othersCache = (at: number) => {
      othersAt = at;
      const doc = { version: 1, root: p.root, pid: other.child.pid, start: other.start, at, acks: null, book: null };
      const values = { loops: 'from the other monitor', active: 1, needs: 0, project: 'p' };
      ensureOwnDir(dir);
      atomicWriteSync(dir, statusCacheName(p.root), JSON.stringify({ ...doc, values }));
    };
    const writes = vi.spyOn(LatestFileWrite.prototype, 'write');
    const beat = () => {
      clock.now += STATUS_CACHE_HEARTBEAT_MS;
      vi.advanceTimersByTime(STATUS_CACHE_HEARTBEAT_MS);
    };

    // The other wrote last and beats: ours only looks, and writes nothing.
    othersCache(clock.now);
    beat();
    expect(writes).not.toHaveBeenCalled();
    othersCache(clock.now);
    beat();
    expect(writes).not.toHaveBeenCalled();
    expect(liveStatusCache(dir, p.root, clock.now).cache?.values.loops).toBe('from the other monitor');

    // The other runs but stopped rewriting (a stuck event loop): past the bound, ours takes the cache over.
    while (clock.now - othersAt <= STATUS_CACHE_STALE_MS) {
      expect(writes).not.toHaveBeenCalled();
      beat();
    }
    await landed(() => readStatusCache(dir, p.root).cache?.pid === process.pid, 'the takeover of a silent cache');
    expect(liveStatusCache(dir, p.root, clock.now).cache?.values.loops).toBe('ralph 2/10');

    // The other writes again (a change it saw), then is stopped (kill -STOP): taken over at the next beat.
    writes.mockClear();
    othersCache(clock.now);
    other.child.kill('SIGSTOP');
    await waitForStopped(other.child.pid as number);
    beat();
    expect(writes).toHaveBeenCalledTimes(1);
    await landed(() => readStatusCache(dir, p.root).cache?.pid === process.pid, 'the takeover of a stopped one');
  });
});

/** Until /proc says the process is stopped (a signal is delivered asynchronously). */
async function waitForStopped(pid: number): Promise<void> {
  await landed(() => /^\d+ \(.*\) [Tt] /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')), 'the sleep stopped');
}
