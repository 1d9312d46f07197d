/**
 * When each session next needs re-deriving for the clock's sake (a pending expiry, the staleness
 * threshold, a cancel running out), as a lazy min-heap: a publish pushes the views it derived, and
 * an entry whose view has since been replaced is skipped when it surfaces. So arming the timer costs
 * O(log N) per changed session instead of a pass over every session.
 */
import type { SessionView } from './model.js';

interface Due {
  at: number;
  key: string;
  view: SessionView;
}

export class DueHeap {
  private heap: Due[] = [];

  /** `current(key)` is the view in force: entries for any other view are stale. */
  constructor(private readonly current: (key: string) => SessionView | undefined) {}

  push(key: string, view: SessionView): void {
    if (view.nextChangeAt === null) return;
    this.heap.push({ at: view.nextChangeAt, key, view });
    this.up(this.heap.length - 1);
  }

  /** The earliest time still in force, or null. */
  next(): number | null {
    this.dropStale();
    return this.heap[0]?.at ?? null;
  }

  /** Keys of every session due at or before `t` (their entries leave the heap). */
  takeDue(t: number): string[] {
    const out: string[] = [];
    for (;;) {
      this.dropStale();
      const top = this.heap[0];
      if (!top || top.at > t) return out;
      out.push(top.key);
      this.pop();
    }
  }

  /** Rebuild from the views in force when stale entries outnumber live ones (bounded memory). */
  compact(views: ReadonlyMap<string, SessionView>): void {
    if (this.heap.length <= 2 * views.size + 64) return;
    this.heap = [];
    for (const [key, v] of views) this.push(key, v);
  }

  private dropStale(): void {
    while (this.heap.length > 0 && this.current((this.heap[0] as Due).key) !== (this.heap[0] as Due).view) this.pop();
  }

  private pop(): void {
    const last = this.heap.pop() as Due;
    if (this.heap.length === 0) return;
    this.heap[0] = last;
    this.down(0);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((h[p] as Due).at <= (h[i] as Due).at) return;
      [h[p], h[i]] = [h[i] as Due, h[p] as Due];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && (h[l] as Due).at < (h[m] as Due).at) m = l;
      if (r < h.length && (h[r] as Due).at < (h[m] as Due).at) m = r;
      if (m === i) return;
      [h[m], h[i]] = [h[i] as Due, h[m] as Due];
      i = m;
    }
  }
}
