/**
 * `watch --json --push-lease` (what a fleet with push channels asks of a remote host): the watch takes that
 * project's push lease on its own machine for the fleet, which then pushes that project's items itself. The
 * lease is a pid and start time with a heartbeat (lease.ts): while the watch lives (the fleet's ssh keeps its
 * stdin open) an omc-top started there later stays quiet, and once the fleet is gone the watch ends and the next
 * one takes it. When a live omc-top there already holds it, the watch says so and the fleet stays quiet for the
 * project. Checked at start and every few seconds (a holder gone, stopped or silent is replaced; a watch that was
 * itself stopped long enough to be replaced says `other` once continued); each change is one line.
 */
import { PushLease } from './lease.js';

/** Who pushes for the project: `fleet` (this watch holds the lease for its reader) or `other` (an omc-top there). */
export type LeasePusher = 'fleet' | 'other';

export const LEASE_CHECK_MS = 2_000;

export function holdLeaseForFleet(
  dir: string,
  root: string,
  say: (pusher: LeasePusher) => void,
  opts: { intervalMs?: number; lease?: PushLease } = {},
): () => void {
  const lease = opts.lease ?? new PushLease(dir, root);
  let said: LeasePusher | null = null;
  const check = () => {
    const now: LeasePusher = lease.mayPush() ? 'fleet' : 'other';
    if (now === said) return;
    said = now;
    say(now);
  };
  check();
  const timer = setInterval(check, opts.intervalMs ?? LEASE_CHECK_MS);
  timer.unref?.();
  return () => {
    clearInterval(timer);
    lease.release();
  };
}
