/**
 * Reads one transcript incrementally by byte offset: each refresh reads only
 * what was appended since the last complete line, so the cost grows with new
 * bytes, not with the file (transcripts reach many MB; one-prompt sessions are
 * already ~143 KB because of 40–60 KB request-shape lines). A replaced or
 * truncated file starts over. The first read of a huge file starts at its last
 * FULL_READ_MAX bytes and says so (`partialFrom`). A line over MAX_PARSED_LINE is not read either, and counted
 * (`longLines`): its usage is missing from every figure, which is said, never dropped in silence.
 */
import { formatBytes, readRangeSync } from '../../io/safe-fs/index.js';
import { FactsBuilder, type TranscriptFacts } from './transcript-facts.js';
import { transcriptPercent } from '../verdict/payload.js';

/** OMC's persistent-mode reads this much of a transcript's end for its context check. */
const TAIL_BYTES = 4096;

/** Bytes read per step; a step is synchronous, so this bounds one pause. */
export const STEP_BYTES = 1024 * 1024;
/** A first read of a bigger file starts this far from its end. */
export const FULL_READ_MAX = 64 * 1024 * 1024;
/**
 * Lines longer than this are skipped without parsing: no line Claude Code writes with a response's usage comes near
 * it, but one that does would hold the whole process's memory while it is read; each is counted (`longLines`).
 */
export const MAX_PARSED_LINE = 4 * 1024 * 1024;

/** "2 transcript lines over 4.0 MB not read: the figure may be low": said of a reader that skipped such lines. */
export const longLinesText = (n: number): string =>
  `${n} transcript line${n === 1 ? '' : 's'} over ${formatBytes(MAX_PARSED_LINE)} not read: the figure may be low`;
/**
 * Line types that are big (10–60 KB each) and carry nothing we show. Their type sits in the
 * first ~120 bytes (2.1.332), so a byte search there skips them without decoding or parsing.
 */
const SKIP_MARKERS = [
  '"type":"api-request',
  '"type":"prompt_snapshot"',
  '"type":"skill_listing"',
  '"type":"deferred_tools_delta"',
  '"type":"agent_listing_delta"',
  '"type":"file-history-snapshot"',
].map((m) => Buffer.from(m));
const HEAD_BYTES = 512;

