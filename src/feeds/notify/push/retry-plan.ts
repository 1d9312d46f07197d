/**
 * When an item no channel took is sent again, and the words that say it: one plan for every project a process
 * pushes for, a local one (through its lease: leased-push.ts) and a `--host` one (its lease is on that machine:
 * push-roots.ts), so a failure line ends the same way for both (`sent again in 1 min`, `not sent again by this
 * omc-top`). A failure that may pass is sent again after RETRY_FIRST_MS, then twice as long each time, until the
 * item is DUE_KEEP_MS old (old news); one refused outright (a 4xx) is not sent again by this process.
 */
import { DUE_KEEP_MS } from './ledger.js';
import type { Delivery } from './sender.js';

/**
 * An item no channel took (after the sender's own quick retries) is sent again after this, then twice as long each
 * time: a channel down for a minute still gets the message, one down for long is not hammered (1, 2, 4, 8 min; the
 * item is dropped after 15).
 */
export const RETRY_FIRST_MS = 60_000;

export interface NextTry {
  /** In how long it is sent again; null: it is not. */
  inMs: number | null;
  /** The end of the failure line. */
  words: string;
}

/** A pause in words: minutes, or seconds under one (a test's short plan). */
const pauseWords = (ms: number): string =>
  ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;

export class RetryPlan {
  /** Items no channel took, by key: when each may be sent again, and the pause after that. */
  private readonly next = new Map<string, { at: number; pauseMs: number }>();

  /** `firstMs`: the first pause (tests pass less). */
  constructor(private readonly firstMs = RETRY_FIRST_MS) {}

  /** Its pause after a failure (if any) is over. */
  mayResend(key: string, now: number): boolean {
    return (this.next.get(key)?.at ?? -Infinity) <= now;
  }

  /** A channel took it: nothing more is planned. */
  taken(key: string): void {
    this.next.delete(key);
  }

  /** Forgets every item but those in `still` (pushed by another, or dropped as old). */
  keepOnly(still: ReadonlySet<string>): void {
    for (const key of this.next.keys()) if (!still.has(key)) this.next.delete(key);
  }

  /** An item first due at `firstAt` was not taken: when it is sent again, in words. */
  failed(key: string, firstAt: number, delivery: Exclude<Delivery, 'taken'>, now: number): NextTry {
    const last = this.next.get(key);
    const pauseMs = delivery === 'refused' ? Infinity : last ? last.pauseMs * 2 : this.firstMs;
    const at = now + pauseMs;
    this.next.set(key, { at, pauseMs });
    if (pauseMs === Infinity) return { inMs: null, words: 'not sent again by this omc-top' };
    if (at - firstAt >= DUE_KEEP_MS)
      return { inMs: null, words: `not sent again (${DUE_KEEP_MS / 60_000} min old by then)` };
    return { inMs: pauseMs, words: `sent again in ${pauseWords(pauseMs)}` };
  }
}
