/**
 * Push for one project through its lease (lease.ts), so that every item that newly needs the user is pushed once
 * by whoever holds the lease, or at worst twice, never zero, whatever the moment of a handover (another omc-top
 * starting or exiting, a holder crashing or stopped while its debounce runs):
 * - the holder pushes an item unless the ledger says a holder pushed it already, and records it as pushed;
 * - any other omc-top records the item as due in the ledger instead of dropping it; the holder pushes what is due
 *   at its next beat (every HEARTBEAT_MS), and whoever takes the lease next pushes what is still due;
 * - an omc-top that recorded an item as due looks again every HEARTBEAT_MS until the ledger says it was pushed, and
 *   takes the lease itself when the holder has gone, stopped or fell silent meanwhile (nothing then looks at the
 *   ledger otherwise). Only while it has such an item: at rest it does nothing.
 * What it does not cover (docs/reach.md): an item is recorded as pushed once queued on the channels, so a holder
 * that ends with it still queued loses it; and items left due by a holder exiting in its debounce wait for the
 * next holder's next look (its next message, or its start).
 */
import { HEARTBEAT_MS, SILENT_AFTER_MS } from '../../../io/heartbeat.js';
import type { PushMessage } from './channel.js';
import { PushLease } from './lease.js';
import { EMPTY_LEDGER, pruned, pushedAll, wasSent, withDue, type Ledger, type PushItem } from './ledger.js';

/**
 * How long an item this process recorded as due is followed: past it, the holder is live and still has not pushed
 * it (its notifications are off, say), and this one stops asking. The holder's beat pushes it meanwhile.
 */
const FOLLOW_MAX_MS = 2 * SILENT_AFTER_MS;
/** Another process had the taking marker: a few milliseconds of work; looked again after this. */
const BUSY_RETRY_MS = 100;

export class LeasedPush {
  readonly lease: PushLease;
  /** Items this process saw that no holder recorded as pushed yet, with when they were first recorded. */
  private followed: { item: PushItem; since: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;
  private muted = false;
  /** Under --readonly: what this process pushed (it records nothing in the lease file). */
  private sentHere: Ledger['sent'] = {};

  constructor(
    dir: string,
    root: string,
    private readonly send: (m: PushMessage) => void,
    private readonly opts: Omit<ConstructorParameters<typeof PushLease>[2] & object, 'onDue'> = {},
  ) {
    this.lease = new PushLease(dir, root, { ...opts, onDue: () => this.settle() });
    // A holder that exited or crashed may have left items due: the one that took the lease now pushes them.
    if (this.lease.mayPush()) this.settle();
  }

  private now(): number {
    return (this.opts.clock ?? Date.now)();
  }

  /**
   * Muted (the monitor's `N`): this process neither pushes nor holds the lease, so another omc-top on the project
   * (`serve`, started for the phone) takes it at its next message; the ledger stays. Unmuted, it may take it again.
   */
  mute(muted: boolean): void {
    if (this.disposed || muted === this.muted) return;
    this.muted = muted;
    this.followed = [];
    if (muted) this.lease.release();
    else if (this.lease.mayPush()) this.settle();
  }

  /** Items that newly need the user (after the notifier's debounce): pushed, or handed to the holder. */
  offer(items: readonly PushItem[]): void {
    if (this.disposed || items.length === 0) return;
    const since = this.now();
    for (const item of items) this.followed.push({ item, since });
    this.settle();
  }

  /** One look at the ledger: push what is due when holding the lease, else record this process's items as due. */
  private settle(): void {
    if (this.disposed || this.muted) return;
    const mine = this.followed.map((f) => f.item);
    const now = this.now();
    let seen: Ledger = EMPTY_LEDGER;
    const holds = this.lease.settle((read, holding) => {
      // Under --readonly nothing is recorded in the file: what this process pushed is remembered here instead.
      const ledger = this.opts.readonly ? { ...read, sent: { ...this.sentHere, ...read.sent } } : read;
      seen = ledger;
      const next = withDue(ledger, mine, now);
      if (!holding) return next;
      const after = pushedAll(next, this.send, now);
      if (this.opts.readonly) this.sentHere = pruned(after, now).sent;
      return after;
    });
    if (holds === null) return this.lookAgain(BUSY_RETRY_MS);
    if (holds) this.followed = [];
    else {
      this.followed = this.followed.filter((f) => !wasSent(seen, f.item) && now - f.since < FOLLOW_MAX_MS);
    }
    if (this.followed.length > 0) this.lookAgain(HEARTBEAT_MS);
  }

  private lookAgain(ms: number): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.settle();
    }, ms);
    this.timer.unref?.();
  }

  /**
   * At exit: the lease goes, its ledger stays. What this process was about to push (`unsent`: its debounce was
   * running) is recorded as due rather than sent, as its channels stop with it: the next holder pushes it.
   */
  dispose(unsent: readonly PushItem[] = []): void {
    if (this.disposed) return;
    if (unsent.length > 0) this.lease.settle((ledger) => withDue(ledger, unsent, this.now()));
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lease.release();
  }
}
