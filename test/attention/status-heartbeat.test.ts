/**
 * The status cache's heartbeat (status-publisher.ts): the monitor whose cache
 * is on disk sets the file's time while nothing changes (no rewrite), so
 * `status` can tell it from a monitor that still runs but is stuck; another
 * monitor on the same root
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
  it('the writer beats while nothing changes (the file time moves on, nothing rewritten): status keeps using it', async ({
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
    // Nothing changes on disk; time goes on. Each beat sets the file's time to its own, and rewrites nothing.
    const writes = vi.spyOn(LatestFileWrite.prototype, 'write');
    for (let beat = 1; beat <= 5; beat++) {
      clock.now += STATUS_CACHE_HEARTBEAT_MS;
      vi.advanceTimersByTime(STATUS_CACHE_HEARTBEAT_MS);
      expect(beatOf(dir, p.root)).toBe(clock.now);
    }
    expect(writes).not.toHaveBeenCalled();
    expect(readStatusCache(dir, p.root).cache?.at).toBe(t0);
    // Past the bound since the write, and still the line status uses: its monitor runs.
    expect(clock.now - t0).toBeGreaterThan(STATUS_CACHE_STALE_MS);
    expect(liveStatusCache(dir, p.root, clock.now).cache?.values.loops).toBe('ralph 2/10');
    // The clock moves back a minute: the file's `at` is now "after now", which a touch would leave refused. The
    // next beat writes it anew, by the clock of now.
    clock.now = t0 - 60_000;
    expect(liveStatusCache(dir, p.root, clock.now).why).toMatch(/clock moved back/);
    vi.advanceTimersByTime(STATUS_CACHE_HEARTBEAT_MS);
    expect(writes).toHaveBeenCalledTimes(1);
    // (Whether status then takes it is the reader's test, acks.test.ts: the file's own time here is the kernel's,
    // ahead of this test's clock.)
    await landed(() => readStatusCache(dir, p.root).cache?.at === clock.now, 'the write by the clock of now');
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
      // The file's time as that write at `at` would have left it.
      fs.utimesSync(path.join(dir, statusCacheName(p.root)), at / 1000, at / 1000);
    };
    const writes = vi.spyOn(LatestFileWrite.prototype, 'write');
    const beat = () => {
      clock.now += STATUS_CACHE_HEARTBEAT_MS;
      vi.advanceTimersByTime(STATUS_CACHE_HEARTBEAT_MS);
    };

    // The other wrote last and beats: ours only looks, and writes nothing, nor touches the other's file.
    othersCache(clock.now);
    beat();
    expect(writes).not.toHaveBeenCalled();
    othersCache(clock.now);
    beat();
    expect(writes).not.toHaveBeenCalled();
    expect(beatOf(dir, p.root)).toBe(othersAt);
    expect(liveStatusCache(dir, p.root, clock.now).cache?.values.loops).toBe('from the other monitor');

    // The other runs but stopped rewriting (a stuck event loop): past the bound, ours takes the cache over.
    while (clock.now - othersAt <= STATUS_CACHE_STALE_MS) {
      // Never kept alive by ours: its time is still its own last write's.
      expect(beatOf(dir, p.root)).toBe(othersAt);
      expect(writes).not.toHaveBeenCalled();
      beat();
    }
    expect(writes).toHaveBeenCalledTimes(1);
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

/** When the cache's writer last showed life (its `beat`: the later of `at` and the file's time), to the ms. */
function beatOf(dir: string, root: string): number | undefined {
  const b = readStatusCache(dir, root).cache?.beat;
  return b === undefined ? undefined : Math.round(b);
}

/** Until /proc says the process is stopped (a signal is delivered asynchronously). */
async function waitForStopped(pid: number): Promise<void> {
  await landed(() => /^\d+ \(.*\) [Tt] /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')), 'the sleep stopped');
}
