/**
 * Acknowledgements of "needs you" items, kept in omc-top's own state
 * directory (one file per .omc root, io/state-dir.ts), so the open monitor,
 * a second one, `status --tmux` and `--json` all leave out the same items.
 * An acknowledgement names one occurrence (NeedItem.id): the same condition
 * arising anew has a new id and needs the user again.
 *
 * Written through the contained write path, atomically, under omc-top's lock
 * on the file (two monitors acknowledging at once are merged, not lost). A
 * file that cannot be read or parsed is a problem line; the acknowledgements
 * last read stay in force and the file is only rewritten by the next ack.
 */
import { watchOwnFile } from '../../io/watch/own-file.js';
import { withFileLock } from '../../io/file-lock.js';
import { atomicWriteSync, describeOwnDirError, ensureOwnDir, readTextSync, statSync } from '../../io/safe-fs/index.js';
import { rootFileName } from '../../io/state-dir.js';
import { showPaths } from '../../io/safe-fs/byte-paths.js';
import { sameStamp, stampOf, type StatParts } from '../../io/file-stamp.js';

/** The newest this many are kept: an item acknowledged long ago that still holds stays acknowledged. */
export const MAX_ACKS = 2000;
const FILE_MAX_BYTES = 1024 * 1024;
const FILE_VERSION = 1;

/** The file's mtime and size when read (the status cache records it, so a reader sees the acks moved since). */
export type AckStamp = { mtimeMs: number; size: number };
const ACK_STAMP = ['mtimeMs', 'size'] as const;

export const ackFileName = (root: string) => rootFileName('attention', root);

/** The acknowledgements file's stamp from its stat. */
export const ackStamp = (st: StatParts): AckStamp => stampOf(st, ACK_STAMP);

type Parsed = { ok: true; acks: Map<string, number> } | { ok: false; message: string };

export function parseAcks(text: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `is not JSON (${(e as Error).message})` };
  }
  const o = v as { version?: unknown; acks?: unknown } | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { ok: false, message: 'is not a JSON object' };
  if (o.version !== FILE_VERSION) return { ok: false, message: `has version ${JSON.stringify(o.version)}, not 1` };
  if (!o.acks || typeof o.acks !== 'object' || Array.isArray(o.acks))
    return { ok: false, message: '"acks" is not an object of id → time' };
  const acks = new Map<string, number>();
  for (const [id, at] of Object.entries(o.acks as Record<string, unknown>)) {
    // A bad entry is skipped, not the file: the others still hold.
    if (id.length > 0 && id.length <= 1000 && typeof at === 'number' && Number.isFinite(at)) acks.set(id, at);
  }
  return { ok: true, acks };
}

export function serializeAcks(root: string, acks: ReadonlyMap<string, number>): string {
  const newest = [...acks].sort((a, b) => a[1] - b[1]).slice(-MAX_ACKS);
  // A root held by its bytes is recorded by its real path (bad bytes as \xNN), not this process's /proc/self/fd/N.
  return JSON.stringify({ version: FILE_VERSION, root: showPaths(root), acks: Object.fromEntries(newest) });
}

export class AckFile {
  readonly file: string;
  private acks = new Map<string, number>();
  private stampSeen: AckStamp | null = null;
  /** Why the file could not be used, or null (the acknowledgements last read still hold). */
  problem: string | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly dir: string,
    readonly root: string,
  ) {
    this.file = ackFileName(root);
    this.load();
  }

  has(id: string): boolean {
    return this.acks.has(id);
  }

  size(): number {
    return this.acks.size;
  }

  /** The file's stamp when it was last read (null: no file): the status cache records it. */
  stamp(): AckStamp | null {
    return this.stampSeen;
  }

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Re-reads the file when it changed; returns whether the acknowledgements changed. */
  load(): boolean {
    // No directory yet: nothing acknowledged (and no failed lookup to remember).
    if (!statSync(this.dir, '.')) return this.replace(new Map(), null, null);
    const st = statSync(this.dir, this.file);
    if (!st) return this.replace(new Map(), null, null);
    const stamp = ackStamp(st);
    if (this.stampSeen && sameStamp(stamp, this.stampSeen)) return false;
    const r = readTextSync(this.dir, this.file, FILE_MAX_BYTES);
    if (!r.ok) {
      if (r.code === 'missing') return this.replace(new Map(), null, null);
      return this.keep(stamp, r.message);
    }
    const p = parseAcks(r.text);
    if (!p.ok) return this.keep(stamp, p.message);
    return this.replace(p.acks, stamp, null);
  }

  /** Acknowledges `ids` at `now`: merged with what another omc-top wrote meanwhile, written atomically. */
  async ack(ids: readonly string[], now: number): Promise<void> {
    if (ids.length === 0) return;
    try {
      ensureOwnDir(this.dir);
      await withFileLock(this.dir, this.file, () => {
        const r = readTextSync(this.dir, this.file, FILE_MAX_BYTES);
        const onDisk = r.ok ? parseAcks(r.text) : null;
        // A damaged file is replaced by what this process knows (its last good read) plus the new acks.
        const merged = new Map(onDisk?.ok ? onDisk.acks : this.acks);
        for (const id of ids) merged.set(id, now);
        atomicWriteSync(this.dir, this.file, serializeAcks(this.root, merged));
      });
    } catch (e) {
      // Every surface shows this text (the inbox, the sessions list, the fleet, `omc-top ack`): the directory, the
      // real reason, and that nothing left the count.
      const stays = ids.length === 1 ? 'the item stays' : 'the items stay';
      throw new Error(`not recorded: ${describeOwnDirError(this.dir, e)}; ${stays} in the count`, { cause: e });
    }
    this.stampSeen = null;
    this.load();
  }

  /**
   * Follows the file (another omc-top's acknowledgements); returns a stop function. Watching creates
   * nothing: until the state directory exists (no omc-top has acknowledged anything yet) it is looked
   * for every few seconds.
   */
  watch(): () => void {
    return watchOwnFile(this.dir, this.file, () => this.load());
  }

  private keep(stamp: AckStamp, message: string): boolean {
    const was = this.problem;
    this.stampSeen = stamp;
    this.problem = `omc-top's acknowledgements (${this.file}) ${message}; the ones read before still hold`;
    if (was !== this.problem) this.emit();
    return false;
  }

  private replace(acks: Map<string, number>, stamp: AckStamp | null, problem: string | null): boolean {
    const changed = acks.size !== this.acks.size || [...acks.keys()].some((id) => !this.acks.has(id));
    // A rewrite that changed nothing still moves the stamp the status cache records: it must follow.
    const moved = changed || problem !== this.problem || !sameStamp(stamp, this.stampSeen);
    this.acks = acks;
    this.stampSeen = stamp;
    this.problem = problem;
    if (moved) this.emit();
    return changed;
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }
}