/** A line (or a line's start) whose head names a type we skip. */
function skipped(line: Buffer): boolean {
  const head = line.subarray(0, HEAD_BYTES);
  for (const m of SKIP_MARKERS) if (head.indexOf(m) !== -1) return true;
  return false;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
/**
 * One read buffer for every transcript: each step is consumed (lines parsed, a partial line
 * copied out) before the next, so catching up on gigabytes allocates nothing per step.
 */
const scratch = Buffer.allocUnsafe(STEP_BYTES);

/** What folds a transcript's lines into facts (FactsBuilder for a session; subagents.ts for a subagent's file). */
export interface LineFolder<F> {
  readonly facts: F;
  add(line: Record<string, unknown>, raw: string): void;
  /** What its lines hold that could not be used (a usage count no response can hold), as a problem line. */
  readonly problem?: string | null;
}

export interface ReaderState<F = TranscriptFacts> {
  facts: F;
  /** Offset of the next unread byte (after the last complete line). */
  offset: number;
  size: number;
  /** The summary covers bytes from here on (0 = the whole file). */
  partialFrom: number;
  badLines: number;
  /** Lines over MAX_PARSED_LINE skipped (a type we skip anyway is not counted). */
  longLines: number;
  problem: string | null;
}

export class TranscriptReader<F = TranscriptFacts> {
  /**
   * Made when the file is first read (every first read starts a fresh one), or when the facts are asked for: a
   * start makes a reader per OMC session, most of them for a transcript that is not there, and a folder made up
   * front for each (facts, maps, a spend timeline) was thrown away unread.
   */
  private builder: LineFolder<F> | null = null;
  private ino = -1;
  private offset = 0;
  private size = 0;
  private partialFrom = 0;
  private badLines = 0;
  private longLineCount = 0;
  private problem: string | null = null;
  /** Bytes of a line whose end has not arrived in the bytes read so far. */
  private carry: Buffer | null = null;
  private skippingLongLine = false;
  /** A line end was seen since the read (re)started: without one, the bytes hold no line at all. */
  private sawLineEnd = false;
  /**
   * The file's last bytes read so far (the last `tailLength` of TAIL_BYTES, allocated once: a fresh buffer per
   * step was garbage outside the heap that, read by the gigabyte, kept the process's memory grown after reading
   * ended). OMC's Stop hook reads its context use off them; null for a reader that does not keep them. Allocated
   * with the first bytes kept: a start makes a reader per OMC session, most of them for a transcript that is not
   * there (a project without Claude data), and 2,000 buffers up front were 8 MB outside the heap before `live`.
   */
  private tail: Buffer | null = null;
  private readonly keepsTail: boolean;
  private tailLength = 0;
  /** Bumped whenever the facts change, so the domain can republish cheaply. */
  version = 0;

  constructor(
    private readonly configDir: string,
    readonly rel: string,
    private readonly newFolder: () => LineFolder<F> = () => new FactsBuilder() as unknown as LineFolder<F>,
    /** Keep the file's last TAIL_BYTES for `contextPercent` (a session's transcript; a subagent's file needs none). */
    keepTail = true,
    /** A first read (or a read after the file was replaced) starts this far from the file's end at the most. */
    private readonly firstReadMax = FULL_READ_MAX,
  ) {
    this.keepsTail = keepTail;
  }

  /** True while bytes remain beyond `offset` (a refresh step stopped early). */
  get behind(): boolean {
    return this.size > this.offset + (this.carry?.length ?? 0);
  }

  /**
   * The context use OMC's .mjs Stop hook reads off this transcript's last 4 KiB (0 when the tail names
   * no context_window, as Claude Code 2.1.332's lines never do); null before anything was read.
   */
  contextPercent(): number | null {
    return this.tail === null || this.tailLength === 0
      ? null
      : transcriptPercent(this.tail.toString('utf8', TAIL_BYTES - this.tailLength));
  }

  /** The pieces of `state()` the domain asks every reader on every publish, without building the state object. */
  get facts(): F {
    return (this.builder ??= this.newFolder()).facts;
  }
  /** The facts when a folder was made (a read, or `facts` asked for), else null: nothing folded, nothing allocated. */
  get factsIfAny(): F | null {
    return this.builder?.facts ?? null;
  }
  /** Offset of the next unread byte (state().offset without the state object). */
  get nextOffset(): number {
    return this.offset;
  }
  /** The byte the read started at (state().partialFrom): > 0 when the file's head before it is never read. */
  get unreadHead(): number {
    return this.partialFrom;
  }
  /** Lines over MAX_PARSED_LINE not read since the read (re)started: their usage is in no figure. */
  get longLines(): number {
    return this.longLineCount;
  }
  /** The read's problem (the file, its lines), the lines too long to read, and the folder's (what a line holds). */
  get problemText(): string | null {
    const folder = this.builder?.problem ?? null;
    const read = this.readProblem();
    if (folder === null) return read;
    if (read === null) return folder;
    // Joined once per change: the domain asks every reader at each publish and compares the strings.
    if (this.joined?.read !== read || this.joined.folder !== folder)
      this.joined = { read, folder, text: `${read}; ${folder}` };
    return this.joined.text;
  }
  private joined: { read: string; folder: string; text: string } | null = null;
  /** The read's own problem and the long lines, joined once per change (as problemText). */
  private readProblem(): string | null {
    if (this.longLineCount === 0) return this.problem;
    const long = longLinesText(this.longLineCount);
    if (this.problem === null) return long;
    if (this.joinedLong?.read !== this.problem || this.joinedLong.long !== long)
      this.joinedLong = { read: this.problem, long, text: `${this.problem}; ${long}` };
    return this.joinedLong.text;
  }
  private joinedLong: { read: string; long: string; text: string } | null = null;
  /** Nothing read yet: no file, or an empty one. */
  get nothingRead(): boolean {
    return this.size === 0 && this.offset === 0;
  }

  state(): ReaderState<F> {
    return {
      facts: this.facts,
      offset: this.offset,
      size: this.size,
      partialFrom: this.partialFrom,
      badLines: this.badLines,
      longLines: this.longLineCount,
      problem: this.problemText,
    };
  }

  /**
   * Reads at most `budget` new bytes (in STEP_BYTES steps). Returns true when
   * the facts changed. 'missing' means the file is not there (yet or any more).
   */
  refresh(budget = FULL_READ_MAX): boolean | 'missing' {
    let changed = false;
    let left = budget;
    while (left > 0) {
      const before = this.version;
      const r = this.step(Math.min(STEP_BYTES, left));
      if (r === 'missing') return 'missing';
      if (this.version !== before) changed = true;
      if (r === 0) break;
      left -= r;
    }
    return changed;
  }

  /** One read; returns the number of bytes consumed. */
  private step(max: number): number | 'missing' {
    let restart = false;
    const r = readRangeSync(
      this.configDir,
      this.rel,
      (size, ino) => {
        if (ino !== this.ino || size < this.offset + (this.carry?.length ?? 0)) {
          restart = true;
          return Math.max(0, size - this.firstReadMax);
        }
        return this.offset + (this.carry?.length ?? 0);
      },
      max,
      scratch,
    );
    if (!r.ok) {
      if (r.code === 'missing') return 'missing';
      if (this.problem !== r.message) {
        this.problem = r.message;
        this.version += 1;
      }
      return 0;
    }
    if (restart) {
      this.builder = this.newFolder();
      this.tailLength = 0;
      this.ino = r.ino;
      this.offset = r.from;
      this.partialFrom = r.from;
      this.carry = null;
      this.badLines = 0;
      this.longLineCount = 0;
      this.problem = null;
      this.sawLineEnd = false;
      // Started mid-file: the first piece is the end of a line we never saw whole.
      this.skippingLongLine = r.from > 0;
      this.version += 1;
    }
    this.size = r.size;
    if (r.bytes.length === 0) return 0;
    this.keepTail(r.bytes);
    this.consume(r.bytes);
    this.noLineProblem();
    return r.bytes.length;
  }

  /**
   * Read to its end with no line end anywhere in it and no line still being written (everything skipped as one
   * huge line: a sparse or binary file under a transcript's name): nothing in it can be counted, and that is
   * said, so its spend reads as unknown (store/cost/spend.ts spendUnknown), never as $0.
   */
  private noLineProblem(): void {
    if (this.size === 0 || this.sawLineEnd || this.carry !== null || this.offset < this.size || this.problem !== null)
      return;
    const read = this.size - this.partialFrom;
    const where = this.partialFrom > 0 ? `last ${formatBytes(read)} of ${formatBytes(this.size)}` : formatBytes(read);
    this.problem = `has no line end in its ${where}: not a transcript that can be read`;
    // No line at all: the bytes skipped as "one long line" are that, said once.
    this.longLineCount = 0;
    this.version += 1;
  }

  /** The tail buffer holds its bytes at its end: shift what stays left, copy the new bytes in after it. */
  private keepTail(bytes: Buffer): void {
    if (!this.keepsTail) return;
    const tail = (this.tail ??= Buffer.allocUnsafeSlow(TAIL_BYTES));
    const t = bytes.length >= TAIL_BYTES ? bytes.subarray(bytes.length - TAIL_BYTES) : bytes;
    const kept = Math.min(this.tailLength, TAIL_BYTES - t.length);
    tail.copyWithin(TAIL_BYTES - t.length - kept, TAIL_BYTES - kept, TAIL_BYTES);
    t.copy(tail, TAIL_BYTES - t.length);
    this.tailLength = kept + t.length;
  }

  private consume(bytes: Buffer): void {
    let from = 0;
    for (;;) {
      const nl = bytes.indexOf(0x0a, from);
      if (nl === -1) break;
      this.sawLineEnd = true;
      let line = bytes.subarray(from, nl);
      this.offset += nl - from + 1;
      from = nl + 1;
      if (this.carry) {
        this.offset += this.carry.length;
        line = Buffer.concat([this.carry, line]);
        this.carry = null;
      }
      if (this.skippingLongLine) {
        this.skippingLongLine = false;
        continue;
      }
      this.line(line);
    }
    const rest = bytes.subarray(from);
    if (rest.length === 0) return;
    if (this.skippingLongLine) {
      this.offset += rest.length;
      return;
    }
    const carried = (this.carry?.length ?? 0) + rest.length;
    // The start of a line we skip anyway (a request shape, 40–60 KB; most steps end inside one): skipped to its
    // end without buffering it, so catching up copies no partial line out of the read buffer.
    if (!this.carry && skipped(rest)) {
      this.offset += rest.length;
      this.skippingLongLine = true;
      return;
    }
    if (carried > MAX_PARSED_LINE) {
      // A huge line: drop what we have and skip to its end without buffering it. Counted unless its head (in the
      // carry: a line that starts in this step was looked at above) names a type we skip anyway.
      if (!this.carry || !skipped(this.carry)) {
        this.longLineCount += 1;
        this.version += 1;
      }
      this.offset += carried;
      this.carry = null;
      this.skippingLongLine = true;
      return;
    }
    this.carry = this.carry ? Buffer.concat([this.carry, rest]) : Buffer.from(rest);
  }

  private line(buf: Buffer): void {
    if (buf.length === 0 || skipped(buf)) return;
    if (buf.includes(0)) {
      this.bad('a line contains NUL bytes');
      return;
    }
    const text = decoder.decode(buf);
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      this.bad('a line is not valid JSON');
      return;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      this.bad('a line is not a JSON object');
      return;
    }
    (this.builder ??= this.newFolder()).add(v as Record<string, unknown>, text);
    this.version += 1;
  }

  private bad(message: string): void {
    this.badLines += 1;
    this.problem = this.badLines > 1 ? `${message} (${this.badLines} unusable lines)` : message;
    this.version += 1;
  }
}
