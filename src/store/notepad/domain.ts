/**
 * The notepad slice of .omc: reads `<root>/notepad.md` the way OMC's reader
 * does, keeps the last good reading when the file goes bad, and writes edits
 * under OMC's `notepad.md.lock` with an atomic replace.
 */
import { SnapshotCell } from '../../io/snapshot-cell.js';
import path from 'node:path';
import {
  atomicWriteSync,
  describeWriteError,
  ensureDirUnder,
  readTextSync,
  replaceRefusal,
  statSync,
  type ReadOk,
  type ReadResult,
} from '../../io/safe-fs/index.js';
import { lockInTheWay, withFileLock } from '../../io/file-lock.js';
import { shownPath } from '../../io/shown-path.js';
import { digestOf, LastGoodFile, type Parsed, type ReadEdge } from '../../io/last-good.js';
import type { Clock, Domain, Problem, WatchEvent } from '../types.js';
import { ScanMisses } from '../scan-misses.js';
import { applyOp, checkOp, type NotepadOp } from './edits.js';
import { NOTEPAD_REL, SECTION_TITLES, type SectionId } from './format.js';
import { EMPTY_NOTEPAD, isDue, parseNotepad, type NotepadSnapshot } from './model.js';

/** OMC reads any size; 4.x's orphan growth made 3.4 MB files real (large-tree fixture). */
export const NOTEPAD_MAX_BYTES = 16 * 1024 * 1024;
/** OMC's own notepad writers wait this long for the lock. */
export const NOTEPAD_LOCK_TIMEOUT_MS = 5_000;

export type SaveOutcome =
  | { kind: 'saved'; summary: string; merged: boolean; warning?: string }
  | { kind: 'unchanged'; summary: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'conflict'; reason: 'changed' | 'gone'; message: string; disk?: string }
  | { kind: 'refused'; message: string };

export interface NotepadDomainOptions {
  root: string;
  clock?: Clock;
  readonly?: boolean;
  /** For tests: lock timings. */
  lockTimeoutMs?: number;
}

/** What one good read of notepad.md shows (the snapshot less its version and status). */
type NotepadReading = Omit<NotepadSnapshot, 'version' | 'status'>;

/** OMC's reading of the text, plus what keeps omc-top from editing it (CRLF, invalid UTF-8, missing headers). */
function readingOf(r: ReadOk, digest: string | null): Parsed<NotepadReading> {
  const parsed = parseNotepad(r.text);
  const problems: Problem[] = [];
  let editBlock: string | null = null;
  if (parsed.crlf) {
    editBlock =
      "notepad.md has Windows (CRLF) line endings; OMC's reader sees no sections in it, so omc-top will not edit it. Convert it to LF (dos2unix) first";
    problems.push({
      path: NOTEPAD_REL,
      message:
        "has Windows (CRLF) line endings: OMC's reader finds no Priority/Working/MANUAL sections in it, so OMC sees an empty notepad (convert to LF)",
      severity: 'error',
    });
  } else if (parsed.missingHeaders.length > 0) {
    const names = parsed.missingHeaders.map((id: SectionId) => `"## ${SECTION_TITLES[id]}"`).join(', ');
    problems.push({
      path: NOTEPAD_REL,
      message: `has no ${names} header line: OMC treats ${parsed.missingHeaders.length === 1 ? 'that section' : 'those sections'} as empty and silently drops what it writes there`,
      severity: 'warning',
    });
  }
  if (r.invalidUtf8) {
    editBlock =
      'notepad.md contains bytes that are not valid UTF-8; saving would rewrite them, so omc-top will not edit it';
    problems.push({
      path: NOTEPAD_REL,
      message: 'contains bytes that are not valid UTF-8 (shown as �); editing is off so they are not rewritten',
      severity: 'warning',
    });
  }
  return {
    ok: true,
    value: {
      bytes: r.bytes,
      revision: digest ?? digestOf(r),
      sections: parsed.sections,
      orphans: parsed.orphans,
      editBlock,
      problems,
    },
  };
}

