/**
 * The fleet snapshot: every session of every root (local and remote), grouped
 * by project, with what each group's header must say (how it is watched, a
 * lost connection). Pure: built from plain inputs, so the view and the tests
 * read the same thing.
 */
import type { RowModel } from '../feeds/row.js';
import type { NeedItem } from '../feeds/attention/needs.js';
import type { QuotaSnapshot } from '../store/cost/quota-domain.js';

export interface FleetRow extends RowModel {
  /** Unique across the fleet: "<host or local>|<root id>|<session>". */
  key: string;
  /** null on this machine; the `user@box` the row came from otherwise. */
  host: string | null;
  /** The root (local: identity; remote: the host's key) Enter opens. */
  rootId: string;
  /** The worktree / root name inside the group. */
  rootLabel: string;
  /**
   * Set while the row's host is not live (lost, or its omc-top missing or too old now): when its stream last said
   * anything. The row is what the host said then, not now: the view draws no age for it (AGE `?`) and dims it.
   */
  asOfMs?: number;
}

export interface FleetGroup {
  key: string;
  label: string;
  host: string | null;
  /** Words after the label: "2 worktrees", "polling: over the inotify budget", "lost 12 s ago…". */
  notes: string[];
  /** The header's tone: a problem (lost connection, too old) is an error, polling a warning. */
  tone: 'normal' | 'warn' | 'error';
  /** A longer message on its own line under the header (ssh's error, the install command); null for none. */
  detail: string | null;
  rows: FleetRow[];
  /**
   * What the project's own monitor counts (its `needs you: N`): the open items of its roots' attention views (a
   * host's: its attention line's), so also those no row carries (a gate, a `.omc` it may not list). The title sums it.
   */
  needsYou: number;
}

export interface FleetSnapshot {
  version: number;
  groups: FleetGroup[];
  /** Claude Code sessions running on this machine (registry, live or unverifiable). */
  localClaude: number;
  /** This machine's roots are shown (`--all`); false for `--host` alone. */
  local?: boolean;
  /** This machine's plan quota (OMC's usage cache, one for every local root); absent for `--host` alone. */
  quota?: QuotaSnapshot | null;
  roots: number;
  problems: string[];
  /** The first read of every root is done (for "time to live"). */
  ready: boolean;
}

export const EMPTY_FLEET: FleetSnapshot = {
  version: 0,
  groups: [],
  localClaude: 0,
  roots: 0,
  problems: [],
  ready: false,
};

/** OMC 5.6 slows sibling sessions down above this many on one machine. */
export const SIBLING_SLOWDOWN = 8;

/** What needs the user first, then the sessions pane's rank, the newest, the key. */
export function byAttention(a: FleetRow, b: FleetRow): number {
  return (
    Number(a.needs === null) - Number(b.needs === null) ||
    a.rank - b.rank ||
    (b.updatedMs ?? 0) - (a.updatedMs ?? 0) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

/**
 * 0 for a group where something needs the user (a row, or an item no row carries), else 1. Once per group object,
 * not per comparison or per sort: a comparison passing over both groups' rows cost a fleet of 4,000 rows a pass over
 * them for each of its ~90 comparisons, and a pass per sort cost every change that pass; the fleet keeps a group
 * whose rows did not change (and never mutates one), so a change passes over its own group's rows only.
 */
const noNeedsOf = new WeakMap<FleetGroup, number>();
function needs(g: FleetGroup): number {
  let n = noNeedsOf.get(g);
  if (n === undefined) noNeedsOf.set(g, (n = Number(g.needsYou === 0 && !g.rows.some((r) => r.needs !== null))));
  return n;
}

/**
 * How many things need the user over the whole fleet, every project and host: the sum of what each project's own
 * monitor counts, so the fleet's header and title say the number those monitors (and `serve --all`) add up to.
 */
export function fleetNeeding(snap: FleetSnapshot): number {
  let n = 0;
  for (const g of snap.groups) n += g.needsYou;
  return n;
}

/**
 * What the fleet is and how much needs you: the header's first words and the terminal title, so the two say it the
 * same, in the monitor's words (`needs you: N`). `--host` alone shows only other machines, and says so.
 */
export function fleetTitle(snap: FleetSnapshot): string {
  const needing = fleetNeeding(snap);
  const what = snap.local !== false ? 'omc-top --all' : 'omc-top --host';
  return needing > 0 ? `${what} · needs you: ${needing}` : what;
}

/**
 * A group header's words for an item of its project that no row carries (in no session: a gate, a `.omc` omc-top may
 * not list), in the rows' words; null for an item of a session.
 */
export const groupNeedNote = (n: Pick<NeedItem, 'session' | 'reason' | 'path'>): string | null =>
  n.session === null ? `needs you: ${n.reason}${n.path ? ` (${n.path})` : ''}` : null;

/** Groups with a row that needs the user first, then by their best row, local before remote, then by name. */
export function sortGroups(groups: FleetGroup[]): FleetGroup[] {
  const best = (g: FleetGroup) => g.rows[0]?.rank ?? Infinity;
  return groups.sort(
    (a, b) =>
      needs(a) - needs(b) ||
      best(a) - best(b) ||
      Number(a.host !== null) - Number(b.host !== null) ||
      a.label.localeCompare(b.label) ||
      (a.key < b.key ? -1 : 1),
  );
}

/** The lines of the list: a header per group, then its rows; ids for the list model. */
export type FleetLine =
  | { kind: 'group'; group: FleetGroup }
  | { kind: 'detail'; group: FleetGroup; text: string }
  | { kind: 'row'; group: FleetGroup; row: FleetRow };

/** Each group's lines, kept while the fleet keeps the group (a change elsewhere builds none of them again). */
const linesOfGroup = new WeakMap<FleetGroup, FleetLine[]>();

export function groupLines(g: FleetGroup): FleetLine[] {
  let lines = linesOfGroup.get(g);
  if (!lines) {
    lines = [{ kind: 'group', group: g }];
    if (g.detail) lines.push({ kind: 'detail', group: g, text: g.detail });
    for (const r of g.rows) lines.push({ kind: 'row', group: g, row: r });
    linesOfGroup.set(g, lines);
  }
  return lines;
}

export function fleetLines(snap: FleetSnapshot): FleetLine[] {
  const out: FleetLine[] = [];
  for (const g of snap.groups) for (const l of groupLines(g)) out.push(l);
  return out;
}

export const lineId = (l: FleetLine) =>
  l.kind === 'group' ? `group:${l.group.key}` : l.kind === 'detail' ? `detail:${l.group.key}` : l.row.key;

/** What the fleet can do with a remote row (fleet/remote.ts); absent without --host. */
export interface RemoteActions {
  hosts(): number;
  /** Hosts whose stream is up (the `ready` line came). */
  hostsLive(): number;
  /** The words of the confirmation: what will run where. */
  describeCancel(row: FleetRow, pause: boolean): string[];
  /** Why a cancel or pause of this row is refused now (no OMC loop there, or one still waiting for its answer), or null. */
  cancelRefusal(row: FleetRow, pause: boolean): string | null;
  /** Runs `omc-top cancel` on the row's host (bounded: REMOTE_COMMAND_BOUND_MS); resolves to the message to show. */
  cancel(row: FleetRow, pause: boolean): Promise<{ ok: boolean; text: string }>;
  /** Acknowledges on the row's host what needs the user in its session there; resolves to the message to show. */
  ack(row: FleetRow): Promise<{ ok: boolean; text: string }>;
  reconnect(host: string): void;
}
