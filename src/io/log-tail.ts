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
 */
import { readLogTailSync } from './safe-fs/index.js';

export interface TailLine {
  /** 1-based line number in the file, counted from the first byte read (see `skippedBytes`). */
  lineNo: number;
  text: string;
}

export type TailPoll =
  | {
      kind: 'lines';
      lines: TailLine[];
      /** The file was replaced or truncated: what came before is gone. */
      reset: boolean;
      skippedBytes: number;
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
}

export class LogTail {
  private offset = 0;
  private ino = -1;
  private partial = '';
  private lineNo = 0;
  /** The text read next starts inside a line that is not a record (a skipped start, a dropped long line). */
  private midLine = false;
  private readonly firstBytes: number;
  private readonly maxLineBytes: number;

  constructor(
    private readonly root: string,
    readonly rel: string,
    private readonly maxBytes: number,
    opts: LogTailOptions = {},
  ) {
    this.firstBytes = opts.firstBytes ?? maxBytes;
    this.maxLineBytes = opts.maxLineBytes ?? Infinity;
  }

  poll(): TailPoll {
    const fresh = this.ino === -1;
    const r = readLogTailSync(this.root, this.rel, this.offset, fresh ? this.firstBytes : this.maxBytes);
    if (!r.ok) {
      this.restart();
      return r.code === 'missing' ? { kind: 'missing' } : { kind: 'error', message: r.message };
    }
    if (!fresh && (r.ino !== this.ino || r.size < this.offset)) {
      // Replaced or truncated: what we held no longer describes the file; read the new one as a first read.
      this.restart();
      this.ino = r.ino;
      return this.take(r.start === 0 ? r : readLogTailSync(this.root, this.rel, 0, this.firstBytes), true);
    }
    return this.take(r, false);
  }

  private take(r: ReturnType<typeof readLogTailSync>, reset: boolean): TailPoll {
    if (!r.ok) return { kind: 'error', message: r.message };
    this.ino = r.ino;
    const skippedBytes = r.start > this.offset ? r.start - this.offset : 0;
    let text = r.text;
    if (skippedBytes > 0) {
      // Started mid-file: the first (partial) line is not a record.
      this.partial = '';
      this.midLine = true;
    }
    if (this.midLine) {
      const nl = text.indexOf('\n');
      this.midLine = nl === -1;
      text = nl === -1 ? '' : text.slice(nl + 1);
    }
    this.offset = r.size;
    const chunks = (this.partial + text).split('\n');
    this.partial = chunks.pop() ?? '';
    let longLines = 0;
    if (this.partial.length > this.maxLineBytes) {
      this.partial = '';
      this.midLine = true;
      longLines = 1;
    }
    const lines: TailLine[] = [];
    for (const c of chunks) {
      this.lineNo += 1;
      if (c.trim() !== '') lines.push({ lineNo: this.lineNo, text: c });
    }
    return { kind: 'lines', lines, reset, skippedBytes, invalidUtf8: r.invalidUtf8, longLines };
  }

  private restart(): void {
    this.offset = 0;
    this.ino = -1;
    this.partial = '';
    this.lineNo = 0;
    this.midLine = false;
  }
}
