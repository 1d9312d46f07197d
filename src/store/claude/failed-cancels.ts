/**
 * How many of omc-top's cancels of a session the tracker has judged "did not
 * take" (a verified failure: the verdict engine re-read the disk and the loop
 * still runs). The stop escalation is offered after CANCEL_ATTEMPTS_BEFORE_INTERRUPT
 * of them. One counter per tracker, started by the first cancel a user asks for
 * (a failure can only follow one).
 */
import type { CancelTracker, TrackedCancel } from '../cancel/tracker.js';

export class FailedCancels {
  private readonly counted = new WeakSet<object>();
  private readonly counts = new Map<string, number>();
  private readonly listeners = new Set<(key: string, count: number) => void>();

  constructor(private readonly tracker: CancelTracker) {
    tracker.subscribe(() => this.update());
    this.update();
  }

  count(key: string): number {
    // The tracker's listeners may run after a key that asks: read its current snapshot first.
    this.update();
    return this.counts.get(key) ?? 0;
  }

  /** Called with the new count each time a cancel of a session is judged not taken. */
  onFailure(l: (key: string, count: number) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private update(): void {
    for (const e of this.tracker.getSnapshot().entries.values()) {
      if (!isFailedCancel(e) || this.counted.has(e.result)) continue;
      this.counted.add(e.result);
      const n = (this.counts.get(e.key) ?? 0) + 1;
      this.counts.set(e.key, n);
      for (const l of this.listeners) l(e.key, n);
    }
  }
}

/** A cancel (not a pause: a pause ends by design) that the verdict says did not end the loop. */
const isFailedCancel = (e: TrackedCancel) => !e.pauseOnly && e.phase === 'not-taken';

const byTracker = new WeakMap<CancelTracker, FailedCancels>();
export function failedCancelsOf(tracker: CancelTracker): FailedCancels {
  let f = byTracker.get(tracker);
  if (!f) byTracker.set(tracker, (f = new FailedCancels(tracker)));
  return f;
}
