/**
 * The V8 flags omc-top sets once, at the very start of every run (young-gen.ts
 * applies them before anything else is loaded). Always the same set for the
 * same command line: V8 stamps its flags into the code cache, so a set that
 * changed from one start to the next would make the next start reject it.
 *
 * Each flag is left out when the user set that kind of flag themselves
 * (NODE_OPTIONS or node's own command line): theirs wins.
 */

/** A semi-space that does not grow: why in young-gen.ts. */
const HOLD_YOUNG_GEN = '--semi-space-growth-factor=1';

/**
 * One memory-reducing collection after a burst instead of up to three.
 *
 * Why: after the transcripts' catch-up (2 GB read at 200 × 10 MB) V8's memory
 * reducer starts 9–40 s later and ran up to three full collections (background
 * marking ~100 ms each), which made the first minute of idle ~5× idle without
 * Claude data. The first of them already gives back what the read left
 * behind; the second and third mostly re-mark the same live heap.
 *
 * When the one left runs (`--trace-gc-verbose`, 2026-12-03): the reducer's
 * timer ticks every 8 s and starts at the first tick that finds a low
 * allocation rate, which V8 averages over its last ten collections. After the
 * catch-up's hundreds of scavenges the ticks 10 and 18 s later still read
 * "high alloc": it starts ~25 s after the read ends, however little the read
 * left alive (its cost is marking the live heap, ~65–80 ms of CPU at 27 MB).
 *
 * Why it runs at all (traced again, 2026-12-03): V8 arms it at start-up, not
 * after the read: while it has never run, the old generation's first growth
 * or first full collection past 10 MB (0.2–0.4 s in, before `live`) arms it.
 * It then runs once, at the first 8 s tick that reads a low allocation rate
 * (or V8's watchdog, 100 s after the last full collection). Without Claude
 * data that is usually the first tick, ~8 s after start.
 * The catch-up's scavenges, and the ~1 MB each frame allocates while an age
 * label steps every 5 s, keep the rate "high": it ran 24–57 s after start in
 * the traces. So leaving less of the read alive cannot stop it, and
 * `--no-memory-reducer` set here is ignored (V8 makes the reducer when the heap
 * is set up; it still ran in the same trace).
 */
const ONE_REDUCING_GC = '--memory-reducer-single-gc';

/** The flags to set, given the user's own (NODE_OPTIONS and process.execArgv). */
export function gcFlagsFor(userArgs: readonly string[]): string[] {
  const own = (re: RegExp) => userArgs.some((a) => re.test(a));
  const flags: string[] = [];
  if (!own(/semi[-_]space/)) flags.push(HOLD_YOUNG_GEN);
  if (!own(/memory[-_]reducer/)) flags.push(ONE_REDUCING_GC);
  return flags;
}

/** Sets each flag with `set` (v8.setFlagsFromString); a flag the engine does not know is skipped. */
export function applyGcFlags(userArgs: readonly string[], set: (flag: string) => void): void {
  for (const flag of gcFlagsFor(userArgs)) {
    try {
      set(flag);
    } catch {
      /* an engine without the flag: default memory behaviour, nothing else changes */
    }
  }
}
