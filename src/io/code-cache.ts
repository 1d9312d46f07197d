/**
 * Loads the app bundle with V8's code cache. Compiling the 1.7 MB bundle and then each function it runs on the
 * way to the first frame is a large share of a start; Node 20 keeps no compiled code between starts for an ES
 * module, but V8 will for a script given the bytes of an earlier compile. So the app is one function in a
 * script (scripts/build.mjs, APP_PREFIX), compiled here with the cache from the last start. The first start (or
 * the first after an upgrade) writes the cache once FULL_AFTER_MS have passed, when a monitor has drawn its first
 * frames (V8's cache holds every function compiled by then), at the first quiet moment from then (taking it is a
 * pause the screen must not show), or at its exit if that comes first (`--json`, `--help`): such a partial cache
 * is used, and replaced by the next run that gets that far. Much later V8 may already have dropped the start-up
 * functions' bytecode, so a busy run takes it at FULL_LATEST_MS anyway, and a cache is never taken at a late exit.
 *
 * The cache lives in `$XDG_CACHE_HOME/omc-top/` (default `~/.cache/omc-top/`), one file per bundle content and
 * Node version (the newest KEEP of them), written through the contained write path. Its own checksum is checked before V8 sees it (V8
 * checks its version, flags and the source's length, not every byte); a foreign, stale or damaged file is
 * ignored and replaced, never an error. Nothing is written with --readonly; OMC_TOP_CODE_CACHE=0 turns it off.
 */
import path from 'node:path';
import vm from 'node:vm';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { readBytesSync } from './safe-fs/bytes.js';
import { listDirSync, statSync } from './safe-fs/list.js';
import { atomicWriteSync, unlinkUnder } from './safe-fs/write.js';
import { ensureOwnDir } from './safe-fs/contained-dir.js';
import { homeDir } from './home-dir.js';

/** What the file starts with before the app function (scripts/build.mjs). */
export const APP_PREFIX = 'export default ';
const MAGIC = Buffer.from('omc-top code cache 1\n');
const SUM_BYTES = 32;
const HEAD_BYTES = MAGIC.length + 1 + SUM_BYTES;
/** When a run's compiled code makes a full cache: after a monitor's first frames, before V8 ages start-up code out. */
export const FULL_AFTER_MS = 2000;
/**
 * Taking the cache stops the process for 40–60 ms (V8 serialises the code; the write follows): from
 * FULL_AFTER_MS on it waits for a quiet moment, a check interval in which the event loop was busy less than
 * QUIET_SHARE of the time (the start-up read over, no frame being drawn), so the pause falls where nothing moves on
 * screen. A run never quiet by FULL_LATEST_MS takes it then, before start-up code ages out.
 */
const QUIET_CHECK_MS = 100;
const QUIET_SHARE = 0.1;
export const FULL_LATEST_MS = 5000;
/** Far above the bundle (1.7 MB) and its cache (about 2 MB); a bigger file is not ours. */
const MAX_BYTES = 64 << 20;

export function codeCacheDir(env: NodeJS.ProcessEnv = process.env, home = homeDir(env)): string {
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(base, 'omc-top');
}

/**
 * One file per bundle content and Node: two Node versions side by side would otherwise replace each other's.
 * `source` as text or as its bytes (the bundle is ASCII: the same name either way, without encoding 1.7 MB again).
 */
export function cacheFileName(source: string | Uint8Array): string {
  const sum = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return `app-${sum}-${process.version}-${process.arch}.v8cache`;
}

export interface CacheData {
  data: Buffer;
  /** Made FULL_AFTER_MS into a run (false: at the exit of a shorter one). */
  full: boolean;
}

/** The cache file's bytes around V8's data: a marker, full or partial, and a checksum of the data. */
export function wrapCache({ data, full }: CacheData): Buffer {
  return Buffer.concat([MAGIC, Buffer.of(full ? 1 : 0), createHash('sha256').update(data).digest(), data]);
}

