/**
 * The verdicts of omc-top's cancels (`settled`) and who follows each (`followedBy`), kept beside the record of the
 * cancels (cancel-records.ts) in a file of their own, `settled-cancels-<16 hex of the root>.json`, where an older
 * omc-top never writes. An omc-top from before these fields reads the record without them and writes the whole
 * record back when it records a cancel of its own: every other cancel's settled word was gone then (the monitors
 * still said it, `--json` and `watch --json` the store's word again), and every follower took a cancel whose maker
 * still runs for one nobody follows. Users upgrade while an old monitor still runs in another pane, so the newer
 * omc-top keeps both fields here too and merges them into what it read of the record: the record's own field first
 * (an omc-top that reads only the record says that one), then this file's.
 *
 * Written under the record's lock, with the record (CancelRecordFile.change), so recording a cancel and settling one
 * stay in one order; read and watched with it. One entry per session, the newest cancel's, for the record's day and
 * no more than its number of entries: the side file of a cancel is only ever about that cancel (`key@requestedMs`).
 * A file that cannot be read or parsed keeps what was read before, with a problem line; the next write repairs it.
 */
import { showPaths } from '../../io/safe-fs/byte-paths.js';
import { rootFileName } from '../../io/state-dir.js';
import {
  bounded,
  isKey,
  isTime,
  parseFollower,
  parseSettlement,
  type CancelFollower,
  type CancelSettlement,
} from './record-fields.js';

/** What the side file keeps of one cancel (named by its session and when its signal was written). */
export interface SettledSideEntry {
  key: string;
  requestedMs: number;
  settled: CancelSettlement | null;
  followedBy: CancelFollower | null;
}

/** The fields of a record the side file keeps (CancelRecord's). */
interface KeptFields {
  key: string;
  requestedMs: number;
  settled?: CancelSettlement | null;
  followedBy?: CancelFollower | null;
}

const FILE_VERSION = 1;

/**
 * Not `cancels-…`: a script (or a reader) that globs `cancels-*.json` for the record still finds the record alone.
 */
export const settledSideFileName = (root: string) => rootFileName('settled-cancels', root);

type Parsed = { ok: true; entries: Map<string, SettledSideEntry> } | { ok: false; message: string };

export function parseSettledSide(text: string, now: number): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `is not JSON (${(e as Error).message})` };
  }
  const o = v as { version?: unknown; entries?: unknown } | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { ok: false, message: 'is not a JSON object' };
  if (o.version !== FILE_VERSION) return { ok: false, message: `has version ${JSON.stringify(o.version)}, not 1` };
  if (!Array.isArray(o.entries)) return { ok: false, message: '"entries" is not a list' };
  const out: SettledSideEntry[] = [];
  for (const c of o.entries as unknown[]) {
    // A bad entry is skipped, not the file: the others still hold.
    const e = c as Record<string, unknown> | null;
    if (!e || typeof e !== 'object') continue;
    const { key, requestedMs } = e;
    if (!isKey(key) || !isTime(requestedMs)) continue;
    const settled = e.settled == null ? null : parseSettlement(e.settled, requestedMs);
    const followedBy = parseFollower(e.followedBy);
    if (settled || followedBy) out.push({ key, requestedMs, settled, followedBy });
  }
  return { ok: true, entries: bounded(out, now) };
}

/** What the side file keeps of these records: each one's settlement and follower, where it has either. */
export function sideEntriesOf(records: Iterable<KeptFields>): SettledSideEntry[] {
  const out: SettledSideEntry[] = [];
  for (const r of records) {
    const settled = r.settled ?? null;
    const followedBy = r.followedBy ?? null;
    if (settled || followedBy) out.push({ key: r.key, requestedMs: r.requestedMs, settled, followedBy });
  }
  return out;
}

export function serializeSettledSide(root: string, entries: Iterable<SettledSideEntry>, now: number): string {
  // A root held by its bytes is named by its real path (bad bytes as \xNN), as the record names it.
  return JSON.stringify({ version: FILE_VERSION, root: showPaths(root), entries: [...bounded(entries, now).values()] });
}

/**
 * The records with what the side file keeps of the same cancel (`key@requestedMs`) where the record lacks it (an
 * older omc-top dropped it): the record's own field first, so an omc-top that reads only the record and this one
 * say the same. An entry about another cancel of the session (an older omc-top recorded a newer one) adds nothing.
 */
export function withSettledSide<R extends KeptFields>(
  records: ReadonlyMap<string, R>,
  side: ReadonlyMap<string, SettledSideEntry>,
): Map<string, R> {
  const out = new Map(records);
  for (const [k, r] of records) {
    const s = side.get(k);
    if (!s || s.requestedMs !== r.requestedMs) continue;
    const settled = r.settled ?? s.settled;
    const followedBy = r.followedBy ?? s.followedBy;
    if (settled !== (r.settled ?? null) || followedBy !== (r.followedBy ?? null))
      out.set(k, { ...r, settled, followedBy });
  }
  return out;
}