export class NotepadDomain implements Domain {
  readonly name = 'notepad';
  private readonly root: string;
  private readonly clock: Clock;
  private readonly readonly: boolean;
  private readonly lockTimeoutMs: number;
  private readonly cell = new SnapshotCell<NotepadSnapshot>(EMPTY_NOTEPAD);
  private readonly file: LastGoodFile<NotepadReading>;
  /**
   * Why the contained write path would refuse notepad.md for what it is (a symlink: it never writes through one),
   * looked at with each read: the editor is then refused before anything is typed, in the save's own words.
   */
  private targetRefusal: string | null = null;
  /**
   * Whether the root has been there since this domain began: one that never was is made for the first note, as OMC's
   * writer does (makeRootIfNone); one that went (a `rm -rf .omc`, a branch switch) is not made again under it.
   */
  private rootSeen: boolean;
  /** Why OMC's lock can never be taken (a directory at notepad.md.lock), looked at with each read as the link is. */
  private lockBlock: string | null = null;

  constructor(opts: NotepadDomainOptions) {
    this.root = opts.root;
    this.rootSeen = statSync(opts.root, '') !== null;
    this.clock = opts.clock ?? Date.now;
    this.readonly = opts.readonly ?? false;
    this.lockTimeoutMs = opts.lockTimeoutMs ?? NOTEPAD_LOCK_TIMEOUT_MS;
    this.file = new LastGoodFile(this.root, NOTEPAD_REL, { maxBytes: NOTEPAD_MAX_BYTES, parse: readingOf });
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();

  wants(rel: string, isDir: boolean | undefined): boolean {
    return rel === NOTEPAD_REL && isDir !== true;
  }

  /** What a scan no longer finds: dropped now, or held for the watcher's removal hold or the next poll. */
  readonly misses = new ScanMisses();

  /** Full read, skipped when the file is provably the one already parsed (poll ticks on a 3 MB file stay cheap). */
  scan(): void {
    if (!this.rootSeen) this.rootSeen = statSync(this.root, '') !== null;
    // notepad.md shown and not there now, the root there: the miss waits as every list's does (scan-misses.ts), a
    // save by rename would empty the notepad a moment (and move a selection in it). With the root it goes at once.
    const missed =
      !this.file.missing && statSync(this.root, NOTEPAD_REL) === null && statSync(this.root, '') !== null
        ? [NOTEPAD_REL]
        : [];
    if (this.misses.gone(missed).length < missed.length) {
      if (this.lookAtTarget()) this.publish();
      return;
    }
    const read = this.file.readIfChanged();
    if (this.lookAtTarget() || read) this.publish();
  }

  /**
   * Why no edit may start now (the snapshot's editBlock), notepad.md looked at again first: a link swapped in since
   * the last read is refused when the key is pressed, not at Ctrl-S.
   */
  editRefusal(): string | null {
    if (this.lookAtTarget()) this.publish();
    return this.cell.getSnapshot().editBlock;
  }

  /** True when what the write path would refuse at notepad.md changed (a file swapped for a link to the same bytes). */
  private lookAtTarget(): boolean {
    const refusal = replaceRefusal(this.root, NOTEPAD_REL);
    const lock = lockInTheWay(this.root, NOTEPAD_REL);
    if (refusal === this.targetRefusal && lock === this.lockBlock) return false;
    this.targetRefusal = refusal;
    this.lockBlock = lock;
    return true;
  }

  refresh(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    if (events.some((e) => e.rel === NOTEPAD_REL || e.type === 'unlinkDir')) this.read(edge);
  }

  problems(): readonly Problem[] {
    return this.cell.getSnapshot().problems;
  }

  report(): Record<string, unknown> {
    const s = this.cell.getSnapshot();
    const now = this.clock();
    return {
      notepad: {
        path: NOTEPAD_REL,
        status: s.status,
        bytes: s.bytes,
        priority_chars: s.sections.priority.chars,
        working_entries: s.sections.working.entries.filter((e) => e.stamp !== null).length,
        working_due_for_pruning: s.sections.working.entries.filter((e) => isDue(e, now)).length,
        manual_entries: s.sections.manual.entries.filter((e) => e.stamp !== null).length,
        orphan_blocks: s.orphans.count,
        editable: s.editBlock === null,
      },
    };
  }

  private readFile(): ReadResult {
    return readTextSync(this.root, NOTEPAD_REL, NOTEPAD_MAX_BYTES);
  }

  private read(edge: ReadEdge): void {
    const read = this.file.read(edge);
    if (this.lookAtTarget() || read) this.publish();
  }

  /** The snapshot for what the file holds now: its last good reading, and why it cannot be read when it cannot. */
  private publish(): void {
    const version = this.cell.getSnapshot().version + 1;
    const { value, failure } = this.file;
    if (failure === null) {
      const next: NotepadSnapshot = value ? { version, status: 'ok', ...value } : { ...EMPTY_NOTEPAD, version };
      // Read through the link as OMC reads it, but not written through it: every write key says so when pressed.
      const refused =
        (this.targetRefusal &&
          `notepad.md cannot be edited: ${this.targetRefusal} (omc-top writes no file through a link)`) ||
        (this.lockBlock && `${NOTEPAD_REL}.lock ${this.lockBlock}`);
      const problems = this.lockBlock
        ? [...next.problems, { path: `${NOTEPAD_REL}.lock`, message: this.lockBlock, severity: 'error' as const }]
        : next.problems;
      this.cell.set(refused ? { ...next, editBlock: refused, problems } : next);
      return;
    }
    const { version: _v, status: _s, ...empty } = EMPTY_NOTEPAD;
    this.cell.set({
      ...(value ?? empty),
      version,
      status: value ? 'ok' : 'unreadable',
      editBlock: `notepad.md cannot be read right now (${failure}); nothing will be written`,
      problems: [
        {
          path: NOTEPAD_REL,
          message: `${failure}${value ? ' (showing the last good reading)' : ''}`,
          severity: 'error',
        },
      ],
    });
  }

  /**
   * A note added before OMC made any `.omc`: OMC's own notepad writer (5.5.0's initNotepad) makes the root first
   * (a `mkdir -p`), so the entry lands where OMC's hooks will read it. The same here, the one directory made
   * in its parent through the contained write path; a root that cannot be made is said, nothing written.
   */
  private makeRootIfNone(): SaveOutcome | null {
    if (statSync(this.root, '') !== null) {
      this.rootSeen = true;
      return null;
    }
    if (this.rootSeen) return null; // gone under the monitor: the write says so (no such directory), nothing made
    try {
      ensureDirUnder(path.dirname(this.root), path.basename(this.root), 'shared'); // OMC's: 0777 less the umask
      return null;
    } catch (e) {
      return {
        kind: 'refused',
        message: `${shownPath(this.root)} could not be made: ${describeWriteError(e)}; nothing was written`,
      };
    }
  }

  /**
   * Applies one edit: validate (before anything is written), take OMC's lock,
   * re-read, apply on top of what is there now (merge) or refuse, write
   * atomically, release. `baseRevision` is the snapshot revision the user
   * started editing from; it only decides whether the result says "merged".
   */
  async save(op: NotepadOp, baseRevision: string | null): Promise<SaveOutcome> {
    if (this.readonly) return { kind: 'refused', message: '--readonly: the notepad is not written' };
    const checked = checkOp(op);
    if (!checked.verdict.ok) return { kind: 'invalid', message: checked.verdict.error ?? 'refused' };
    const noRoot = this.makeRootIfNone();
    if (noRoot) return noRoot;
    const outcome = await withFileLock<SaveOutcome>(
      this.root,
      NOTEPAD_REL,
      () => {
        const r = this.readFile();
        let current: string | null = null;
        let bom = false;
        let revision: string | null = null;
        if (r.ok) {
          if (r.invalidUtf8)
            return {
              kind: 'refused',
              message:
                'notepad.md contains bytes that are not valid UTF-8; saving would rewrite them. Nothing was written',
            };
          current = r.text;
          bom = r.bom;
          revision = digestOf(r);
        } else if (r.code !== 'missing') {
          return { kind: 'refused', message: `notepad.md cannot be read (${r.message}); nothing was written` };
        }
        const res = applyOp(current, checked.op, this.clock());
        if (!res.ok) {
          return res.kind === 'conflict'
            ? {
                kind: 'conflict',
                reason: res.reason === 'changed' ? 'changed' : 'gone',
                message: res.message,
                ...(res.disk !== undefined ? { disk: res.disk } : {}),
              }
            : { kind: 'refused', message: res.message };
        }
        if (res.text === current) return { kind: 'unchanged', summary: res.summary };
        try {
          atomicWriteSync(this.root, NOTEPAD_REL, (bom ? '\ufeff' : '') + res.text);
        } catch (e) {
          return { kind: 'refused', message: `notepad.md was not written: ${describeWriteError(e)}` };
        }
        const merged = revision !== null && baseRevision !== null && revision !== baseRevision;
        return { kind: 'saved', summary: res.summary, merged, ...(res.warning ? { warning: res.warning } : {}) };
      },
      { timeoutMs: this.lockTimeoutMs },
    );
    // Show the result (or the change that caused a conflict) now instead of waiting for the watcher.
    if (outcome.kind === 'saved' || outcome.kind === 'conflict') this.read('scan');
    return outcome;
  }
}
