/**
 * events.jsonl grows without bound (OMC appends one JSON line per event with
 * O_APPEND and never rotates it), so it is followed incrementally by the one
 * log tail (runs/log-tail.ts over fsx.readLogTailSync: contained, non-blocking,
 * regular files only, a symlinked log refused): only appended bytes are read,
 * the newest EVENTS_KEPT events are kept. A replaced or truncated file starts
 * over from its tail. A line without its newline yet is left for the next
 * read, so a half-written append never shows as an error.
 */
import { LogTail } from '../../io/log-tail.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import { timeMs } from '../sessions/omc-rules.js';
import { str } from '../../io/json.js';
import { EVENTS_KEPT, type EventView } from './model.js';

/** On first sight (or after a rewrite) only this much of the end of the file is read. */
export const INITIAL_TAIL_BYTES = 64 * 1024;
/** At most this much is read per refresh; a bigger jump skips to the newest part. */
export const MAX_READ_BYTES = 1024 * 1024;
/** A "line" longer than this without a newline is not an event; it is skipped. */
export const MAX_LINE_BYTES = 64 * 1024;

/** One event line → what the pane shows. Unknown fields are ignored; every string is sanitised. */
export function eventView(v: Record<string, unknown>): EventView {
  const type = cleanLine(str(v.type) ?? '?');
  const detail = str(v.reason) ?? str(v.message) ?? str(v.next_action) ?? '';
  return {
    atMs: timeMs(v.created_at),
    type: truncate(type, 40),
    worker: str(v.worker) === null ? null : truncate(cleanLine(v.worker), 64),
    taskId: str(v.task_id) === null ? null : truncate(cleanLine(v.task_id), 24),
    text: truncate(cleanLine(detail), 300),
  };
}

export class EventsTail {
  private readonly log: LogTail;
  /** The next lines start a new reading of the file (first read, or after it went missing or failed). */
  private fresh = true;
  events: EventView[] = [];
  /** Events parsed since the tail started (the file may hold more before it). */
  seen = 0;
  /** Every line of the file was read (the first read began at its first byte, no later burst was passed over). */
  whole = true;
  /** Counts the readings of the file: each fresh start (first read, replaced, truncated, back after missing) bumps it. */
  reading = 0;
  /** Set when lines could not be used; cleared when the file is replaced. */
  problem: string | null = null;
  private badLines = 0;

  constructor(root: string, rel: string) {
    this.log = new LogTail(root, rel, MAX_READ_BYTES, { firstBytes: INITIAL_TAIL_BYTES, maxLineBytes: MAX_LINE_BYTES });
  }

  get rel(): string {
    return this.log.rel;
  }

  /** Reads what was appended since last time. Returns true when events or the problem changed. */
  refresh(): boolean {
    const r = this.log.poll();
    if (r.kind === 'missing') {
      const had = this.events.length > 0 || this.problem !== null;
      this.clear();
      this.fresh = true;
      return had;
    }
    if (r.kind === 'error') {
      // The last events read stay on screen with the reason; the next good read starts over.
      const changed = this.problem !== r.message;
      this.problem = r.message;
      this.fresh = true;
      return changed;
    }
    let changed = false;
    // A first reading starts at the file's tail by design; only a later burst skipping lines is news.
    const first = r.reset || this.fresh;
    if (first) {
      changed = r.reset || this.events.length > 0 || this.problem !== null;
      this.clear();
      this.fresh = false;
      this.reading += 1;
      this.whole = r.skippedBytes === 0;
    } else if (r.skippedBytes > 0) this.whole = false;
    if (r.longLines > 0) {
      this.noteBad(`a line longer than ${MAX_LINE_BYTES / 1024} KB without a newline was skipped`);
      changed = true;
    }
    for (const { text: line } of r.lines) {
      if (line.includes('\u0000')) {
        this.noteBad('a line contains NUL bytes (binary data); skipped');
        changed = true;
        continue;
      }
      const text = line.replace(/\r$/, '');
      if (text.trim() === '') continue;
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        this.noteBad(`a line is not valid JSON (${truncate(cleanLine(text), 40)})`);
        changed = true;
        continue;
      }
      if (!v || typeof v !== 'object' || Array.isArray(v) || typeof (v as Record<string, unknown>).type !== 'string') {
        this.noteBad('a line is not an OMC event (an object with a "type")');
        changed = true;
        continue;
      }
      this.events.push(eventView(v as Record<string, unknown>));
      this.seen += 1;
      changed = true;
    }
    if (this.events.length > EVENTS_KEPT) this.events = this.events.slice(-EVENTS_KEPT);
    if (r.skippedBytes > 0 && !first) {
      this.noteBad(`${Math.round(r.skippedBytes / 1024)} KB appended at once; older lines skipped to show the newest`);
      changed = true;
    }
    return changed;
  }

  private noteBad(message: string): void {
    this.badLines += 1;
    this.problem = this.badLines > 1 ? `${message} (${this.badLines} unusable lines so far)` : message;
  }

  private clear(): void {
    this.events = [];
    this.seen = 0;
    this.whole = true;
    this.problem = null;
    this.badLines = 0;
  }
}
