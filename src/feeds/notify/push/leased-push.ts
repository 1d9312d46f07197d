/**
 * Push for one project through its lease (lease.ts), so that every item that newly needs the user is pushed once
 * by whoever holds the lease, or at worst twice, never zero, whatever the moment of a handover (another omc-top
 * starting or exiting, a holder crashing or stopped while its debounce runs or its request is in flight):
 * - the holder pushes an item unless the ledger says a holder pushed it already, and records it as pushed once a
 *   channel took it (sender.ts: a 2xx); until then it stays due, so a holder gone with it in flight leaves it to
 *   the next (which sends it again: twice when the channel took it but could not answer, never zero);
 * - an item no channel took stays due: a failure that may pass is sent again after RETRY_FIRST_MS, then after
 *   twice as long each time, at the holder's beat, until the ledger drops it as old news (DUE_KEEP_MS); one
 *   refused outright (a 4xx) is not sent again by this process (the same request would be refused), and is left
 *   due for the next holder, whose channels may differ;
 * - any other omc-top records the item as due in the ledger instead of dropping it; the holder pushes what is due
 *   at once (it watches the lease file, below) or at its next beat (every HEARTBEAT_MS), and whoever takes the
 *   lease next pushes what is still due;
 * - an omc-top that recorded an item as due, or saw one due lately in the ledger (the holder's, in flight), looks
 *   again every HEARTBEAT_MS until the ledger says it was pushed, and takes the lease itself when the holder has
 *   gone, stopped or fell silent meanwhile (a holder killed mid-request). Only while it has such an item: at rest
 *   it does nothing;
 * - every omc-top on the project watches the lease file for a replace or a removal (not the holder's beat, a touch):
 *   a holder exiting releases the lease with its unsent items due, and one waiting takes it and pushes them then,
 *   not at its own next message. The watch is the state directory's inotify, shared with the acknowledgements';
 *   at rest it costs nothing but a name compare when a holder beats.
 */
import { HEARTBEAT_MS, SILENT_AFTER_MS } from '../../../io/heartbeat.js';
import { watchOwnFile } from '../../../io/watch/own-file.js';
import type { PushMessage } from './channel.js';
import { PushLease } from './lease.js';
import {
  EMPTY_LEDGER,
  pruned,
  unsent,
  wasSent,
  withDue,
  withSent,
  type Due,
  type Ledger,
  type PushItem,
} from './ledger.js';
import type { Delivery } from './sender.js';
import { RetryPlan } from './retry-plan.js';

/**
 * How long an item this process recorded as due is followed: past it, the holder is live and still has not pushed
 * it (its notifications are off, say), and this one stops asking. The holder's beat pushes it meanwhile.
 */
const FOLLOW_MAX_MS = 2 * SILENT_AFTER_MS;
/** Another process had the taking marker: a few milliseconds of work; looked again after this. */
const BUSY_RETRY_MS = 100;
export { RETRY_FIRST_MS } from './retry-plan.js';

/**
 * What the channels are given: a message, and how it went once they answered (sender.ts); `done` answers what this
 * process does next about it (`sent again in 1 min`), for the line that says it failed.
 */
export type PushSend = (m: PushMessage, done: (d: Delivery) => string | null) => void;

const keyOf = (p: PushItem) => p.ids.join('\u0000');

