/**
 * The last-good rule of the architecture, written once, for one file:
 *
 * - a good read replaces the value and clears any failure;
 * - a failed read (unreadable, invalid JSON, …) keeps the last good value.
 *   On the leading edge of a burst it is only *pending*: a non-atomic writer
 *   may have been caught mid-write, and the watcher re-reads the file on the
 *   trailing edge ~60 ms later, which decides. On the trailing edge or in a
 *   scan it is shown (`failure`);
 * - a *suspect* value (one the domain can show but OMC could not parse, such
 *   as a wiki page with broken frontmatter) is held back like a failure on the
 *   leading edge while a good value is held, and replaces it once confirmed;
 * - a missing file forgets everything;
 * - the same bytes read again change nothing (compared by digest, so 4,000
 *   state files do not keep their texts in memory).
 *
 * `LastGood` is the rule alone (no I/O); `LastGoodFile` reads through the safe
 * read path and adds the stat gate for scans and poll ticks. A domain supplies
 * `parse(read)`: what it makes of the bytes.
 */
import { hash } from 'node:crypto';
import {
  notReadHere,
  parseJsonText,
  readTextSync,
  statSync,
  type ReadFailure,
  type ReadFailureCode,
  type ReadOk,
  type ReadOptions,
} from './safe-fs/index.js';
import { sameStamp } from './file-stamp.js';

export type ReadEdge = 'leading' | 'trailing' | 'scan';

/** What a read learnt of the bytes it got: inode, size, mtime, and the change time when it was known. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
  /** The inode's change time when known: a chmod or chown (who may read it) moves it, not the bytes. */
  ctimeMs?: number;
}

/** What a domain made of one read. */
export type Parsed<T> =
  | {
      ok: true;
      value: T;
      /** Shown with the value at once (the value itself is fine, e.g. "contains invalid UTF-8"). */
      warning?: string | null;
      /** Show it, but do not let a leading-edge read replace a good value with it. */
      suspect?: boolean;
    }
  | { ok: false; problem: string };

export class LastGood<T> {
  private current: T | undefined = undefined;
  private good = false;
  private failed: string | null = null;
  private warned: string | null = null;
  private waiting: string | null = null;

  /** The last good value (or the confirmed suspect one); undefined when there never was one. */
  get value(): T | undefined {
    return this.current;
  }
  /** A failure the trailing read (or a scan) confirmed; the value, if any, is the last good one. */
  get failure(): string | null {
    return this.failed;
  }
  /** The current value's warning. */
  get warning(): string | null {
    return this.warned;
  }
  /** The line to show for this file: its failure, else its value's warning. */
  get problem(): string | null {
    return this.failed ?? this.warned;
  }
  /** A leading-edge failure waiting for the trailing read. */
  get pending(): string | null {
    return this.waiting;
  }

  /** Applies one outcome; returns true when what is shown (value, failure, warning) changed. */
  accept(p: Parsed<T>, edge: ReadEdge): boolean {
    if (p.ok && !(p.suspect && edge === 'leading' && this.good)) {
      const changed = !Object.is(this.current, p.value) || this.failed !== null || this.warned !== (p.warning ?? null);
      this.current = p.value;
      this.good = !p.suspect;
      this.failed = null;
      this.warned = p.warning ?? null;
      this.waiting = null;
      return changed;
    }
    const problem = p.ok ? (p.warning ?? 'could not be read as OMC reads it') : p.problem;
    if (edge === 'leading') {
      this.waiting = problem;
      return false;
    }
    this.waiting = null;
    if (this.failed === problem) return false;
    this.failed = problem;
    return true;
  }

  /** Drops a pending leading-edge failure (a later read showed the bytes are fine). */
  protected settle(): void {
    this.waiting = null;
  }

  /** The file is gone: nothing to keep. Returns true when something was shown. */
  forget(): boolean {
    const had = this.current !== undefined || this.failed !== null || this.warned !== null;
    this.current = undefined;
    this.good = false;
    this.failed = null;
    this.warned = null;
    this.waiting = null;
    return had;
  }
}

export interface LastGoodFileOptions<T> {
  /** Passed to the safe read path (fsx.readTextSync). */
  maxBytes?: number;
  /** What the root is called in a refusal (fsx.readTextSync's option); default "the .omc root". */
  rootLabel?: string;
  /** NUL bytes are text the file's own reader takes as characters (fsx.readTextSync's `keepNul`). */
  keepNul?: boolean;
  /** The user's own file (omc-top's config): a symlink is followed wherever it points (fsx.readTextSync's `followLink`). */
  followLink?: boolean;
  /** `digest` identifies these bytes (null with `remember: 'nothing'`): a domain that needs a revision reuses it. */
  parse(read: ReadOk, digest: string | null): Parsed<T>;
  /** What a read that failed (other than "missing") means; by default a failure. */
  onReadFailure?(read: ReadFailure): Parsed<T>;
  /**
   * 'digest' (default): bytes identical to the last ones read change nothing.
   * 'nothing': every read is parsed (for files whose parse is cheap next to a digest, read only when their stat moved).
   */
  remember?: 'digest' | 'nothing';
}

