/**
 * Drafts kept when omc-top is ended without being asked: a hang-up (tmux kill-pane, an ssh drop), SIGTERM, a
 * crash. `q` and Ctrl-C ask before a draft is thrown away; a closed terminal cannot ask, so the draft is written
 * instead, synchronously on the way out, and the next open of the same editor offers it back.
 *
 * One file per .omc root and field, in omc-top's own state directory (io/state-dir.ts), never under `.omc`:
 * `draft-<digest of the root>-<target>.json`. A new draft for the same field replaces the file, so there is never
 * more than one; a file older than a month (old-drafts.ts) is removed at a start of the monitor, so neither a
 * root that is gone nor a session that never returns keeps one forever. Written through the contained write path;
 * read through the safe read path, size-capped.
 */
import path from 'node:path';
import {
  atomicWriteSync,
  describeOwnDirError,
  ensureOwnDir,
  listDirSync,
  readTextSync,
  statSync,
  unlinkUnder,
} from '../../io/safe-fs/index.js';
import { showPaths } from '../../io/safe-fs/byte-paths.js';
import { rootFileName } from '../../io/state-dir.js';
import { shownPath } from '../../io/shown-path.js';
import { boundFields, parseDraft, serializeDraft, type FieldLimits, type KeptDraft } from './draft-file.js';

/** Far above any field's own limit written out (4,000 characters, each at most 12 bytes as JSON): a bigger file was not written by omc-top. */
export const DRAFT_FILE_MAX_BYTES = 256 * 1024;

/** What the next open of an editor finds: nothing, a draft to offer, or a file that cannot be used (and why). */
export type KeptRead =
  { kind: 'none' } | { kind: 'draft'; draft: KeptDraft; file: string } | { kind: 'bad'; problem: string; file: string };

const TARGET_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;

export class KeptDrafts {
  /** This root's targets with a file, listed once at the first ask (never per tick), then kept up to date here. */
  private known: Set<string> | null = null;

  constructor(
    readonly dir: string,
    readonly root: string,
  ) {}

  /**
   * Whether a draft is kept for `target`, from one listing of the state directory made at the first ask: a view
   * may ask it on every frame (a returning session's detail says its note is kept) without reading a file.
   */
  has(target: string): boolean {
    if (!this.known) {
      const prefix = rootFileName('draft', this.root, '').slice(0, -'.json'.length);
      const l = listDirSync(this.dir, '.', { rootLabel: "omc-top's state directory" });
      this.known = new Set(
        l.ok
          ? l.entries
              .filter((e) => e.kind === 'file' && e.name.startsWith(prefix) && e.name.endsWith('.json'))
              .map((e) => e.name.slice(prefix.length, -'.json'.length))
          : [],
      );
    }
    return this.known.has(target);
  }

  /** The file's name in the state directory. */
  fileName(target: string): string {
    if (!TARGET_RE.test(target)) throw new Error(`not a draft target: ${JSON.stringify(target)}`);
    return rootFileName('draft', this.root, target);
  }

  /** The file's path as the user is shown it. */
  shownFile(target: string): string {
    return shownPath(path.join(this.dir, this.fileName(target)));
  }

  /**
   * Writes the draft now, synchronously (the process is about to end), each field cut to its limit. Returns
   * whether a field was cut; throws with the directory and the real reason when it cannot be written.
   */
  keepSync(draft: KeptDraft, limits: FieldLimits): { cut: boolean } {
    const bounded = boundFields(draft.fields, limits);
    try {
      ensureOwnDir(this.dir);
      atomicWriteSync(
        this.dir,
        this.fileName(draft.target),
        serializeDraft({ ...draft, ...bounded }, showPaths(this.root)),
      );
    } catch (e) {
      throw new Error(`not kept: ${describeOwnDirError(this.dir, e)}`, { cause: e });
    }
    this.known?.add(draft.target);
    return { cut: bounded.cut };
  }

  /** The draft kept for `target`, if any; a file that cannot be read or is not one omc-top wrote is `bad`. */
  read(target: string, limits: FieldLimits): KeptRead {
    const name = this.fileName(target);
    const file = this.shownFile(target);
    if (!statSync(this.dir, '.')) return { kind: 'none' };
    const r = readTextSync(this.dir, name, DRAFT_FILE_MAX_BYTES, { rootLabel: "omc-top's state directory" });
    if (!r.ok) return r.code === 'missing' ? { kind: 'none' } : { kind: 'bad', problem: r.message, file };
    const p = parseDraft(r.text, target, limits);
    return p.ok ? { kind: 'draft', draft: p.draft, file } : { kind: 'bad', problem: p.problem, file };
  }

  /** Removes the kept draft (restored into the field, or discarded); false when there was none. */
  discard(target: string): boolean {
    const gone = unlinkUnder(this.dir, this.fileName(target));
    this.known?.delete(target);
    return gone;
  }
}
