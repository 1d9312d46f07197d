/**
 * The PRD domain: ralph's story progress per session, read through fsx and
 * remembered per file (size + mtime + inode). What a row asks for is remembered
 * until something can have changed it (a PRD event, a scan, the project's own
 * prd.json moving), so drawing a ralph row costs no file system call at all.
 */
import { listDirSync, parseJsonText, readTextSync, statSync } from '../../io/safe-fs/index.js';
import { stampKey, type StampPart } from '../../io/file-stamp.js';
import { cleanLine } from '../../io/sanitize.js';
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

/** A PRD is judged again when its size, mtime or inode moved. */
const PRD_STAMP: readonly StampPart[] = ['size', 'mtimeMs', 'ino'];

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

/**
 * The project's prd.json sits outside the watched root (no event ever names it), so a timer looks at it: one
 * lstat per period, instead of one per ralph row per frame.
 */
export const PROJECT_PRD_RECHECK_MS = 2_000;

export class PrdDomain implements Domain {
  readonly name = 'prd';
  private readonly cache = new Map<string, Cached>();
  private readonly listeners = new Set<() => void>();
  private problemList: Problem[] = [];
  private sessionPrds: PrdCandidate[] = [];
  /** `sessionPrds` by rel: a session without its own PRD is known without a failed lstat. */
  private sessionPrdRels = new Set<string>();
  private changes = 0;
  /** lookup() per session, for rows asking on every frame; dropped only when an answer can have changed. */
  private lookups = new Map<string, PrdLookup | null>();
  private scanned = false;
  /**
   * Before the first scan: the shared candidates' answers (the project's and .omc's prd.json), looked at once for
   * all the rows of the first frame instead of three lstats per ralph row (165 at 200x60); the scan drops them
   * with every other answer and redraws.
   */
  private readonly sharedBeforeScan = new Map<string, PrdVerdict | null>();
  /** Every candidate judged in the last recomputeProblems, as `id=size:mtime:ino` (a scan moves `version` only
   * when this moves: a poll tick or a rescan that found nothing new draws nothing). */
  private fingerprint = '';
  private projectPrdKey: string | null = null;
  private projectTimer: NodeJS.Timeout | null = null;
  /** How stories count: the book of the OMC that runs the hooks, which can change under a running monitor. */
  rules: PrdRules;

  constructor(private readonly opts: PrdDomainOptions) {
    this.rules = opts.rules ?? '5.5';
  }

  /** Another OMC runs the hooks: every PRD is counted again by its rules. */
  setRules(rules: PrdRules): void {
    if (rules === this.rules) return;
    this.rules = rules;
    this.cache.clear();
    this.recomputeProblems();
    this.changed();
  }

  wants(rel: string, isDir: boolean | undefined): boolean {
    if (isDir !== false && (rel === 'state' || rel === 'state/sessions' || /^state\/sessions\/[^/]+$/.test(rel)))
      return true;
    return isPrdPath(rel);
  }

  scan(): void {
    // Session PRDs are found by listing (one lstat per session dir), so an invalid one is a problem line
    // before anyone asks for its row; the shared candidates are judged in recomputeProblems.
    this.sessionPrds = [];
    this.sharedBeforeScan.clear();
    if (this.opts.sessionDirsWith) {
      for (const name of this.opts.sessionDirsWith('prd.json'))
        this.sessionPrds.push({ base: 'omc', rel: `state/sessions/${name}/prd.json` });
    } else {
      const dirs = listDirSync(this.opts.root, 'state/sessions');
      if (dirs.ok)
        for (const d of dirs.entries) {
          if (d.kind !== 'dir') continue;
          const rel = `state/sessions/${d.name}/prd.json`;
          if (statSync(this.opts.root, rel)) this.sessionPrds.push({ base: 'omc', rel });
        }
    }
    const first = !this.scanned;
    this.scanned = true;
    const before = this.fingerprint;
    this.recomputeProblems();
    this.projectPrdKey = this.projectKey();
    this.startProjectTimer();
    // Rows drawn before the first scan probed the disk themselves; from now on they use the listing's answer.
    if (first || this.fingerprint !== before) this.changed();
  }

  refresh(events: readonly WatchEvent[], _edge?: 'leading' | 'trailing'): void {
    let touched = false;
    for (const e of events) {
      if (!isPrdPath(e.rel)) continue;
      this.cache.delete(`omc:${e.rel}`);
      if (e.rel.startsWith('state/sessions/') && !this.sessionPrdRels.has(e.rel))
        this.sessionPrds.push({ base: 'omc', rel: e.rel });
      touched = true;
    }
    if (touched) {
      this.recomputeProblems();
      this.changed();
    }
  }

