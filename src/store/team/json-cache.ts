/**
 * The last good parse of every JSON file the teams domain reads, with the
 * leading/trailing-edge rule of the architecture: a failed read on the leading
 * edge (maybe a non-atomic writer caught mid-write) is only shown as a problem
 * if the trailing re-read ~60 ms later confirms it; the last good value stays.
 */
import { parseJsonText, readTextSync, statSync } from '../fsx.js';
import { BOM_MESSAGE } from '../sessions/omc-rules.js';

export interface JsonRec {
  value: unknown;
  mtimeMs: number;
  size: number;
  ino: number;
  text: string;
  problem: string | null;
  pendingProblem: string | null;
}

export type ReadEdge = 'leading' | 'trailing' | 'scan';

/** State and task files are small; 1 MiB is OMC's own state payload cap. */
const MAX_BYTES = 1024 * 1024;

export class JsonCache {
  private recs = new Map<string, JsonRec>();

  /** `key` identifies the file across locations (e.g. "root|state/team/x/config.json"). */
  get(key: string): JsonRec | undefined {
    return this.recs.get(key);
  }

  /** Parsed object or null (missing, never parsed, or not an object). */
  object(key: string): Record<string, unknown> | null {
    const v = this.recs.get(key)?.value;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  }

  has(key: string): boolean {
    return this.recs.has(key);
  }

  keys(): IterableIterator<string> {
    return this.recs.keys();
  }

  /** Re-reads only when identity, size or mtime moved (the poll/scan path). Returns true when what we hold changed. */
  readIfChanged(key: string, root: string, rel: string, edge: ReadEdge = 'scan'): boolean {
    const prev = this.recs.get(key);
    if (prev && prev.mtimeMs >= 0 && !prev.pendingProblem) {
      const st = statSync(root, rel);
      if (st && st.isFile() && st.mtimeMs === prev.mtimeMs && st.size === prev.size && st.ino === prev.ino)
        return false;
    }
    return this.read(key, root, rel, edge);
  }

  /** Reads and parses; returns true when the value or the problem changed. */
  read(key: string, root: string, rel: string, edge: ReadEdge): boolean {
    const prev = this.recs.get(key);
    const r = readTextSync(root, rel, MAX_BYTES);
    if (!r.ok && r.code === 'missing') return this.drop(key);
    let problem: string | null = null;
    let value: unknown;
    let text = prev?.text ?? '';
    if (!r.ok) problem = r.message;
    else {
      if (prev && prev.text === r.text && !prev.problem && !prev.pendingProblem && !r.bom) {
        prev.mtimeMs = r.mtimeMs;
        prev.size = r.bytes;
        prev.ino = r.ino;
        return false;
      }
      const parsed = parseJsonText(r.text, r);
      if (!parsed.ok) problem = parsed.message;
      // OMC's team readers JSON.parse the raw text, byte-order mark included, and fail on it.
      else if (r.bom) problem = BOM_MESSAGE;
      else {
        value = parsed.value;
        text = r.text;
        if (r.invalidUtf8) problem = 'contains bytes that are not valid UTF-8 (shown as �)';
      }
    }
    const rec: JsonRec = {
      value: value !== undefined ? value : prev?.value,
      text,
      ...(r.ok ? { mtimeMs: r.mtimeMs, size: r.bytes, ino: r.ino } : { mtimeMs: -1, size: -1, ino: -1 }),
      problem: null,
      pendingProblem: null,
    };
    if (problem) {
      // A value with a UTF-8 warning is still usable; a failed read waits for the trailing edge.
      if (edge === 'leading' && value === undefined) rec.pendingProblem = problem;
      else rec.problem = problem;
    }
    this.recs.set(key, rec);
    return true;
  }

  drop(key: string): boolean {
    return this.recs.delete(key);
  }

  /** Drops every key starting with `prefix` (a removed directory). */
  dropPrefix(prefix: string): boolean {
    let any = false;
    for (const k of [...this.recs.keys()]) {
      if (k === prefix || k.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) {
        this.recs.delete(k);
        any = true;
      }
    }
    return any;
  }
}
