/**
 * OMC 5.6's run ledger, `state/runs/ledger.jsonl` (upstream src/lib/runs-ledger.ts
 * @ 839b3a5e): one JSON line per lifecycle edge of the four watched unattended
 * modes, `{ts, run, sessionId?, event: start|end, outcome?, closeoutWritten?}`.
 * At 1,000 lines OMC appends the whole file to `ledger.jsonl.1` and truncates
 * it, so `.1` only grows: it is read from its last 512 KB. Both files are
 * followed incrementally; a hostile line is counted and named, never fatal.
 * Lines are cited by the file's own numbers (what `grep -n` gives): the part
 * before what is read is counted, not parsed, and its lines are said unread.
 * Text from a line is shown by every character (shownExactly): an escape
 * sequence in a mode name shows as `␛…`, it is not dropped with its text.
 */
import { shownExactly } from '../../io/shown-exactly.js';
import { truncate } from '../../io/sanitize.js';
import { formatBytes } from '../../io/safe-fs/index.js';
import type { Problem } from '../types.js';
import { LogTail, type PartLine, type TailPoll } from '../../io/log-tail.js';

export const LEDGER_REL = 'state/runs/ledger.jsonl';
export const LEDGER_ROTATED_REL = 'state/runs/ledger.jsonl.1';
export const WATCHED_RUN_MODES = ['ralph', 'autopilot', 'team', 'ultragoal'] as const;

export type LedgerOutcome = 'running' | 'completed' | 'failed' | 'cancelled';
/** What an `end` line's outcome can be, as OMC writes it (`failed` is in its type, reserved). */
export const END_OUTCOMES: readonly string[] = ['completed', 'cancelled', 'failed'];

export interface LedgerEntry {
  tsMs: number;
  run: string;
  sessionId: string | null;
  event: 'start' | 'end';
  outcome: LedgerOutcome | null;
  /** The line's `outcome` as written, shown by every character (null: the line has none). */
  outcomeWritten: string | null;
  closeoutWritten: boolean | null;
  /** `source` key: "omc-top" when omc-top's cancel wrote the end line. */
  source: string | null;
  /** Which file and line, for the detail view. */
  where: string;
}

const OUTCOMES = new Set(['running', 'completed', 'failed', 'cancelled']);
/** Entries kept per file; OMC's own reconciler reads only the last 200. */
const MAX_ENTRIES = 4_000;
const MAX_LINE_CHARS = 4_096;
/**
 * A passed-over part up to this size is counted (newlines only), so line numbers stay the file's own. Bounded
 * because `.1` only grows and its count is a read of all but its last 512 KB at every start: 8 MB (~50,000 runs)
 * is a few ms; past it, lines are cited by file alone rather than by a number that could be wrong.
 */
const COUNT_SKIPPED_UP_TO = 8 * 1024 * 1024;

/** Text from a line, for every surface: every character visible, none able to act on the terminal. */
const shown = (v: string, max: number) => truncate(shownExactly(v), max);

/** The value of a key as written: a string by its characters, anything else as its JSON. */
function written(v: unknown, max: number): string | null {
  if (v === undefined) return null;
  return shown(typeof v === 'string' ? v : String(JSON.stringify(v)), max);
}

/** `state/runs/ledger.jsonl:31`, or the file alone when lines before it were not counted. */
export function lineRef(rel: string, lineNo: number | null): string {
  return lineNo === null ? `${rel} (line number not known)` : `${rel}:${lineNo}`;
}

const lineWord = (lineNo: number | null) => (lineNo === null ? 'a line' : `line ${lineNo}`);