/**
 * Identifies the bytes of a read: text, byte-order mark and invalid UTF-8 alike. The one-shot `hash` gives the
 * same digest as createHash().update().digest() without a Hash object per call: for the 9,000 small files of a
 * start at 2,000 sessions + 5,000 pages that object was most of the digest's cost (~30 ms before live).
 */
export const digestOf = (r: ReadOk): string =>
  hash('sha1', r.text, 'base64') + (r.bom ? 'b' : '') + (r.invalidUtf8 ? 'u' : '');

export class LastGoodFile<T> extends LastGood<T> {
  /** Identity of the bytes last read; null when the last read got none (so the next scan reads again). */
  stamp: FileStamp | null = null;
  /** The last read found no file. */
  missing = true;
  /** Why the last read got no bytes (other than "missing"), or null when it got them. */
  readFailure: ReadFailureCode | null = null;
  private digest: string | null = null;

  /**
   * The file is there but omc-top could not read it (permission denied, an I/O error: the failure's words, once
   * confirmed), else null. Unlike a file OMC cannot parse, what it holds is unknown: OMC, run as its owner, may
   * read it fine, so nothing judged from it (the value kept is the last good one) may be stated as its content.
   */
  get unreadable(): string | null {
    return this.readFailure !== null && notReadHere(this.readFailure) && this.pending === null ? this.failure : null;
  }

  constructor(
    readonly root: string,
    readonly rel: string,
    private readonly opts: LastGoodFileOptions<T>,
  ) {
    super();
  }

  /**
   * mtime of the bytes behind the value shown (the last good one), -1 when none. After a failed read the file's
   * own mtime is unknown here (`mtimeMs` is -1), but the value kept still has the age of the bytes it came from.
   */
  valueMtimeMs = -1;

  /** mtime of the bytes last read, -1 when none. */
  get mtimeMs(): number {
    return this.stamp?.mtimeMs ?? -1;
  }

  /** The safe read's options, made once (a start reads thousands of files through these objects). */
  private readOptionsMade: ReadOptions | undefined | null = null;
  private get readOptions(): ReadOptions | undefined {
    if (this.readOptionsMade === null) {
      const { rootLabel, keepNul, followLink } = this.opts;
      this.readOptionsMade =
        rootLabel || keepNul || followLink
          ? {
              ...(rootLabel ? { rootLabel } : {}),
              ...(keepNul ? { keepNul } : {}),
              ...(followLink ? { followLink } : {}),
            }
          : undefined;
    }
    return this.readOptionsMade;
  }

  /** Reads the file now. Returns true when what is shown changed. */
  read(edge: ReadEdge): boolean {
    const r = readTextSync(this.root, this.rel, this.opts.maxBytes, this.readOptions);
    this.readFailure = r.ok || r.code === 'missing' ? null : r.code;
    if (!r.ok && r.code === 'missing') {
      this.missing = true;
      this.stamp = null;
      this.digest = null;
      this.valueMtimeMs = -1;
      return this.forget();
    }
    this.missing = false;
    let stamp: FileStamp | null = null;
    let digest: string | null = null;
    let parsed: Parsed<T>;
    if (!r.ok) parsed = this.opts.onReadFailure?.(r) ?? { ok: false, problem: r.message };
    else {
      stamp = { mtimeMs: r.mtimeMs, size: r.bytes, ino: r.ino, ctimeMs: r.ctimeMs };
      digest = this.opts.remember === 'nothing' ? null : digestOf(r);
      if (digest !== null && digest === this.digest) {
        // The very bytes behind what is shown: whatever a leading read feared is over.
        this.stamp = stamp;
        // Unless these bytes are the ones that failed (the value shown then came from older ones).
        if (this.failure === null) this.valueMtimeMs = stamp.mtimeMs;
        this.settle();
        return false;
      }
      parsed = this.opts.parse(r, digest);
    }
    const changed = this.accept(parsed, edge);
    if (parsed.ok && stamp !== null && Object.is(this.value, parsed.value)) this.valueMtimeMs = stamp.mtimeMs;
    // Remember these bytes only once their outcome is what is shown, not while it waits for the trailing read.
    if (this.pending === null) {
      this.stamp = stamp;
      this.digest = digest;
    }
    return changed;
  }

  /** Reads only when the file's identity, size or mtime moved (scans and poll ticks), or a read is owed. */
  readIfChanged(edge: ReadEdge = 'scan'): boolean {
    const s = this.stamp;
    if (s && this.pending === null) {
      const st = statSync(this.root, this.rel);
      // The same change time too, when it was known: a file whose permissions changed is read again.
      if (st && st.isFile() && sameStamp(st, s)) return false;
    }
    return this.read(edge);
  }
}

/**
 * OMC's state and team files as its readers take them: JSON.parse of the raw
 * text, so a byte-order mark is a failure (OMC rejects it); invalid UTF-8 is a
 * warning on a usable value.
 */
export function parseOmcJson(bomMessage: string): (r: ReadOk) => Parsed<unknown> {
  return (r) => {
    const parsed = parseJsonText(r.text, r);
    if (!parsed.ok) return { ok: false, problem: parsed.message };
    if (r.bom) return { ok: false, problem: bomMessage };
    return {
      ok: true,
      value: parsed.value,
      warning: r.invalidUtf8 ? 'contains bytes that are not valid UTF-8 (shown as �)' : null,
    };
  };
}
