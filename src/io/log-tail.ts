/**
 * Follows an append-only JSONL file: each poll reads only the bytes appended
 * since the last one (through fsx.readLogTailSync), hands back complete lines,
 * and keeps a cut-off last line for the next poll. A truncated or replaced
 * file (OMC's ledger rotation truncates it) starts over. The first read of a
 * file (and the first after it was replaced) keeps only its last `firstBytes`;
 * a later poll reads at most `maxBytes` (when more was appended, the older part
 * is skipped and `skippedBytes` says how much). A line still without its
 * newline after `maxLineBytes` is dropped, the rest of it too, and counted in
 * `longLines`, so a runaway writer cannot make the tail buffer without bound.
 * Line numbers are the file's own (what `grep -n` gives): with `countSkippedUpTo`,
 * the newlines of a passed-over part are counted (a byte scan, nothing parsed),
 * the lines in it are reported as unread, and a line whose start was passed over
 * is reported with its length rather than handed over cut.
 */
import { readLogTailSync, type LogTailResult } from './safe-fs/index.js';

export interface TailLine {
  /** The file's 1-based line number; null when a passed-over part before it could not be counted. */
  lineNo: number | null;
  text: string;
}

/** A line not handed over whole: its start was passed over, or it grew past `maxLineBytes`. */
export interface PartLine {
  /** The file's line number; null when a passed-over part before it could not be counted. */
  lineNo: number | null;
  why: 'start-not-read' | 'too-long';
  /** Its length in bytes as far as known (null: not known); `whole` says whether that is all of it. */
  bytes: number | null;
  whole: boolean;
}

export type TailPoll =
  | {
      kind: 'lines';
      lines: TailLine[];
      /** The file was replaced or truncated: what came before is gone. */
      reset: boolean;
      skippedBytes: number;
      /** The whole lines inside the passed-over part (file line numbers), when they were counted. */
      unreadLines: { from: number; to: number } | null;
      partLines: PartLine[];
      invalidUtf8: boolean;
      /** Lines dropped for being longer than `maxLineBytes`. */
      longLines: number;
    }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

export interface LogTailOptions {
  /** How much of a file's end the first read takes (default: maxBytes). */
  firstBytes?: number;
  /** Longest line kept while waiting for its newline (default: no limit beyond what polls read). */
  maxLineBytes?: number;
  /**
   * Count the newlines of a passed-over part of up to this many bytes, so line numbers stay the file's own
   * (default 0: not counted; line numbers after a passed-over part are then null).
   */
  countSkippedUpTo?: number;
}

type ReadOk = Extract<LogTailResult, { ok: true }>;

export class LogTail {
  private offset = 0;
  private ino = -1;
  private partial = '';
  /** Lines completed so far (newlines passed); the file's own count while `numbered`. */
  private lineNo = 0;
  private numbered = true;
  /** Where the line not yet complete began (a byte offset), for the length of a line cut or dropped. */
  private lineStart = 0;
  /** The text read next starts inside a line that is not a record (a skipped start, a dropped long line). */
  private midLine = false;
  private readonly firstBytes: number;
  private readonly maxLineBytes: number;
  private readonly countSkippedUpTo: number;

  constructor(
    private readonly root: string,
    readonly rel: string,
    private readonly maxBytes: number,
    opts: LogTailOptions = {},
  ) {
    this.firstBytes = opts.firstBytes ?? maxBytes;
    this.maxLineBytes = opts.maxLineBytes ?? Infinity;
    this.countSkippedUpTo = opts.countSkippedUpTo ?? 0;
  }

  poll(): TailPoll {
    const fresh = this.ino === -1;
    const r = this.read(this.offset, fresh ? this.firstBytes : this.maxBytes);
    if (!r.ok) {
      this.restart();
      return r.code === 'missing' ? { kind: 'missing' } : { kind: 'error', message: r.message };
    }
    if (!fresh && (r.ino !== this.ino || r.size < this.offset)) {
      // Replaced or truncated: what we held no longer describes the file; read the new one as a first read.
      this.restart();
      this.ino = r.ino;
      return this.take(r.start === 0 ? r : this.read(0, this.firstBytes), true);
    }
    return this.take(r, false);
  }