/** One line → an entry, or why it is not one. */
export function parseLedgerLine(text: string, where: string): LedgerEntry | string {
  if (text.length > MAX_LINE_CHARS) return `line is ${text.length} characters long (not a ledger record)`;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  if (typeof o.run !== 'string' || o.run.trim() === '') return 'no "run"';
  if (o.event !== 'start' && o.event !== 'end')
    return `"event" is ${o.event === undefined ? 'missing' : JSON.stringify(written(o.event, 20))}, not start/end`;
  const tsMs = typeof o.ts === 'string' ? Date.parse(o.ts) : Number.NaN;
  if (!Number.isFinite(tsMs)) return 'no valid "ts"';
  return {
    tsMs,
    run: shown(o.run, 64),
    sessionId: typeof o.sessionId === 'string' && o.sessionId !== '' ? shown(o.sessionId, 128) : null,
    event: o.event,
    outcome: typeof o.outcome === 'string' && OUTCOMES.has(o.outcome) ? (o.outcome as LedgerOutcome) : null,
    outcomeWritten: written(o.outcome, 40),
    closeoutWritten: typeof o.closeoutWritten === 'boolean' ? o.closeoutWritten : null,
    source: typeof o.source === 'string' ? shown(o.source, 32) : null,
    where,
  };
}

/** How many skipped or odd lines a problem line names; the rest are counted. */
const NAMED = 3;

class LedgerFile {
  readonly tail: LogTail;
  entries: LedgerEntry[] = [];
  bad = 0;
  badExamples: string[] = [];
  /** End lines whose outcome is not one OMC writes (History: `unknown`). */
  oddOutcomes = 0;
  oddExamples: string[] = [];
  /** Whole lines passed over unread (file line numbers), in file order. */
  unread: { from: number; to: number }[] = [];
  /** Bytes passed over whose lines could not be counted. */
  uncountedBytes = 0;
  failure: string | null = null;
  skippedBytes = 0;

  constructor(
    root: string,
    readonly rel: string,
    private readonly maxBytes: number,
  ) {
    this.tail = new LogTail(root, rel, maxBytes, { countSkippedUpTo: COUNT_SKIPPED_UP_TO });
  }

  /** True when anything changed. */
  poll(): boolean {
    const p: TailPoll = this.tail.poll();
    if (p.kind === 'missing') {
      const had = this.entries.length > 0 || this.bad > 0 || this.failure !== null || this.unread.length > 0;
      this.clear();
      // Gone is not "not read": the line saying why it could not be read goes with it.
      this.failure = null;
      return had;
    }
    if (p.kind === 'error') {
      // Keep the last good entries; say why they are not current.
      const changed = this.failure !== p.message;
      this.failure = p.message;
      return changed;
    }
    this.failure = null;
    if (p.reset) this.clear();
    this.skippedBytes += p.skippedBytes;
    if (p.unreadLines) this.addUnread(p.unreadLines.from, p.unreadLines.to);
    for (const part of p.partLines) this.passedOver(part, p.skippedBytes);
    for (const l of p.lines) {
      const e = parseLedgerLine(l.text, lineRef(this.rel, l.lineNo));
      if (typeof e === 'string') this.skip(l.lineNo, e);
      else {
        if (e.event === 'end' && (e.outcome === null || !END_OUTCOMES.includes(e.outcome))) {
          this.oddOutcomes += 1;
          if (this.oddExamples.length < NAMED)
            this.oddExamples.push(
              `${lineWord(l.lineNo)}: ${e.outcomeWritten === null ? 'no "outcome"' : JSON.stringify(e.outcomeWritten)}`,
            );
        }
        this.entries.push(e);
      }
    }
    if (this.entries.length > MAX_ENTRIES) this.entries = this.entries.slice(-MAX_ENTRIES);
    return p.reset || p.lines.length > 0 || p.skippedBytes > 0 || p.partLines.length > 0;
  }

  private skip(lineNo: number | null, why: string): void {
    this.bad += 1;
    if (this.badExamples.length < NAMED) this.badExamples.push(`${lineWord(lineNo)}: ${why}`);
  }

  /**
   * A line not read whole: one too long to be a record is a skipped line like any other; one merely cut by
   * where the read starts is unread, with the lines before it.
   */
  private passedOver(part: PartLine, skippedBytes: number): void {
    const tooLong = part.why === 'too-long' || (part.bytes !== null && part.bytes > MAX_LINE_CHARS);
    if (tooLong)
      this.skip(
        part.lineNo,
        part.bytes === null
          ? 'too long (not a ledger record)'
          : `${part.whole ? '' : 'over '}${part.bytes} bytes long (not a ledger record)`,
      );
    else if (part.lineNo !== null) this.addUnread(part.lineNo, part.lineNo);
    if (part.lineNo === null) this.uncountedBytes += skippedBytes;
  }