/** V8's data from a cache file, or null when it is not one this code wrote intact. */
export function unwrapCache(file: Buffer): CacheData | null {
  if (file.length <= HEAD_BYTES || !file.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const sum = file.subarray(MAGIC.length + 1, HEAD_BYTES);
  const data = file.subarray(HEAD_BYTES);
  if (!createHash('sha256').update(data).digest().equals(sum)) return null;
  return { data, full: file[MAGIC.length] === 1 };
}

export interface LoadedScript<T> {
  value: T;
  /** Whether V8 took the cache (false: none, or refused). */
  cacheUsed: boolean;
}

export interface CodeCacheOptions {
  /** Where caches are kept; null: neither read nor write one. */
  dir: string | null;
  /** Write a cache when none, or a partial one, was used (false: read only, as --readonly). */
  write: boolean;
  /** Milliseconds before a full cache is taken (tests shorten it). */
  fullAfterMs?: number;
  /** Whether the process is quiet enough now for the pause of taking a full cache (tests decide it themselves). */
  quiet?: () => boolean;
  /** Given the bundle's bytes once read, before it is compiled (terminal/yoga-early.ts takes Yoga's wasm from them). */
  onBundle?: (bytes: Buffer) => void;
}

/**
 * Compiles the function in `file` (after APP_PREFIX) with the cache when there is a good one, and returns it
 * uncalled; null when the file is not such a script (the caller imports it instead).
 */
export function loadAppFunction<T>(file: string, opts: CodeCacheOptions): LoadedScript<T> | null {
  const read = readBytesSync(path.dirname(file), path.basename(file), MAX_BYTES);
  if (!read.ok) return null;
  // The bundle is ASCII (scripts/build.mjs): latin1 is its exact text, without UTF-8 decoding 1.7 MB.
  const text = read.bytes.toString('latin1');
  if (!text.startsWith(APP_PREFIX)) return null;
  opts.onBundle?.(read.bytes);
  const source = text.slice(APP_PREFIX.length);
  const name = opts.dir === null ? null : cacheFileName(read.bytes.subarray(APP_PREFIX.length));
  const cached = opts.dir !== null && name !== null ? readCache(opts.dir, name) : null;
  const script = new vm.Script(source, {
    filename: file,
    columnOffset: APP_PREFIX.length,
    cachedData: cached?.data,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cacheUsed = cached !== null && !script.cachedDataRejected;
  if (opts.write && opts.dir !== null && name !== null && !(cacheUsed && cached.full))
    scheduleWrite(opts.dir, name, script, cacheUsed, opts.fullAfterMs ?? FULL_AFTER_MS, opts.quiet ?? loopQuiet());
  return { value: script.runInThisContext() as T, cacheUsed };
}

/**
 * A full cache once the run has gone on long enough, at its first quiet moment from then (FULL_LATEST_MS at the
 * latest); a partial one at an earlier exit when there was none.
 */
function scheduleWrite(
  dir: string,
  name: string,
  script: vm.Script,
  hadPartial: boolean,
  fullAfterMs: number,
  quiet: () => boolean,
): void {
  const atExit = () => writeCache(dir, name, script, false);
  const latest = performance.now() + Math.max(fullAfterMs, FULL_LATEST_MS);
  const check = (wait: number) => {
    setTimeout(() => {
      if (!quiet() && performance.now() < latest) return check(QUIET_CHECK_MS);
      process.off('exit', atExit);
      writeCache(dir, name, script, true);
    }, wait).unref();
  };
  check(fullAfterMs);
  if (!hadPartial) process.once('exit', atExit);
}

/** Quiet: the event loop was busy less than QUIET_SHARE of the time since the last question. */
function loopQuiet(): () => boolean {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return busy < QUIET_SHARE;
  };
}

function readCache(dir: string, name: string): CacheData | null {
  try {
    const r = readBytesSync(dir, name, MAX_BYTES);
    return r.ok ? unwrapCache(r.bytes) : null;
  } catch {
    return null;
  }
}

/** The code this run compiled, for the next start; beyond KEEP caches, the oldest go. Never throws. */
function writeCache(dir: string, name: string, script: vm.Script, full: boolean): void {
  try {
    ensureOwnDir(dir);
    atomicWriteSync(dir, name, wrapCache({ data: script.createCachedData(), full }));
    pruneCaches(dir);
  } catch {
    /* a cache that cannot be written: the next start compiles the bundle as this one did */
  }
}

/** Caches kept: an upgrade leaves old ones behind, and two builds used in turn must not delete each other's. */
export const KEEP = 4;

function pruneCaches(dir: string): void {
  const listed = listDirSync(dir, '.');
  if (!listed.ok) return;
  const caches = listed.entries
    .filter((e) => e.kind === 'file' && /^app-[0-9a-f]{16}-.*\.v8cache$/.test(e.name))
    .map((e) => ({ name: e.name, at: statSync(dir, e.name)?.mtimeMs ?? 0 }))
    .sort((a, b) => b.at - a.at);
  for (const old of caches.slice(KEEP)) unlinkUnder(dir, old.name);
}
