/**
 * The one setting for how long a test may wait: every ceiling in the suite (vitest's testTimeout
 * and hookTimeout, each test's own timeout, every waitFor / waitForText / waitForExit of the helpers)
 * is its quiet-machine value times this factor. Waits are conditions, never sleeps; the factor only
 * moves the point at which a condition that never comes is called a failure, so a suite that runs
 * beside other work (a busy 2-core machine) passes instead of timing out, and a quiet one fails as
 * fast as before.
 *
 * `OMC_TOP_TEST_TIME_SCALE=N` sets it. Otherwise it is measured once, when vitest loads its config
 * (which then exports it to the workers): the larger of
 *  - the load average per core (1-minute; what the machine has been doing), and
 *  - how much of one core a 300 ms busy loop actually gets (what it is doing right now: with two
 *    busy processes per core beside us, about a third, so a factor of 3),
 * at least 1 and at most 10.
 */
import os from 'node:os';

export const TIME_SCALE_ENV = 'OMC_TOP_TEST_TIME_SCALE';
const MAX_SCALE = 10;

export interface TimeScaleMeasure {
  scale: number;
  /** Why, in one line (printed at the start of a run). */
  why: string;
}

/** Share of one core a busy loop gets over `ms` of wall time (1 = a free core). */
function coreShare(ms: number): number {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  let x = 0;
  while (Number(process.hrtime.bigint() - t0) / 1e6 < ms) x += Math.sqrt(x + 1);
  const wall = Number(process.hrtime.bigint() - t0) / 1e3;
  const cpu = process.cpuUsage(c0);
  return x > 0 ? Math.min(1, (cpu.user + cpu.system) / wall) : 1;
}

export function measureTimeScale(): TimeScaleMeasure {
  const given = Number(process.env[TIME_SCALE_ENV]);
  if (process.env[TIME_SCALE_ENV] !== undefined && Number.isFinite(given) && given > 0)
    return { scale: given, why: `${TIME_SCALE_ENV}=${process.env[TIME_SCALE_ENV]}` };
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const load = os.loadavg()[0] ?? 0;
  const share = coreShare(300);
  const byLoad = load / Math.max(1, cores);
  const byShare = 1 / Math.max(0.05, share);
  const scale = Math.round(Math.min(MAX_SCALE, Math.max(1, byLoad, byShare)) * 10) / 10;
  return {
    scale,
    why: `load ${load.toFixed(1)} on ${cores} cores, a busy loop got ${Math.round(share * 100)}% of a core`,
  };
}

let cached: number | null = null;

/** The factor (from the environment, as the config exported it; measured once if not set). */
export function timeScale(): number {
  if (cached !== null) return cached;
  const m = measureTimeScale();
  cached = m.scale;
  process.env[TIME_SCALE_ENV] = String(m.scale);
  return cached;
}

/** A ceiling for this machine: `ms` on a quiet one. */
export const scaled = (ms: number): number => Math.round(ms * timeScale());