  private addUnread(from: number, to: number): void {
    const last = this.unread[this.unread.length - 1];
    if (last && last.to + 1 === from) last.to = to;
    else this.unread.push({ from, to });
  }

  problems(): Problem[] {
    const out: Problem[] = [];
    const warn = (message: string) => out.push({ path: this.rel, severity: 'warning', message });
    if (this.failure) warn(`run ledger not read: ${this.failure}`);
    if (this.bad > 0)
      warn(
        `${this.bad} ledger line${this.bad === 1 ? '' : 's'} skipped (${this.badExamples.join('; ')}${this.bad > this.badExamples.length ? '; …' : ''}); OMC's reconciler skips them too`,
      );
    // The rotated half only grows: its oldest lines going unread is the design, not a fault, and a line saying
    // so would stand in every long-used project's problem area for good (docs/panes.md says it instead).
    if ((this.unread.length > 0 || this.uncountedBytes > 0) && this.rel !== LEDGER_ROTATED_REL) {
      const ranges = this.unread
        .slice(0, NAMED)
        .map((u) => (u.from === u.to ? `line ${u.from}` : `lines ${u.from}–${u.to}`));
      if (this.unread.length > NAMED) ranges.push('…');
      // "lines 1–20 not read", "9.5 MB not read (its lines not counted)", or both: "lines 1–20 and 9.5 MB more not
      // read (the lines of those 9.5 MB not counted)".
      const size = this.uncountedBytes > 0 ? formatBytes(this.uncountedBytes) : '';
      const lines = ranges.join(', ');
      const what = lines && size ? `${lines} and ${size} more` : lines || size;
      const uncounted = size ? (lines ? ` (the lines of those ${size} not counted)` : ' (its lines not counted)') : '';
      out.push({
        path: this.rel,
        severity: 'warning',
        message: `${what} not read${uncounted}: omc-top reads at most the last ${formatBytes(this.maxBytes)} of this file at a time; runs recorded only there are not in History`,
      });
    }
    if (this.oddOutcomes > 0)
      warn(
        `${this.oddOutcomes} ledger end line${this.oddOutcomes === 1 ? '' : 's'} with an outcome OMC does not write (${this.oddExamples.join('; ')}${this.oddOutcomes > this.oddExamples.length ? '; …' : ''}); History shows ${this.oddOutcomes === 1 ? 'it' : 'them'} as unknown`,
      );
    return out;
  }

  private clear(): void {
    this.entries = [];
    this.bad = 0;
    this.badExamples = [];
    this.oddOutcomes = 0;
    this.oddExamples = [];
    this.unread = [];
    this.uncountedBytes = 0;
    this.skippedBytes = 0;
  }
}

/** The ledger and its rotated half, in time order (`.1` holds the older batches). */
export class LedgerReader {
  private readonly files: LedgerFile[];

  constructor(root: string) {
    this.files = [new LedgerFile(root, LEDGER_ROTATED_REL, 512 * 1024), new LedgerFile(root, LEDGER_REL, 1024 * 1024)];
  }

  poll(): boolean {
    let changed = false;
    for (const f of this.files) changed = f.poll() || changed;
    return changed;
  }

  entries(): LedgerEntry[] {
    return this.files.flatMap((f) => f.entries);
  }

  /** The current ledger.jsonl only: OMC's reconciler reads nothing else. */
  mainEntries(): readonly LedgerEntry[] {
    return (this.files[1] as LedgerFile).entries;
  }

  problems(): Problem[] {
    return this.files.flatMap((f) => f.problems());
  }

  /** The current ledger's path when it is there but could not be read, else null. */
  notRead(): string | null {
    const main = this.files[1] as LedgerFile;
    return main.failure === null ? null : main.rel;
  }
}
