/**
 * The PRD domain: ralph's story progress per session, read through fsx and
 * remembered per file (size + mtime + inode), so asking for every ralph row
 * on every frame costs a stat, not a parse.
 */
import { listDirSync, readJsonSync, statSync } from '../fsx.js';
import { cleanLine } from '../sanitize.js';
import type { Domain, Problem, WatchEvent } from '../types.js';
import { countStories, type PrdRules, type PrdVerdict, type StoryProgress } from './count.js';
import { displayPath, isPrdPath, prdCandidates, type PrdCandidate } from './lookup.js';

export interface PrdLookup {
  /** Where OMC would read it, relative to the .omc root (`../prd.json` = the project's). */
  path: string;
  verdict: PrdVerdict;
}

/** The `--json` shape: `{passed, total, current}` or null (no PRD, or an invalid one: see problems). */
export type StoriesJson = { passed: number; total: number; current: string | null } | null;

interface Cached {
  key: string;
  verdict: PrdVerdict | null;
}

export interface PrdDomainOptions {
  root: string;
  projectDir: string | null;
  rules?: PrdRules;
  /**
   * The session directories whose last listing had this file, from the sessions domain (which lists each one
   * anyway, and is scanned first): finding session PRDs then costs no listing and no failed lstat per session.
   */
  sessionDirsWith?: (file: string) => Iterable<string>;
}

const LOOKUP_FRESH_MS = 1_000;

export class PrdDomain implements Domain {
  readonly name = 'prd';
  private readonly cache = new Map<string, Cached>();
  private readonly listeners = new Set<() => void>();
  private problemList: Problem[] = [];
  private sessionPrds: PrdCandidate[] = [];
  private changes = 0;
  /** lookup() per session, for rows asking on every frame; dropped on any PRD event or scan, and after a second
   * (the project's own prd.json sits outside the watched root, so only a fresh stat notices it). */
  private lookups = new Map<string, PrdLookup | null>();
  private lookupsAt = 0;
  readonly rules: PrdRules;

  constructor(private readonly opts: PrdDomainOptions) {
    this.rules = opts.rules ?? '5.5';
  }

  wants(rel: string, isDir: boolean | undefined): boolean {
    if (isDir !== false && (rel === 'state' || rel === 'state/sessions' || /^state\/sessions\/[^/]+$/.test(rel)))
      return true;
    return isPrdPath(rel);
  }

  scan(): void {
    this.lookups.clear();
    // Session PRDs are found by listing (one lstat per session dir), so an invalid one is a problem line
    // before anyone asks for its row; the shared candidates are judged in recomputeProblems.
    this.sessionPrds = [];
    if (this.opts.sessionDirsWith) {
      for (const name of this.opts.sessionDirsWith('prd.json'))
        this.sessionPrds.push({ base: 'omc', rel: `state/sessions/${name}/prd.json` });
      this.recomputeProblems();
      return;
    }
    const dirs = listDirSync(this.opts.root, 'state/sessions');
    if (dirs.ok)
      for (const d of dirs.entries) {
        if (d.kind !== 'dir') continue;
        const rel = `state/sessions/${d.name}/prd.json`;
        if (statSync(this.opts.root, rel)) this.sessionPrds.push({ base: 'omc', rel });
      }
    this.recomputeProblems();
  }

  refresh(events: readonly WatchEvent[], _edge?: 'leading' | 'trailing'): void {
    let touched = false;
    for (const e of events) {
      if (!isPrdPath(e.rel)) continue;
      this.cache.delete(`omc:${e.rel}`);
      if (e.rel.startsWith('state/sessions/') && !this.sessionPrds.some((c) => c.rel === e.rel))
        this.sessionPrds.push({ base: 'omc', rel: e.rel });
      touched = true;
    }
    if (touched) {
      this.lookups.clear();
      this.changes++;
      this.recomputeProblems();
      for (const l of this.listeners) l();
    }
  }

