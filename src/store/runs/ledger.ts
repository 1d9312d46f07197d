/**
 * OMC 5.6's run ledger, `state/runs/ledger.jsonl` (upstream src/lib/runs-ledger.ts
 * @ 839b3a5e): one JSON line per lifecycle edge of the four watched unattended
 * modes, `{ts, run, sessionId?, event: start|end, outcome?, closeoutWritten?}`.
 * At 1,000 lines OMC appends the whole file to `ledger.jsonl.1` and truncates
 * it, so `.1` only grows: it is read from its last 512 KB. Both files are
 * followed incrementally; a hostile line is counted and named, never fatal.
 */
import { cleanLine } from '../../io/sanitize.js';
import type { Problem } from '../types.js';
import { LogTail, type TailPoll } from '../../io/log-tail.js';

export const LEDGER_REL = 'state/runs/ledger.jsonl';
export const LEDGER_ROTATED_REL = 'state/runs/ledger.jsonl.1';
export const WATCHED_RUN_MODES = ['ralph', 'autopilot', 'team', 'ultragoal'] as const;

export type LedgerOutcome = 'running' | 'completed' | 'failed' | 'cancelled';

export interface LedgerEntry {
  tsMs: number;
  run: string;
  sessionId: string | null;
  event: 'start' | 'end';
  outcome: LedgerOutcome | null;
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
    return `"event" is ${JSON.stringify(cleanLine(String(o.event)).slice(0, 20))}, not start/end`;
  const tsMs = typeof o.ts === 'string' ? Date.parse(o.ts) : Number.NaN;
  if (!Number.isFinite(tsMs)) return 'no valid "ts"';
  return {
    tsMs,
    run: cleanLine(o.run).slice(0, 64),
    sessionId: typeof o.sessionId === 'string' && o.sessionId !== '' ? cleanLine(o.sessionId).slice(0, 128) : null,
    event: o.event,
    outcome: typeof o.outcome === 'string' && OUTCOMES.has(o.outcome) ? (o.outcome as LedgerOutcome) : null,
    closeoutWritten: typeof o.closeoutWritten === 'boolean' ? o.closeoutWritten : null,
    source: typeof o.source === 'string' ? cleanLine(o.source).slice(0, 32) : null,
    where,
  };
}

class LedgerFile {
  readonly tail: LogTail;
  entries: LedgerEntry[] = [];
  bad = 0;
  badExamples: string[] = [];
  failure: string | null = null;
  skippedBytes = 0;

  constructor(
    root: string,
    readonly rel: string,
    maxBytes: number,
  ) {
    this.tail = new LogTail(root, rel, maxBytes);
  }

  /** True when anything changed. */
  poll(): boolean {
    const p: TailPoll = this.tail.poll();
    if (p.kind === 'missing') {
      const had = this.entries.length > 0 || this.bad > 0 || this.failure !== null;
      this.clear();
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
    for (const l of p.lines) {
      const e = parseLedgerLine(l.text, `${this.rel}:${l.lineNo}`);
      if (typeof e === 'string') {
        this.bad += 1;
        if (this.badExamples.length < 3) this.badExamples.push(`line ${l.lineNo}: ${e}`);
      } else this.entries.push(e);
    }
    if (this.entries.length > MAX_ENTRIES) this.entries = this.entries.slice(-MAX_ENTRIES);
    return p.reset || p.lines.length > 0;
  }

  problems(): Problem[] {
    const out: Problem[] = [];
    if (this.failure)
      out.push({ path: this.rel, severity: 'warning', message: `run ledger not read: ${this.failure}` });
    if (this.bad > 0)
      out.push({
        path: this.rel,
        severity: 'warning',
        message: `${this.bad} ledger line${this.bad === 1 ? '' : 's'} skipped (${this.badExamples.join('; ')}); OMC's reconciler skips them too`,
      });
    return out;
  }

  private clear(): void {
    this.entries = [];
    this.bad = 0;
    this.badExamples = [];
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
}
