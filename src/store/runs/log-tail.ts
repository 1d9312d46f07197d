/**
 * Follows an append-only JSONL file: each poll reads only the bytes appended
 * since the last one (through fsx.readLogTailSync), hands back complete lines,
 * and keeps a cut-off last line for the next poll. A truncated or replaced
 * file (OMC's ledger rotation truncates it) starts over from the beginning.
 * The first read of a big file keeps only its last `maxBytes`.
 */
import { readLogTailSync } from '../fsx.js';

export interface TailLine {
  /** 1-based line number in the file, counted from the first byte read (see `skippedBytes`). */
  lineNo: number;
  text: string;
}

export type TailPoll =
  | { kind: 'lines'; lines: TailLine[]; reset: boolean; skippedBytes: number; invalidUtf8: boolean }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

export class LogTail {
  private offset = 0;
  private ino = -1;
  private partial = '';
  private lineNo = 0;

  constructor(
    private readonly root: string,
    readonly rel: string,
    private readonly maxBytes: number,
  ) {}

  poll(): TailPoll {
    const r = readLogTailSync(this.root, this.rel, this.offset, this.maxBytes);
    if (!r.ok) {
      this.restart();
      return r.code === 'missing' ? { kind: 'missing' } : { kind: 'error', message: r.message };
    }
    let reset = false;
    if (r.ino !== this.ino || r.size < this.offset) {
      // Replaced or truncated: what we held no longer describes the file.
      reset = this.ino !== -1;
      this.restart();
      this.ino = r.ino;
      if (r.start > 0) return this.take(readLogTailSync(this.root, this.rel, 0, this.maxBytes), reset);
    }
    return this.take(r, reset);
  }

  private take(r: ReturnType<typeof readLogTailSync>, reset: boolean): TailPoll {
    if (!r.ok) return { kind: 'error', message: r.message };
    this.ino = r.ino;
    const skippedBytes = r.start > this.offset ? r.start - this.offset : 0;
    let text = r.text;
    if (skippedBytes > 0) {
      // Started mid-file: the first (partial) line is not a record.
      this.partial = '';
      const nl = text.indexOf('\n');
      text = nl === -1 ? '' : text.slice(nl + 1);
    }
    this.offset = r.size;
    const chunks = (this.partial + text).split('\n');
    this.partial = chunks.pop() ?? '';
    const lines: TailLine[] = [];
    for (const c of chunks) {
      this.lineNo += 1;
      if (c.trim() !== '') lines.push({ lineNo: this.lineNo, text: c });
    }
    return { kind: 'lines', lines, reset, skippedBytes, invalidUtf8: r.invalidUtf8 };
  }

  private restart(): void {
    this.offset = 0;
    this.ino = -1;
    this.partial = '';
    this.lineNo = 0;
  }
}
