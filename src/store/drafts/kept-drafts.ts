/**
 * Drafts kept when omc-top is ended without being asked: a hang-up (tmux kill-pane, an ssh drop), SIGTERM, a
 * crash. `q` and Ctrl-C ask before a draft is thrown away; a closed terminal cannot ask, so the draft is written
 * instead, synchronously on the way out, and the next open of the same editor offers it back.
 *
 * One file per .omc root, field and hang-up, in omc-top's own state directory (io/state-dir.ts), never under
 * `.omc`: `draft-<digest of the root>-<target>.<kept at, ms>-<8 random hex>.json`. Two monitors of one project closed
 * at once each keep their own file (the random part tells two hang-ups of one millisecond apart), and a file is never written over: an undecided
 * draft is not replaced by a second hang-up. They are offered one at a time, the oldest first. Restoring takes the
 * file by deleting it first: of two monitors offering the same file only the one whose delete succeeds restores
 * it, so one draft is never restored twice. A file older than a month (old-drafts.ts) is removed at a start of the
 * monitor, so neither a root that is gone nor a session that never returns keeps one forever. Written through the
 * contained write path; read through the safe read path, size-capped. (A file named without the `.<kept at>-<random>`
 * part was written by an older omc-top, one per field: it is read and offered the same way.)
 */
import { randomBytes } from 'node:crypto';
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
  | { kind: 'none' }
  | { kind: 'draft'; draft: KeptDraft; file: string; name: string; more: number }
  | { kind: 'bad'; problem: string; file: string; name: string; more: number };

const TARGET_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** After the root's digest: the target, then (since one file is kept per hang-up) when and by which process. */
const TAIL_RE = /^([a-z0-9][a-z0-9-]{0,63})(?:\.([0-9]{1,16})-[0-9a-f]{8})?\.json$/;

/** A kept file's target and when it was kept (0 for an older omc-top's file, which has no time in its name). */
function tailOf(tail: string): { target: string; keptAt: number } | null {
  const m = TAIL_RE.exec(tail);
  return m ? { target: m[1]!, keptAt: m[2] === undefined ? 0 : Number(m[2]) } : null;
}

export class KeptDrafts {
  /** This root's kept file names, listed once at the first ask (never per tick), then kept up to date here. */
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
    this.known ??= new Set(this.listNames());
    for (const n of this.known) if (tailOf(n.slice(this.prefix().length))?.target === target) return true;
    return false;
  }

  /** `draft-<digest of the root>-`: every file of this root starts so. */
  private prefix(): string {
    return rootFileName('draft', this.root, '').slice(0, -'.json'.length);
  }

  /** This root's kept files (of every target), by name. */
  private listNames(): string[] {
    const l = listDirSync(this.dir, '.', { rootLabel: "omc-top's state directory" });
    if (!l.ok) return [];
    const prefix = this.prefix();
    return (
      l.entries
        // Not only files: a directory or a fifo by such a name is offered as a bad file (named, Ctrl-X), never skipped.
        .filter((e) => e.name.startsWith(prefix) && tailOf(e.name.slice(prefix.length)) !== null)
        .map((e) => e.name)
    );
  }

  /** The files kept for `target`, the oldest first. */
  keptNames(target: string): string[] {
    const prefix = this.prefix();
    return this.listNames()
      .map((name) => ({ name, t: tailOf(name.slice(prefix.length))! }))
      .filter((f) => f.t.target === target)
      .sort((a, b) => a.t.keptAt - b.t.keptAt || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((f) => f.name);
  }

  /** A new name for a draft for `target` kept at `keptAt`: no other hang-up's file has it. */
  fileName(target: string, keptAt: number): string {
    if (!TARGET_RE.test(target)) throw new Error(`not a draft target: ${JSON.stringify(target)}`);
    return rootFileName(
      'draft',
      this.root,
      `${target}.${Math.max(0, Math.floor(keptAt))}-${randomBytes(4).toString('hex')}`,
    );
  }

  /** A kept file's path as the user is shown it. */
  shownFile(name: string): string {
    return shownPath(path.join(this.dir, name));
  }

  /**
   * Writes the draft now, synchronously (the process is about to end), each field cut to its limit. Returns
   * whether a field was cut; throws with the directory and the real reason when it cannot be written.
   */
  keepSync(draft: KeptDraft, limits: FieldLimits): { cut: boolean; name: string } {
    const bounded = boundFields(draft.fields, limits);
    const name = this.fileName(draft.target, draft.keptAt);
    let written: boolean;
    try {
      ensureOwnDir(this.dir);
      // Never over a file already there: that is another draft nobody has decided on yet.
      written = atomicWriteSync(this.dir, name, serializeDraft({ ...draft, ...bounded }, showPaths(this.root)), {
        commit: (current) => current === null,
      });
    } catch (e) {
      throw new Error(`not kept: ${describeOwnDirError(this.dir, e)}`, { cause: e });
    }
    if (!written) throw new Error(`not kept: ${this.shownFile(name)} is there already`);
    this.known?.add(name);
    return { cut: bounded.cut, name };
  }

  /**
   * The oldest draft kept for `target`, if any, and how many more are kept for it; a file that cannot be read or
   * is not one omc-top wrote is `bad`. A file gone between the listing and the read (taken by another monitor) is
   * passed over.
   */
  read(target: string, limits: FieldLimits): KeptRead {
    if (!TARGET_RE.test(target)) throw new Error(`not a draft target: ${JSON.stringify(target)}`);
    if (!statSync(this.dir, '.')) return { kind: 'none' };
    const names = this.keptNames(target);
    for (const [i, name] of names.entries()) {
      const file = this.shownFile(name);
      const more = names.length - i - 1;
      const r = readTextSync(this.dir, name, DRAFT_FILE_MAX_BYTES, { rootLabel: "omc-top's state directory" });
      if (!r.ok) {
        if (r.code === 'missing') continue;
        return { kind: 'bad', problem: r.message, file, name, more };
      }
      const p = parseDraft(r.text, target, limits);
      return p.ok
        ? { kind: 'draft', draft: p.draft, file, name, more }
        : { kind: 'bad', problem: p.problem, file, name, more };
    }
    return { kind: 'none' };
  }

  /**
   * Takes the kept file `name` away (restored into the field, or discarded): true for the one caller whose delete
   * removed it, false when it was gone already (another monitor took it first). Throws on other failures.
   */
  discard(name: string): boolean {
    const t = name.startsWith(this.prefix()) ? tailOf(name.slice(this.prefix().length)) : null;
    if (!t) throw new Error(`not a kept draft of this root: ${JSON.stringify(name)}`);
    const gone = unlinkUnder(this.dir, name);
    this.known?.delete(name);
    return gone;
  }
}
