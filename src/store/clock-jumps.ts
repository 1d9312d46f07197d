/**
 * Notices the wall clock moving apart from monotonic time (a suspend and resume, an NTP step, a user setting
 * the date). Every timer that re-judges a time-based verdict (a session crossing the 2 h stale line, a cancel
 * window closing, a stale run) is armed on monotonic time, as Node's timers are: after a laptop sleeps for 3 h
 * the wall clock has moved 3 h and those timers have not, so nothing would be re-judged until an unrelated file
 * event. And a clock stepped back leaves verdicts judged at the later time in place. This check is what tells
 * the store to re-judge everything at once then.
 *
 * Idle cost: one timer wake every CLOCK_CHECK_MS for the whole process (a fleet's stores share it) that reads two
 * clocks per store; no per-session work unless the clock jumped. Every 5 s, not every second: a wake costs an
 * idle monitor more than the check itself, and a verdict re-judged 5 s after a laptop wakes is as good as 1 s.
 */
import type { Clock } from './types.js';

/** How often the two clocks are compared. */
export const CLOCK_CHECK_MS = 5_000;
/** Wall time may drift from monotonic time by this much between two checks before it counts as a jump. */
export const CLOCK_JUMP_MS = 1_000;

export interface ClockJumpOptions {
  /** The wall clock verdicts are judged by (the store's clock seam). */
  wall: Clock;
  /** Time that only moves forward at a steady rate (performance.now() unless a test drives it). */
  monotonic?: Clock;
  onJump(): void;
}

/**
 * Compares the two clocks at each call: true when the wall clock moved more than CLOCK_JUMP_MS away from
 * monotonic time since the previous call (either way). Pure apart from its two readings, for tests.
 */
export class ClockJumpCheck {
  private lastWall: number;
  private lastMono: number;

  constructor(
    private readonly wall: Clock,
    private readonly monotonic: Clock,
  ) {
    this.lastWall = wall();
    this.lastMono = monotonic();
  }

  jumped(): boolean {
    const w = this.wall();
    const m = this.monotonic();
    const drift = w - this.lastWall - (m - this.lastMono);
    this.lastWall = w;
    this.lastMono = m;
    return Math.abs(drift) > CLOCK_JUMP_MS;
  }
}

/** The checks of every store in this process (a fleet holds one store per project): one timer serves them all. */
const watching = new Set<{ check: ClockJumpCheck; onJump(): void }>();
let shared: NodeJS.Timeout | null = null;

function checkAll(): void {
  for (const w of watching) {
    try {
      if (w.check.jumped()) w.onJump();
    } catch {
      // One store's failure must not keep the others from re-judging (nor stop the timer); its next event recovers.
    }
  }
}

/**
 * Starts the check every CLOCK_CHECK_MS; returns what stops it. Every store of the process shares one timer, which never
 * keeps the process alive.
 */
export function watchClockJumps(opts: ClockJumpOptions): () => void {
  const w = { check: new ClockJumpCheck(opts.wall, opts.monotonic ?? (() => performance.now())), onJump: opts.onJump };
  watching.add(w);
  if (!shared) {
    shared = setInterval(checkAll, CLOCK_CHECK_MS);
    shared.unref();
  }
  return () => {
    watching.delete(w);
    if (watching.size === 0 && shared) {
      clearInterval(shared);
      shared = null;
    }
  };
}
