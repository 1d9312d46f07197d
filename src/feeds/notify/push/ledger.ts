/**
 * What a project's push lease remembers besides its holder, so that a handover never loses a message: `sent`, the
 * items a holder pushed (each omc-top on the project checks it before pushing, so an item both saw goes out once,
 * even across a handover), and `due`, the items an omc-top saw newly needing the user while another held the lease
 * (the holder pushes them at once, as it watches the lease file, or at its next beat; whoever takes the lease next
 * pushes those still there). An item the
 * holder sent stays due until a channel took it (then it is `sent`): a holder gone with it in flight loses nothing.
 * It travels
 * with the lease file (lease.ts), read and written under the lease's taking marker.
 */
import type { PushMessage } from './channel.js';

/** One push: the items it is about (a "+N more" message is about several) and its message. */
export interface PushItem {
  ids: string[];
  message: PushMessage;
}

export interface Due extends PushItem {
  /** When it was first recorded (epoch ms). */
  at: number;
}

export interface Ledger {
  /** Item id → when it was pushed (epoch ms). */
  sent: Record<string, number>;
  due: Due[];
}

export const EMPTY_LEDGER: Ledger = { sent: {}, due: [] };

/**
 * How long a pushed item is remembered: a holder stopped (Ctrl-Z) for up to this long resumes with the item still
 * pending and finds it sent (stopped longer, it may push it again: twice rather than never). Not hours: an item
 * whose id has no time of its own (a registry entry without its status time is named by its pid) may be a new
 * wait under the same id, and must not stay silenced. Bounded in count too, so the file stays small.
 */
const SENT_KEEP_MS = 30 * 60_000;
const SENT_MAX = 32;
/** An item still due after this long is old news; a phone buzzing for it then helps nobody. */
export const DUE_KEEP_MS = 15 * 60_000;
const DUE_MAX = 16;

const isText = (v: unknown, max = 2000): v is string => typeof v === 'string' && v.length <= max;

const isMessage = (v: unknown): v is PushMessage => {
  const m = v as PushMessage;
  return (
    typeof v === 'object' &&
    v !== null &&
    isText(m.project) &&
    isText(m.waitingOn) &&
    (m.session === null || isText(m.session))
  );
};

const isDue = (v: unknown): v is Due => {
  const d = v as Due;
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(d.ids) &&
    d.ids.length > 0 &&
    d.ids.every((id) => isText(id, 500)) &&
    Number.isFinite(d.at) &&
    isMessage(d.message)
  );
};

/** The ledger in a lease file as read (anything malformed is left out: the holder alone is never lost for it). */
export function ledgerOf(v: unknown): Ledger {
  if (typeof v !== 'object' || v === null) return EMPTY_LEDGER;
  const raw = v as { sent?: unknown; due?: unknown };
  const sent: Record<string, number> = {};
  if (typeof raw.sent === 'object' && raw.sent !== null && !Array.isArray(raw.sent)) {
    for (const [id, at] of Object.entries(raw.sent))
      if (isText(id, 500) && Number.isFinite(at)) sent[id] = at as number;
  }
  const due = Array.isArray(raw.due) ? raw.due.filter(isDue) : [];
  return { sent, due };
}

/** Old and surplus entries dropped (the newest kept). */
export function pruned(l: Ledger, now: number): Ledger {
  const sent = Object.entries(l.sent)
    .filter(([, at]) => now - at < SENT_KEEP_MS && at - now < SENT_KEEP_MS)
    .sort((a, b) => b[1] - a[1])
    .slice(0, SENT_MAX);
  const due = l.due.filter((d) => now - d.at < DUE_KEEP_MS && d.at - now < DUE_KEEP_MS).slice(-DUE_MAX);
  return { sent: Object.fromEntries(sent), due };
}

/** Every item of `p` was pushed by some holder. */
export const wasSent = (l: Ledger, p: PushItem): boolean => p.ids.every((id) => id in l.sent);

const sameItem = (a: PushItem, b: PushItem) => a.ids.length === b.ids.length && a.ids.every((id, i) => id === b.ids[i]);

/** `items` added to what is due, except those pushed already or due already. */
export function withDue(l: Ledger, items: readonly PushItem[], now: number): Ledger {
  const due = l.due.filter((d) => !wasSent(l, d));
  for (const p of items) if (!wasSent(l, p) && !due.some((d) => sameItem(d, p))) due.push({ ...p, at: now });
  return { sent: l.sent, due };
}

/** The items due that no holder recorded as pushed yet. */
export const unsent = (l: Ledger): Due[] => l.due.filter((d) => !wasSent(l, d));

/**
 * `ids` recorded as pushed (a channel took their message: sender.ts), and what is due about them alone dropped. An
 * item is recorded only then, not when it was queued: until a channel answers it stays due, so a holder that exits
 * or dies with it in flight leaves it to the next holder (twice, when the channel took it unanswered, never zero).
 */
export function withSent(l: Ledger, ids: ReadonlyMap<string, number>): Ledger {
  if (ids.size === 0) return l;
  const sent = { ...l.sent };
  for (const [id, at] of ids) sent[id] = at;
  return { sent, due: l.due.filter((d) => !d.ids.every((id) => id in sent)) };
}

export const sameLedger = (a: Ledger, b: Ledger): boolean => JSON.stringify(a) === JSON.stringify(b);

export const ledgerEmpty = (l: Ledger): boolean => l.due.length === 0 && Object.keys(l.sent).length === 0;