  private read(from: number, maxBytes: number): LogTailResult {
    return readLogTailSync(this.root, this.rel, from, maxBytes, this.countSkippedUpTo);
  }

  private take(r: LogTailResult, reset: boolean): TailPoll {
    if (!r.ok) return { kind: 'error', message: r.message };
    this.ino = r.ino;
    const skippedBytes = r.start > this.offset ? r.start - this.offset : 0;
    let unreadLines: { from: number; to: number } | null = null;
    const partLines: PartLine[] = [];
    let text = r.text;
    if (skippedBytes > 0) {
      const cut = this.passOver(r);
      unreadLines = cut.unread;
      if (cut.part) partLines.push(cut.part);
    }
    if (this.midLine) {
      const nl = text.indexOf('\n');
      // The line being passed over ends here: it still takes its line number.
      if (nl !== -1) this.lineNo += 1;
      this.midLine = nl === -1;
      text = nl === -1 ? '' : text.slice(nl + 1);
    }
    this.offset = r.size;
    const chunks = (this.partial + text).split('\n');
    this.partial = chunks.pop() ?? '';
    const lines: TailLine[] = [];
    for (const c of chunks) {
      this.lineNo += 1;
      if (c.trim() !== '') lines.push({ lineNo: this.numbered ? this.lineNo : null, text: c });
    }
    if (!this.midLine) this.lineStart = r.size - Buffer.byteLength(this.partial);
    let longLines = 0;
    if (this.partial.length > this.maxLineBytes) {
      partLines.push({
        lineNo: this.numbered ? this.lineNo + 1 : null,
        why: 'too-long',
        bytes: r.size - this.lineStart,
        whole: false,
      });
      this.partial = '';
      this.midLine = true;
      longLines = 1;
    }
    return {
      kind: 'lines',
      lines,
      reset,
      skippedBytes,
      unreadLines,
      partLines,
      invalidUtf8: r.invalidUtf8,
      longLines,
    };
  }

  /**
   * Bytes [offset, r.start) were not read: what lines they held (when counted) and whether the read starts
   * inside a line (that line is then not a record: reported, and passed over up to its newline).
   */
  private passOver(r: ReadOk): { unread: { from: number; to: number } | null; part: PartLine | null } {
    const counted = this.numbered ? r.skipped : null;
    // The line in progress at `offset` (lineNo + 1) was already reported if it was being passed over.
    const passing = this.midLine;
    this.partial = '';
    if (!counted) {
      // Where lines begin is not known now: numbers from here on would be guesses.
      this.numbered = false;
      this.midLine = true;
      return { unread: null, part: { lineNo: null, why: 'start-not-read', bytes: null, whole: false } };
    }
    const from = this.lineNo + (passing ? 2 : 1);
    const to = this.lineNo + counted.newlines;
    const unread = to >= from ? { from, to } : null;
    this.lineNo = to;
    if (counted.newlines > 0 && counted.lastAt === r.start - 1) {
      this.midLine = false; // the read starts on a line's first byte: nothing is cut
      return { unread, part: null };
    }
    if (counted.newlines === 0 && passing) return { unread, part: null }; // still inside that line
    this.lineStart = counted.newlines > 0 ? counted.lastAt + 1 : this.lineStart;
    this.midLine = true;
    const end = r.firstNewlineAt ?? r.start - 1;
    const whole = end >= r.start;
    return {
      unread,
      part: {
        lineNo: this.lineNo + 1,
        why: 'start-not-read',
        bytes: (whole ? end : r.size) - this.lineStart,
        whole,
      },
    };
  }

  private restart(): void {
    this.offset = 0;
    this.ino = -1;
    this.partial = '';
    this.lineNo = 0;
    this.numbered = true;
    this.lineStart = 0;
    this.midLine = false;
  }
}