export class LeasedPush {
  readonly lease: PushLease;
  /** Items this process saw that no holder recorded as pushed yet, with when they were first recorded. */
  private followed: { item: PushItem; since: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private disposed = false;
  private muted = false;
  /** Under --readonly: what this process pushed (it records nothing in the lease file). */
  private sentHere: Ledger['sent'] = {};
  /** Items sent by this process whose channels have not answered yet: not sent again meanwhile. */
  private readonly inFlight = new Set<string>();
  /** Items no channel took: when this process may send each again (the same plan as a `--host` project's). */
  private readonly retry = new RetryPlan();
  /** Item ids a channel took, with when, not yet recorded in the ledger. */
  private readonly taken = new Map<string, number>();
  private readonly unwatch: () => void;

  constructor(
    dir: string,
    root: string,
    private readonly send: PushSend,
    private readonly opts: Omit<ConstructorParameters<typeof PushLease>[2] & object, 'onDue'> = {},
  ) {
    this.lease = new PushLease(dir, root, { ...opts, onDue: () => this.settle() });
    // Watched before the first look, so a release between the two is not missed.
    this.unwatch = watchOwnFile(dir, this.lease.name, () => this.soon(0), { replacedOnly: true, loadAtStart: false });
    // A holder that exited or crashed may have left items due: the one that took the lease (at its construction)
    // now pushes them; another follows what is due lately, in case its holder was killed with it in flight.
    this.settle();
  }

  private now(): number {
    return (this.opts.clock ?? Date.now)();
  }

  /**
   * Muted (the monitor's `N`): this process neither pushes nor holds the lease, so another omc-top on the project
   * (`serve`, started for the phone) takes it at once (it watches the lease); the ledger stays. Unmuted, it may
   * take it again.
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

  /**
   * One look at the ledger: record what a channel took, push what is due when holding the lease, else record this
   * process's items as due. Ending or muted, only what a channel took is recorded (the lease is not taken).
   */
  private settle(): void {
    if (this.disposed || this.muted) return this.record();
    const mine = this.followed.map((f) => f.item);
    const now = this.now();
    let seen: Ledger = EMPTY_LEDGER;
    let toSend: Due[] = [];
    const holds = this.lease.settle((read, holding) => {
      // Under --readonly nothing is recorded in the file: what this process pushed is remembered here instead.
      const ledger = withSent(
        this.opts.readonly ? { ...read, sent: { ...this.sentHere, ...read.sent } } : read,
        this.taken,
      );
      const next = withDue(ledger, mine, now);
      seen = next;
      if (holding) {
        const due = unsent(next);
        toSend = due.filter((d) => this.mayResend(d, now));
        // A pause kept for an item no longer due (pushed by another, or dropped as old) is forgotten.
        this.retry.keepOnly(new Set(due.map(keyOf)));
      }
      return next;
    });
    if (holds === null) return this.soon(BUSY_RETRY_MS);
    this.recorded(seen, now);
    if (holds) this.followed = [];
    else {
      this.followed = this.followed.filter((f) => !wasSent(seen, f.item) && now - f.since < FOLLOW_MAX_MS);
    }
    // An item due lately that another holds (in its debounce's wake, or in flight): followed too, so that a holder
    // killed with it (no release to see) is replaced within a beat. Only while such an item is fresh: at rest, nothing.
    const freshDue = !holds && unsent(seen).some((d) => now - d.at < FOLLOW_MAX_MS);
    if (this.followed.length > 0 || freshDue) this.soon(HEARTBEAT_MS);
    // Sent once the ledger is written and its marker gone: an answer may come at once (and look again).
    for (const d of toSend) {
      const key = keyOf(d);
      this.inFlight.add(key);
      this.send(d.message, (delivery) => this.answered(d, key, delivery));
    }
  }

  /** Not in flight here, and its pause after a failure (if any) is over. */
  private mayResend(d: Due, now: number): boolean {
    const key = keyOf(d);
    return !this.inFlight.has(key) && this.retry.mayResend(key, now);
  }

  /** The ledger was written with what a channel took: forgotten here (under --readonly, kept as this one's own). */
  private recorded(ledger: Ledger, now: number): void {
    if (this.opts.readonly) this.sentHere = pruned(ledger, now).sent;
    this.taken.clear();
  }

  /** What the channels made of an item this process sent; what happens next, in words (null: taken). */
  private answered(d: Due, key: string, delivery: Delivery): string | null {
    this.inFlight.delete(key);
    if (delivery === 'taken') {
      this.retry.taken(key);
      const at = this.now();
      for (const id of d.ids) this.taken.set(id, at);
      this.settle();
      return null;
    }
    // Left due: sent again after a pause (at a beat), or, refused outright, left to the next holder.
    const next = this.retry.failed(key, d.at, delivery, this.now());
    return this.disposed ? null : next.words;
  }

  /** Ending or muted: what a channel took is still recorded, without taking the lease. */
  private record(): void {
    if (this.taken.size === 0) return;
    const now = this.now();
    let seen: Ledger = EMPTY_LEDGER;
    const done = this.lease.settle(
      (read) =>
        (seen = withSent(
          this.opts.readonly ? { ...read, sent: { ...this.sentHere, ...read.sent } } : read,
          this.taken,
        )),
      { take: false },
    );
    if (done === null) return this.soon(BUSY_RETRY_MS);
    this.recorded(seen, now);
  }

  /** Looks again within `ms` (an earlier look already planned stays). */
  private soon(ms: number): void {
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.settle();
    }, ms);
    this.timer.unref?.();
  }

  /**
   * At exit: the lease goes, its ledger stays. What this process was about to push (`unsent`: its debounce was
   * running) is recorded as due rather than sent, as its channels stop with it, and so stays what it sent that no
   * channel has taken yet: the next holder pushes them, at once if one is waiting (it watches the lease file).
   */
  dispose(unsentHere: readonly PushItem[] = []): void {
    if (this.disposed) return;
    this.unwatch();
    const now = this.now();
    if (unsentHere.length > 0 || this.taken.size > 0)
      this.lease.settle((ledger) => withDue(withSent(ledger, this.taken), unsentHere, now));
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lease.release();
  }
}
