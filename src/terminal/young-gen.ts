/**
 * Keeps V8's young generation at its starting size, except while a burst of
 * reading runs (YoungGenPolicy below). Imported first by the entry point so it
 * runs before React, Ink and the store allocate anything.
 *
 * Why: a monitor lives for days and allocates in small bursts (a re-read, a
 * frame). Node 20 lets each young-generation semi-space grow to 16 MB and
 * collects it lazily, so RSS sat 25–35 MB above what omc-top actually holds
 * (127–141 MB at 2,000 sessions against a live heap of 25–44 MB; 215–241 MB
 * under sustained change storms). With the growth factor at 1 the semi-spaces
 * stay at V8's initial size: RSS 100–119 MB in the same runs, with no
 * measurable change in CPU or change→screen latency (BENCHMARKS.md).
 *
 * `--max-semi-space-size` would be the documented knob, but V8 reads it only
 * when the heap is set up; the growth factor is read each time the young
 * generation would grow, so it takes effect from here. Anyone who sets their
 * own semi-space flags (NODE_OPTIONS or node's command line) keeps them.
 */
import v8 from 'node:v8';

const HELD = '--semi-space-growth-factor=1';
/** V8's own default (Node 20): each growth doubles the semi-spaces. */
const ROOMY = '--semi-space-growth-factor=2';
/**
 * The most a burst grows the young generation to (both semi-spaces): 4 MB each instead of 1. Uncapped they
 * reach 16 MB each, and a monitor that goes idle after the burst scavenges so rarely that V8 keeps them for
 * minutes (RSS +44 MB, measured after a 2 GB transcript read).
 */
export const BURST_NEW_SPACE_BYTES = 8 * 1024 * 1024;
/** How often a burst checks the young generation's size against the cap. */
const CAP_CHECK_MS = 50;

/**
 * Lets the young generation grow while a burst of reading runs and holds it again after. A big read (the
 * start-up read of .omc: 2,000 sessions and 5,000 wiki pages) makes short-lived garbage faster than a
 * 1 MB semi-space holds it: whatever is alive at two scavenges in a row is promoted, and the old generation
 * pays for it with mark-compacts. With room, more of that garbage dies young. Holds are counted: the factor
 * is set back to 1 when the young generation reaches the cap or the last burst ends (V8 gives the grown
 * semi-spaces back at a later collection).
 */
export class YoungGenPolicy {
  private holders = 0;
  private flags = HELD;
  private watch: NodeJS.Timeout | null = null;

  constructor(
    private readonly setFlags: (flags: string) => void,
    /** False when the user set their own semi-space flags: nothing is ever changed then. */
    private readonly enabled: boolean,
    /** The young generation's committed bytes now. */
    private readonly newSpaceBytes: () => number,
    private readonly capBytes = BURST_NEW_SPACE_BYTES,
  ) {}

  /** Sets the starting policy (the flag the code cache is made and checked under). */
  hold(): void {
    if (this.enabled) this.set(HELD);
  }

  /** A burst starts; call what it returns once when it ends (a second call does nothing). */
  roomy(): () => void {
    if (!this.enabled) return () => undefined;
    if (this.holders++ === 0) {
      if (this.newSpaceBytes() < this.capBytes) this.set(ROOMY);
      this.watch = setInterval(() => this.capReached(), CAP_CHECK_MS);
      this.watch.unref();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holders > 0) return;
      if (this.watch) clearInterval(this.watch);
      this.watch = null;
      this.set(HELD);
    };
  }

  /**
   * Runs `take` under the flags the process started with: V8 stamps a code cache with its flags, and a cache
   * taken while a burst has room is rejected by the next start (io/code-cache.ts).
   */
  asStarted(take: () => void): void {
    const during = this.flags;
    if (during !== HELD) this.set(HELD);
    try {
      take();
    } finally {
      if (during !== HELD) this.set(during);
    }
  }

  private capReached(): void {
    if (this.flags !== HELD && this.newSpaceBytes() >= this.capBytes) this.set(HELD);
  }

  private set(flags: string): void {
    try {
      this.setFlags(flags);
      this.flags = flags;
    } catch {
      /* an engine without the flag: default memory behaviour, nothing else changes */
    }
  }
}

const own = [process.env.NODE_OPTIONS ?? '', ...process.execArgv].some((a) => /semi[-_]space/.test(a));
/**
 * The process's policy. The entry bundle and the app bundle each include this file, and the flag is the
 * process's: both use the one object, kept on globalThis.
 */
const KEY = Symbol.for('omc-top.young-gen');
const shared = globalThis as { [KEY]?: YoungGenPolicy };
export const youngGen = (shared[KEY] ??= new YoungGenPolicy(
  (f) => v8.setFlagsFromString(f),
  !own,
  () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
));
youngGen.hold();