  dispose(): void {
    if (this.projectTimer) clearInterval(this.projectTimer);
    this.projectTimer = null;
  }

  /** The PRD OMC's ralph would read for this session (null = the session-less legacy state), or null when none exists. */
  lookup(sessionId: string | null): PrdLookup | null {
    // Before the first scan there is no listing to trust: lookupNow probes (the progressive start draws rows
    // before this domain is read); the first scan drops those answers and redraws.
    const key = sessionId ?? '\u0000legacy';
    const hit = this.lookups.get(key);
    if (hit !== undefined) return hit;
    const found = this.lookupNow(sessionId);
    this.lookups.set(key, found);
    return found;
  }

  private lookupNow(sessionId: string | null): PrdLookup | null {
    for (const c of prdCandidates(sessionId, this.rules)) {
      // A session's own PRD exists only if the listing (or an event) saw it.
      if (this.scanned && c.base === 'omc' && c.rel.startsWith('state/sessions/') && !this.sessionPrdRels.has(c.rel))
        continue;
      const verdict = this.scanned || c.rel.startsWith('state/sessions/') ? this.read(c) : this.readShared(c);
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

  /** Every remembered answer is dropped and the views are told (a PRD event, a scan that found news, the timer). */
  private changed(): void {
    this.lookups.clear();
    this.changes++;
    for (const l of this.listeners) l();
  }

  private projectKey(): string | null {
    if (this.opts.projectDir === null) return null;
    const st = statSync(this.opts.projectDir, 'prd.json');
    return st ? stampKey(st, PRD_STAMP) : null;
  }

  private startProjectTimer(): void {
    if (this.projectTimer || this.opts.projectDir === null) return;
    this.projectTimer = setInterval(() => {
      const key = this.projectKey();
      if (key === this.projectPrdKey) return;
      this.projectPrdKey = key;
      this.cache.delete('project:prd.json');
      this.recomputeProblems();
      this.changed();
    }, PROJECT_PRD_RECHECK_MS);
    this.projectTimer.unref();
  }

  /** Every shared (non-session) candidate and every session PRD already looked up, judged now. */
  private recomputeProblems(): void {
    const out: Problem[] = [];
    const shared = prdCandidates(null, this.rules);
    const seen = new Set<string>();
    const marks: string[] = [];
    for (const c of [...shared, ...this.sessionCandidatesSeen()]) {
      const id = `${c.base}:${c.rel}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const v = this.read(c);
      marks.push(`${id}=${this.cache.get(id)?.key ?? '-'}`);
      if (v && !v.ok)
        out.push({
          path: displayPath(c),
          severity: 'warning',
          message: `invalid PRD: ${v.reason} (ralph's story progress is unknown; OMC's PRD reader ignores this file)`,
        });
    }
    this.problemList = out;
    this.fingerprint = marks.join('\n');
  }

  private sessionCandidatesSeen(): PrdCandidate[] {
    // Drop the ones that vanished, so the list stays as long as the sessions with a PRD.
    this.sessionPrds = this.sessionPrds.filter((c) => statSync(this.opts.root, c.rel) !== null);
    this.sessionPrdRels = new Set(this.sessionPrds.map((c) => c.rel));
    return this.sessionPrds;
  }

  /** A shared candidate before the first scan: read once for every row (see sharedBeforeScan). */
  private readShared(c: PrdCandidate): PrdVerdict | null {
    const id = `${c.base}:${c.rel}`;
    let v = this.sharedBeforeScan.get(id);
    if (v === undefined) this.sharedBeforeScan.set(id, (v = this.read(c)));
    return v;
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
    const key = stampKey(st, PRD_STAMP);
    const hit = this.cache.get(id);
    if (hit && hit.key === key) return hit.verdict;
    const verdict = prdVerdict(base, c.rel, this.rules);
    const clean: PrdVerdict = verdict.ok
      ? { ok: true, progress: cleanProgress(verdict.progress) }
      : { ok: false, reason: cleanLine(verdict.reason) };
    this.cache.set(id, { key, verdict: clean });
    return clean;
  }
}

/**
 * One PRD file as OMC's ralph reads it: `JSON.parse` of the raw text. A leading byte-order mark (which
 * fsx's decoding drops) makes OMC's parse fail, so such a PRD has no progress for OMC either.
 */
function prdVerdict(base: string, rel: string, rules: PrdRules): PrdVerdict {
  const r = readTextSync(base, rel);
  if (!r.ok) return { ok: false, reason: r.message };
  if (r.bom) return { ok: false, reason: "it starts with a byte-order mark, which OMC's JSON.parse rejects" };
  const j = parseJsonText(r.text, r);
  return j.ok ? countStories(j.value, rules) : { ok: false, reason: j.message };
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
