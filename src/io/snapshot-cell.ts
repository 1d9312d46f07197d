/** Minimal external-store contract consumed by React's useSyncExternalStore. */
export interface Subscribable<T> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): T;
}

/**
 * A tiny external store: holds one immutable snapshot and notifies listeners
 * when it is replaced. Notifications are batched to one per macrotask so that
 * a burst of file events becomes one React render.
 */
export class SnapshotCell<T> implements Subscribable<T> {
  private listeners = new Set<() => void>();
  private scheduled = false;

  constructor(private value: T) {}

  getSnapshot = (): T => this.value;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(next: T): void {
    if (Object.is(next, this.value)) return;
    this.value = next;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const l of [...this.listeners]) l();
    });
  }
}
