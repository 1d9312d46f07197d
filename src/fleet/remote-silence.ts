/**
 * How the fleet tells a `--host` stream that stalled (a laptop that slept, a NAT that dropped the flow, ssh with
 * no ServerAliveInterval: connected, nothing arrives) from one that is only quiet: the watch there writes an
 * `alive` line after IDLE_LINE_MS with nothing else, and says so in its `ready` line (`aliveMs`). One timer per
 * host, set when a connection starts and at its `ready`, and re-armed only when it fires: a line that comes only
 * moves the time the bound is measured from, so a busy stream costs no timer work.
 */
import { IDLE_LINE_MS } from '../feeds/json-line.js';

/** `alive` lines a stream may miss before it counts as stalled: silence past one more period ends it. */
export const MISSED_ALIVE_LINES = 3;
/**
 * What ssh may take to connect and the omc-top there to start before its first line: DNS, TCP, key exchange,
 * authentication and a Node start are seconds even on a slow link; 15 s is generous, and short against a view
 * left stale.
 */
export const CONNECT_ALLOWANCE_MS = 15_000;

/** How long a stream that writes `alive` every `aliveMs` may say nothing before it counts as stalled. */
export const silentAfterMs = (aliveMs: number) => (MISSED_ALIVE_LINES + 1) * aliveMs;

/**
 * How long a connection may say nothing before its `ready`: the connect allowance plus the silence a stream with
 * the watch's own `alive` period is allowed (every omc-top writes its rows and `ready` at start, then `alive`).
 */
export const START_BOUND_MS = CONNECT_ALLOWANCE_MS + silentAfterMs(IDLE_LINE_MS);

export class SilenceWatch {
  /** When the connection last said anything (its start counts). */
  lastLineAt = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly clock: () => number,
    /** The bound now (it shrinks at `ready`); null: none (a stream there that writes no `alive` lines). */
    private readonly bound: () => number | null,
    /** Nothing for `bound` since `lastLineAt`. */
    private readonly silent: (bound: number) => void,
  ) {}

  /** A connection starts: its start is its first sign of life. */
  begin(): void {
    this.lastLineAt = this.clock();
    this.rearm();
  }

  /** Any byte of the stream: no timer is touched. */
  heard(): void {
    this.lastLineAt = this.clock();
  }

  /** The bound changed (the `ready` line, a first `alive` line): measured anew, once. */
  rearm(): void {
    this.stop();
    this.arm();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    const bound = this.bound();
    if (this.timer || bound === null) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const b = this.bound();
        if (b === null) return;
        // A line came since: wait for the rest of the bound from it.
        if (this.clock() - this.lastLineAt < b) return this.arm();
        this.silent(b);
      },
      Math.max(0, this.lastLineAt + bound - this.clock()),
    );
    this.timer.unref?.();
  }
}