  /** The PRD OMC's ralph would read for this session (null = the session-less legacy state), or null when none exists. */
  lookup(sessionId: string | null): PrdLookup | null {
    const now = Date.now();
    if (now - this.lookupsAt > LOOKUP_FRESH_MS) {
      this.lookups.clear();
      this.lookupsAt = now;
    }
    const key = sessionId ?? '\u0000legacy';
    const hit = this.lookups.get(key);
    if (hit !== undefined) return hit;
    const found = this.lookupNow(sessionId);
    this.lookups.set(key, found);
    return found;
  }

  private lookupNow(sessionId: string | null): PrdLookup | null {
    for (const c of prdCandidates(sessionId, this.rules)) {
      const verdict = this.read(c);
      if (verdict === null) continue;
      return { path: displayPath(c), verdict };
    }
    return null;
  }

  /** Progress for a ralph row, or null when there is no valid PRD. */
  progress(sessionId: string | null): StoryProgress | null {
    const l = this.lookup(sessionId);
    return l && l.verdict.ok ? l.verdict.progress : null;
  }

  storiesJson(sessionId: string | null): StoriesJson {
    const p = this.progress(sessionId);
    return p ? { passed: p.passed, total: p.total, current: p.current } : null;
  }

  problems(): readonly Problem[] {
    return this.problemList;
  }

  /** Bound, for useSyncExternalStore with `version` as the snapshot. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Moves on every change a view must show (a PRD written, amended, removed). */
  version = (): number => this.changes;

  /** Every shared (non-session) candidate and every session PRD already looked up, judged now. */
  private recomputeProblems(): void {
    const out: Problem[] = [];
    const shared = prdCandidates(null, this.rules);
    const seen = new Set<string>();
    for (const c of [...shared, ...this.sessionCandidatesSeen()]) {
      const id = `${c.base}:${c.rel}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const v = this.read(c);
      if (v && !v.ok)
        out.push({
          path: displayPath(c),
          severity: 'warning',
          message: `invalid PRD: ${v.reason} (ralph's story progress is unknown; OMC's PRD reader ignores this file)`,
        });
    }
    this.problemList = out;
  }

  private sessionCandidatesSeen(): PrdCandidate[] {
    // Drop the ones that vanished, so the list stays as long as the sessions with a PRD.
    this.sessionPrds = this.sessionPrds.filter((c) => statSync(this.opts.root, c.rel) !== null);
    return this.sessionPrds;
  }

  /** The verdict for one candidate, null when the file does not exist. Re-parsed only when the file changed. */
  private read(c: PrdCandidate): PrdVerdict | null {
    const base = c.base === 'omc' ? this.opts.root : this.opts.projectDir;
    if (base === null) return null;
    const id = `${c.base}:${c.rel}`;
    const st = statSync(base, c.rel);
    if (!st) {
      this.cache.delete(id);
      return null;
    }
    const key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    const hit = this.cache.get(id);
    if (hit && hit.key === key) return hit.verdict;
    const r = readJsonSync(base, c.rel);
    const verdict: PrdVerdict = r.ok ? countStories(r.value, this.rules) : { ok: false, reason: r.message };
    const clean: PrdVerdict = verdict.ok
      ? { ok: true, progress: cleanProgress(verdict.progress) }
      : { ok: false, reason: cleanLine(verdict.reason) };
    this.cache.set(id, { key, verdict: clean });
    return clean;
  }
}

/** Story text is file content: no escape sequence reaches a view or --json. */
function cleanProgress(p: StoryProgress): StoryProgress {
  return {
    ...p,
    current: p.current === null ? null : cleanLine(p.current),
    stories: p.stories.map((s) => ({
      ...s,
      id: cleanLine(s.id),
      title: cleanLine(s.title),
      criteria: s.criteria.map((c) => cleanLine(c)),
      amendments: s.amendments.map((a) => ({
        kind: cleanLine(a.kind),
        original: cleanLine(a.original),
        replacement: a.replacement === null ? null : cleanLine(a.replacement),
        reason: cleanLine(a.reason),
      })),
    })),
  };
}
