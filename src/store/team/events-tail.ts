/**
 * events.jsonl grows without bound (OMC appends one JSON line per event with
 * O_APPEND and never rotates it), so it is read incrementally: remember the
 * byte offset after the last complete line, read only what was appended, keep
 * the newest EVENTS_KEPT events. A replaced or truncated file (new inode,
 * smaller size) starts over from its tail. A line without its newline yet is
 * left for the next read, so a half-written append never shows as an error.
 */
import fs from 'node:fs';
import { isInside, resolveUnder } from '../fsx.js';
import { cleanLine, truncate } from '../sanitize.js';
import { str, timeMs } from '../sessions/omc-rules.js';
import { EVENTS_KEPT, type EventView } from './model.js';

/** On first sight (or after a rewrite) only this much of the end of the file is read. */
export const INITIAL_TAIL_BYTES = 64 * 1024;
/** At most this much is read per refresh; a bigger jump skips to the tail. */
export const MAX_READ_BYTES = 1024 * 1024;
/** A "line" longer than this without a newline is not an event; it is skipped. */
export const MAX_LINE_BYTES = 64 * 1024;

type RangeRead =
  { ok: true; size: number; ino: number; bytes: Buffer } | { ok: false; missing: boolean; message: string };

/**
 * Reads bytes [start, start+max) of a file under root with the guarantees of
 * fsx.readTextSync (lexical and symlink containment, regular file only),
 * which has no ranged read.
 */
function readRange(root: string, rel: string, start: (size: number, ino: number) => number, max: number): RangeRead {
  let abs: string;
  try {
    abs = resolveUnder(root, rel);
  } catch (e) {
    return { ok: false, missing: false, message: (e as Error).message };
  }
  let fd: number;
  try {
    const real = fs.realpathSync.native(abs);
    let realRoot: string;
    try {
      realRoot = fs.realpathSync.native(root);
    } catch {
      realRoot = root;
    }
    if (!isInside(realRoot, real))
      return {
        ok: false,
        missing: false,
        message: `symlink points outside the .omc root (to ${cleanLine(real)}); not read`,
      };
    fd = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      ok: false,
      missing: code === 'ENOENT',
      message: code === 'EACCES' || code === 'EPERM' ? 'permission denied' : `read failed (${code ?? e})`,
    };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile())
      return {
        ok: false,
        missing: false,
        message: st.isDirectory() ? 'is a directory where a file was expected' : 'is not a regular file',
      };
    const from = Math.max(0, Math.min(st.size, start(st.size, st.ino)));
    const len = Math.max(0, Math.min(max, st.size - from));
    const buf = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = fs.readSync(fd, buf, got, len - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return { ok: true, size: from + got, ino: st.ino, bytes: buf.subarray(0, got) };
  } catch (e) {
    return { ok: false, missing: false, message: `read failed (${(e as NodeJS.ErrnoException).code ?? e})` };
  } finally {
    fs.closeSync(fd);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false });

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
  /** Byte offset just after the last complete line consumed. */
  private offset = 0;
  private ino = -1;
  events: EventView[] = [];
  /** Events parsed since the tail started (the file may hold more before it). */
  seen = 0;
  /** Set when lines could not be used; cleared when the file is replaced. */
  problem: string | null = null;
  private badLines = 0;

  constructor(
    private readonly root: string,
    readonly rel: string,
  ) {}

  /** Reads what was appended since last time. Returns true when events or the problem changed. */
  refresh(): boolean {
    let reset = false;
    let skipped = 0;
    const r = readRange(
      this.root,
      this.rel,
      (size, ino) => {
        if (ino !== this.ino || size < this.offset) {
          reset = true;
          return Math.max(0, size - INITIAL_TAIL_BYTES);
        }
        if (size - this.offset > MAX_READ_BYTES) {
          // A burst bigger than we want to parse: jump to the tail, say so.
          skipped = size - INITIAL_TAIL_BYTES - this.offset;
          return size - INITIAL_TAIL_BYTES;
        }
        return this.offset;
      },
      MAX_READ_BYTES,
    );
    if (!r.ok) {
      if (r.missing) {
        const had = this.events.length > 0 || this.problem !== null || this.ino !== -1;
        this.clear();
        return had;
      }
      const changed = this.problem !== r.message;
      this.problem = r.message;
      return changed;
    }
    const start = r.size - r.bytes.length;
    if (reset) {
      this.clear();
      this.ino = r.ino;
    }
    let buf = r.bytes;
    let consumedBase = start;
    // Started mid-file: the first piece is the end of a line we did not see whole.
    if ((reset || skipped > 0) && start > 0) {
      const nl = buf.indexOf(0x0a);
      if (nl === -1) {
        this.offset = start;
        return reset;
      }
      buf = buf.subarray(nl + 1);
      consumedBase = start + nl + 1;
    }
    const lastNl = buf.lastIndexOf(0x0a);
    let changed = reset || skipped > 0;
    if (lastNl === -1) {
      // No complete line yet. A runaway line with no newline is skipped, not buffered forever.
      if (buf.length > MAX_LINE_BYTES) {
        this.offset = consumedBase + buf.length;
        this.noteBad(`a line longer than ${MAX_LINE_BYTES / 1024} KB without a newline was skipped`);
        return true;
      }
      this.offset = consumedBase;
      return changed;
    }
    const complete = buf.subarray(0, lastNl);
    this.offset = consumedBase + lastNl + 1;
    for (const raw of splitLines(complete)) {
      if (raw.length === 0) continue;
      if (raw.includes(0)) {
        this.noteBad('a line contains NUL bytes (binary data); skipped');
        changed = true;
        continue;
      }
      const text = decoder.decode(raw).replace(/\r$/, '');
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
    if (skipped > 0)
      this.noteBad(`${Math.round(skipped / 1024)} KB appended at once; older lines skipped to show the newest`);
    return changed;
  }

  private noteBad(message: string): void {
    this.badLines += 1;
    this.problem = this.badLines > 1 ? `${message} (${this.badLines} unusable lines so far)` : message;
  }

  private clear(): void {
    this.offset = 0;
    this.ino = -1;
    this.events = [];
    this.seen = 0;
    this.problem = null;
    this.badLines = 0;
  }
}

function* splitLines(buf: Buffer): Generator<Buffer> {
  let from = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, from);
    if (nl === -1) {
      yield buf.subarray(from);
      return;
    }
    yield buf.subarray(from, nl);
    from = nl + 1;
  }
}
