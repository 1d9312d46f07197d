/**
 * The stale-run facts kept up to date by what changed. `staleRunsFrom` judges every watched mode
 * file on every change (4 names × every session directory); this follows the sessions domain's
 * change log instead: a change re-judges the files that changed plus the few already stale (their
 * age moves with the clock), and everything is judged again only when the clock reaches the
 * earliest moment a live run could turn stale, when the log no longer reaches back, or on a scan.
 * The facts are the same list `staleRunsFrom` gives (test/store/stale-runs.property.test.ts).
 */
import { WATCHED_RUN_MODES } from '../runs/ledger.js';
import {
  sortStaleRuns,
  staleRunFact,
  type NextSessionFact,
  type ParsedStateFile,
  type StaleThreshold,
} from './next-session.js';

/**
 * What the tracker reads: each state file as OMC's watchdog reads it now (the sessions domain's parse, a file whose
 * current bytes do not parse left out) and the domain's change log.
 */
export interface ParsedFilesSource {
  watchdogFiles(file: string): readonly ParsedStateFile[];
  watchdogFile(rel: string): ParsedStateFile | null;
  parsedChangesSince(seq: number): { seq: number; rels: readonly string[] | null };
}

const MODE_OF = /(?:^|\/)([a-z][a-z0-9-]*)-state\.json$/;
const WATCHED = new Set<string>(WATCHED_RUN_MODES);
/** Only files where OMC's watchdog looks: state/<mode>-state.json and state/sessions/<sid>/<mode>-state.json. */
const WATCHED_REL = /^state\/(?:sessions\/[^/]+\/)?[a-z][a-z0-9-]*-state\.json$/;

export class StaleRunTracker {
  private readonly stale = new Map<string, NextSessionFact>();
  private seq = -1;
  /** The earliest time a run judged fresh turns stale (a full judgement is due then). */
  private dueAt = Infinity;
  /** The earliest time a stale fact's age in words (tenths of an hour) moves: the stale ones are re-judged then. */
  private ageDueAt = Infinity;
  /** The threshold's words last judged by (a new value or a new source re-judges every file). */
  private words = '';
  private list: NextSessionFact[] = [];

  constructor(private readonly src: ParsedFilesSource) {}

  /**
   * The facts at `now`; `full` judges every file again (a scan). A change re-judges the files it changed; the
   * runs already stale are re-judged only when one's age in words moves (every 6 minutes), not on every change:
   * at 10,000 sessions thousands can be stale. The same facts keep the same list.
   */
  update(now: number, threshold: StaleThreshold, full = false): NextSessionFact[] {
    const ch = this.src.parsedChangesSince(this.seq);
    let moved = false;
    if (full || ch.rels === null || this.seq < 0 || threshold.words !== this.words || now >= this.dueAt) {
      this.judgeAll(now, threshold);
      moved = true;
    } else {
      const again = new Set<string>();
      if (now >= this.ageDueAt) {
        this.ageDueAt = Infinity;
        for (const rel of this.stale.keys()) again.add(rel);
      }
      for (const rel of ch.rels) if (WATCHED_REL.test(rel) && WATCHED.has(MODE_OF.exec(rel)?.[1] ?? '')) again.add(rel);
      for (const rel of again) moved = this.judge(rel, this.src.watchdogFile(rel), now, threshold) || moved;
    }
    this.seq = ch.seq;
    this.words = threshold.words;
    if (moved) this.list = sortStaleRuns([...this.stale.values()]);
    return this.list;
  }

  private judgeAll(now: number, threshold: StaleThreshold): void {
    this.stale.clear();
    this.dueAt = Infinity;
    this.ageDueAt = Infinity;
    for (const mode of WATCHED_RUN_MODES)
      for (const f of this.src.watchdogFiles(`${mode}-state.json`)) this.judge(f.rel, f, now, threshold);
  }

  /** Returns whether the facts changed. */
  private judge(rel: string, f: ParsedStateFile | null, now: number, threshold: StaleThreshold): boolean {
    const mode = MODE_OF.exec(rel)?.[1] ?? '';
    const fact = f ? staleRunFact(mode, f, now, threshold) : null;
    const old = this.stale.get(rel);
    let moved = true;
    if (fact && f) {
      if (old && sameFact(old, fact)) moved = false;
      else this.stale.set(rel, fact);
      this.ageDueAt = Math.min(this.ageDueAt, nextAgeStep(f.mtimeMs, now));
    } else moved = this.stale.delete(rel);
    // A live run judged fresh: due for judgement the moment after its file is `hours` old.
    if (!fact && f && f.value.active === true)
      this.dueAt = Math.min(this.dueAt, f.mtimeMs + threshold.hours * 3_600_000 + 1);
    return moved;
  }
}

const AGE_STEP_MS = 360_000;

/**
 * The first moment after `now` at which a file changed at `mtimeMs` shows another age: staleRunFact rounds the
 * age to tenths of an hour, so the words move when the age crosses (k + ½) tenths.
 */
function nextAgeStep(mtimeMs: number, now: number): number {
  const age = Math.max(0, now - mtimeMs);
  const k = Math.floor(age / AGE_STEP_MS - 0.5) + 1;
  // A millisecond early: the division there and here may round differently at the very step (judging early is
  // harmless, judging late would show an old age).
  return mtimeMs + Math.max(0.5, k + 0.5) * AGE_STEP_MS - 1;
}

const sameFact = (a: NextSessionFact, b: NextSessionFact) =>
  a.path === b.path && a.message === b.message && a.action === b.action && a.ageHours === b.ageHours;
