/**
 * Ended-session summaries, `.omc/sessions/<sid>.json`, written by OMC's
 * SessionEnd hook in every release: `{session_id, started_at?, ended_at,
 * reason, duration_ms?, agents_spawned, agents_completed, modes_used[]}`.
 * Read incrementally: a file is parsed again only when its size, mtime or
 * inode changed; the newest `MAX_SUMMARIES` by mtime reach the history.
 */
import { listDirSync, readJsonSync, statSync } from '../../io/safe-fs/index.js';
import type { ScanMisses } from '../scan-misses.js';
import { stampKey } from '../../io/file-stamp.js';
import { cleanLine } from '../../io/sanitize.js';
import type { Problem } from '../types.js';

export interface SessionSummary {
  sessionId: string;
  startedMs: number | null;
  endedMs: number | null;
  reason: string | null;
  durationMs: number | null;
  modesUsed: string[];
  agentsSpawned: number | null;
  agentsCompleted: number | null;
  path: string;
  mtimeMs: number;
}

const MAX_SUMMARIES = 2_000;
const SUMMARY_MAX_BYTES = 256 * 1024;

const ms = (v: unknown) => (typeof v === 'string' && Number.isFinite(Date.parse(v)) ? Date.parse(v) : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

export function parseSummary(value: unknown, rel: string, mtimeMs: number): SessionSummary | string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'is not a JSON object';
  const o = value as Record<string, unknown>;
  const fromName = rel.replace(/^sessions\//, '').replace(/\.json$/, '');
  const sessionId = typeof o.session_id === 'string' && o.session_id !== '' ? o.session_id : fromName;
  const modes = Array.isArray(o.modes_used) ? o.modes_used.filter((m): m is string => typeof m === 'string') : [];
  return {
    sessionId: cleanLine(sessionId).slice(0, 128),
    startedMs: ms(o.started_at),
    endedMs: ms(o.ended_at),
    reason: typeof o.reason === 'string' ? cleanLine(o.reason).slice(0, 64) : null,
    durationMs: num(o.duration_ms),
    modesUsed: modes.slice(0, 32).map((m) => cleanLine(m).slice(0, 64)),
    agentsSpawned: num(o.agents_spawned),
    agentsCompleted: num(o.agents_completed),
    path: rel,
    mtimeMs,
  };
}

interface Held {
  key: string;
  summary: SessionSummary | null;
  problem: string | null;
}

export class SummaryReader {
  private readonly held = new Map<string, Held>();
  /** Why `sessions/` could not be listed (permission, I/O), null when it could or is not there. */
  private listFailure: string | null = null;

  constructor(private readonly root: string) {}

  /** Re-lists `sessions/` and re-reads what changed. True when anything did. */
  poll(misses?: ScanMisses): boolean {
    const list = listDirSync(this.root, 'sessions');
    const failure = list.ok || list.code === 'missing' ? null : list.message;
    let changed = failure !== this.listFailure;
    this.listFailure = failure;
    // Not listed is not empty: the summaries seen are kept, and the problem line says why nothing is current.
    if (failure !== null) return changed;
    const names = list.ok
      ? list.entries.filter((e) => e.kind === 'file' && e.name.endsWith('.json')).map((e) => e.name)
      : [];
    const seen = new Set<string>();
    for (const name of names) {
      const rel = `sessions/${name}`;
      seen.add(rel);
      changed = this.readOne(rel) || changed;
    }
    const missed = [...this.held.keys()].filter((rel) => !seen.has(rel));
    // A summary the listing no longer names waits as every list's misses do (scan-misses.ts), while `sessions/`
    // itself is there; with it, they go at once.
    const gone = list.ok && misses ? new Set(misses.gone(missed)) : null;
    for (const rel of missed)
      if (gone === null || gone.has(rel)) {
        this.held.delete(rel);
        changed = true;
      }
    return changed;
  }

  /**
   * Re-reads one file (a watcher event); true when its summary changed. On the leading edge a failed read
   * is only pending (OMC's SessionEnd writes the file in place: it is caught empty mid-write): nothing is
   * held, so the trailing read re-reads it and only a failure there is a problem (the last-good rule).
   */
  readOne(rel: string, edge?: 'leading' | 'trailing'): boolean {
    const st = statSync(this.root, rel);
    if (!st) return this.held.delete(rel);
    const key = stampKey(st, ['size', 'mtimeMs', 'ino']);
    const prev = this.held.get(rel);
    if (prev && prev.key === key) return false;
    const r = readJsonSync(this.root, rel, SUMMARY_MAX_BYTES);
    if (!r.ok && edge === 'leading') return false;
    if (!r.ok) {
      // Keep the last good summary; the problem says why it is not current.
      this.held.set(rel, { key, summary: prev?.summary ?? null, problem: r.message });
      return true;
    }
    const s = parseSummary(r.value, rel, st.mtimeMs);
    if (typeof s === 'string' && edge === 'leading') return false;
    this.held.set(
      rel,
      typeof s === 'string' ? { key, summary: prev?.summary ?? null, problem: s } : { key, summary: s, problem: null },
    );
    return true;
  }

  summaries(): SessionSummary[] {
    const out: SessionSummary[] = [];
    for (const h of this.held.values()) if (h.summary) out.push(h.summary);
    // Each held summary is a few hundred bytes; only the newest reach the history.
    return out.length <= MAX_SUMMARIES ? out : out.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, MAX_SUMMARIES);
  }

  /** `sessions` when that directory is there but could not be listed, else null. */
  notRead(): string | null {
    return this.listFailure === null ? null : 'sessions';
  }

  problems(): Problem[] {
    const out: Problem[] = [];
    if (this.listFailure !== null)
      out.push({ path: 'sessions', severity: 'warning', message: `ended sessions not listed: ${this.listFailure}` });
    for (const [rel, h] of this.held)
      if (h.problem)
        out.push({ path: rel, severity: 'warning', message: `ended-session summary not read: ${h.problem}` });
    return out;
  }
}
