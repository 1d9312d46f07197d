/**
 * The runs domain: the run ledger (+ `.1`) and the ended-session summaries,
 * followed incrementally, turned into the run history (history.ts). The
 * history is re-derived only when one of its inputs changed.
 */
import { readJsonSync } from '../../io/safe-fs/index.js';
import type { Domain, Problem, WatchEvent } from '../types.js';
import { deriveRuns, runsJson, type RunLine } from './history.js';
import { LEDGER_REL, LEDGER_ROTATED_REL, LedgerReader, WATCHED_RUN_MODES } from './ledger.js';
import { SummaryReader } from './summaries.js';
import type { SeenWindows } from './samples.js';
import { LogTail } from '../../io/log-tail.js';
import { Omc56Presence } from '../omc56/present-files.js';
import { latestBudgetByMode, pauseBudgetWarning, SHADOW_LOG_REL, type BudgetReading } from '../omc56/budget-log.js';
import {
  factsAsProblems,
  missingCloseouts,
  staleRuns,
  staleThreshold,
  type NextSessionFact,
} from '../omc56/next-session.js';
import type { HookEnv, HookSetting } from '../claude/hook-env.js';
import { StaleRunTracker, type ParsedFilesSource } from '../omc56/stale-runs.js';
import { obj } from '../../io/json.js';
import { ScanMisses } from '../scan-misses.js';

export interface RunsDomainOptions {
  root: string;
  /** omc-top's own environment, where OMC_STALE_RUN_HOURS / OMC_BUDGET_ENFORCE are read without `hookEnv`. */
  env?: NodeJS.ProcessEnv;
  /** Those variables as OMC's hooks see them (Claude's settings, a live Claude's environment: the store's). */
  hookEnv?: HookEnv;
  clock?: () => number;
  /** Iterations reached for ended runs (omc-top's own samples); live runs read their state. */
  sampledIterations?(mode: string, sessionId: string | null, startedMs: number | null): number | null;
  /**
   * The sessions domain's parse of the mode files and its change log (the store passes it): stale
   * facts then cost no disk access, and a change costs the files that changed (StaleRunTracker).
   */
  parsed?: ParsedFilesSource;
  /** Which session directories' last listing had a file (the sessions domain's listings: no lstat per session). */
  sessionDirsWith?(file: string): Iterable<string>;
}

const WATCHED = new Set<string>(WATCHED_RUN_MODES);
/** The budget guard's variables (OMC 5.6's Stop hook reads them from its environment). */
export const BUDGET_VARS = ['OMC_RUN_BUDGET_TOKENS', 'OMC_BUDGET_ENFORCE'] as const;
const STATE_FILE = /^state\/(?:sessions\/([^/]+)\/)?([a-z][a-z0-9-]*)-state\.json$/;

/** Where a mode's state lives for a session (null = the legacy session-less file). */
export function stateRel(mode: string, sessionId: string | null): string {
  return sessionId === null ? `state/${mode}-state.json` : `state/sessions/${sessionId}/${mode}-state.json`;
}

export class RunsDomain implements Domain {
  readonly name = 'runs';
  private readonly ledger: LedgerReader;
  private readonly summaries: SummaryReader;
  private readonly listeners = new Set<() => void>();
  private runList: RunLine[] = [];
  private problemList: Problem[] = [];
  private facts: NextSessionFact[] = [];
  /** The parts `facts` and `problemList` were made of, to tell a change from the same again cheaply. */
  private staleList: readonly NextSessionFact[] = [];
  private closeouts: readonly NextSessionFact[] = [];
  private factProblems: Problem[] = [];
  private ownProblems: Problem[] = [];
  private readonly staleTracker: StaleRunTracker | null;
  private fullScan = false;
  private readonly shadow: LogTail;
  private shadowLines: string[] = [];
  private budgets = new Map<string, BudgetReading>();
  private readonly presence: Omc56Presence;
  private seen: SeenWindows | null = null;

  constructor(private opts: RunsDomainOptions) {
    this.ledger = new LedgerReader(opts.root);
    this.summaries = new SummaryReader(opts.root);
    this.shadow = new LogTail(opts.root, SHADOW_LOG_REL, 256 * 1024);
    this.presence = new Omc56Presence(
      opts.root,
      opts.sessionDirsWith ? (file) => opts.sessionDirsWith?.(file) ?? [] : undefined,
    );
    this.staleTracker = opts.parsed ? new StaleRunTracker(opts.parsed) : null;
  }

  wants(rel: string, isDir: boolean | undefined): boolean {
    if (isDir !== false && (rel === 'state' || rel === 'state/runs' || rel === 'sessions')) return true;
    if (isDir !== false && rel === 'state/enforcement') return true;
    if (rel === LEDGER_REL || rel === LEDGER_ROTATED_REL || rel === SHADOW_LOG_REL) return true;
    if (/^sessions\/[^/]+\.json$/.test(rel)) return true;
    if (this.presence.wants(rel, isDir)) return true;
    const m = STATE_FILE.exec(rel);
    return m !== null && WATCHED.has(m[2] as string);
  }

  /** What a scan no longer finds (an ended session's summary): dropped now, or held for the watcher or the next poll. */
  readonly misses = new ScanMisses();

  scan(): void {
    this.ledger.poll();
    this.summaries.poll(this.misses);
    this.pollShadow();
    this.presence.scan();
    // Staleness moves with the clock: everything is re-judged on every scan (poll tick).
    this.fullScan = true;
    this.derive(true);
  }

  /** Stale runs are judged again at the new time: a clock set back clears a STALE RUN judged at the later one. */
  clockJumped(): void {
    this.fullScan = true;
    this.derive(true);
  }

  refresh(events: readonly WatchEvent[], edge?: 'leading' | 'trailing'): void {
    let changed = false;
    let ledger = false;
    for (const e of events) {
      if (e.rel === LEDGER_REL || e.rel === LEDGER_ROTATED_REL || e.rel === 'state/runs') ledger = true;
      else if (e.rel === 'sessions') changed = this.summaries.poll(this.misses) || changed;
      else if (e.rel.startsWith('sessions/')) changed = this.summaries.readOne(e.rel, edge) || changed;
      else if (STATE_FILE.test(e.rel)) changed = true; // running vs crashed, live iteration
    }
    if (events.some((e) => e.rel === SHADOW_LOG_REL)) changed = this.pollShadow() || changed;
    changed = this.presence.refresh(events) || changed;
    if (ledger) changed = this.ledger.poll() || changed;
    this.derive(changed);
  }

  /** Where iterations of ended runs come from (omc-top's own samples); set once by the TUI. */
  setSampler(f: RunsDomainOptions['sampledIterations']): void {
    this.opts.sampledIterations = f;
  }

  /**
   * The loop windows omc-top saw (its samples: the TUI's, or a one-shot's read of them): the cost rollup keeps a
   * loop's spend under its mode once OMC 5.5's state file, its only record, is gone. Null: none read.
   */
  setSeenWindows(seen: SeenWindows | null): void {
    this.seen = seen;
  }

  seenWindows = (): SeenWindows | null => this.seen;

  runs = (): readonly RunLine[] => this.runList;

  /** What OMC 5.6 will say at the next session start (stale runs, runs without a closeout). */
  nextSession(): readonly NextSessionFact[] {
    return this.facts;
  }

  /** OMC 5.6's files that exist for a session (shared logs, its feedback baseline, its modes' notepads). */
  omc56Files(sessionId: string | null, modes: readonly string[]): string[] {
    return this.presence.forSession(sessionId, modes);
  }

  /** The budget guard's newest reading for a mode, from state/enforcement/shadow.jsonl. */
  budgetFor(mode: string): BudgetReading | null {
    return this.budgets.get(mode) ?? null;
  }

  /**
   * What a pause of these modes must warn about: the budget guard's newest reading for each, judged with
   * this domain's environment (OMC_RUN_BUDGET_TOKENS, OMC_BUDGET_ENFORCE are the hooks' environment too).
   */
  pauseWarnings(modes: readonly string[]): string[] {
    const env = this.budgetEnv();
    const out: string[] = [];
    for (const m of modes) {
      const w = pauseBudgetWarning(env, this.budgetFor(m));
      if (w) out.push(`${m}: ${w}`);
    }
    return out;
  }

  /** One of OMC's variables as its hooks see it, and where that comes from (claude/hook-env.ts). */
  hookSetting(name: string): HookSetting {
    if (this.opts.hookEnv) return this.opts.hookEnv.get(name);
    const v = (this.opts.env ?? process.env)[name];
    return { name, value: v ?? null, source: "omc-top's environment" };
  }

  /** The budget guard's two variables as its hooks see them, in the shape pauseBudgetWarning reads. */
  budgetEnv(): NodeJS.ProcessEnv {
    const out: NodeJS.ProcessEnv = {};
    for (const name of BUDGET_VARS) {
      const v = this.hookSetting(name).value;
      if (v !== null) out[name] = v;
    }
    return out;
  }

  /** Claude's settings or a live Claude's environment changed: the stale runs are judged by the new threshold. */
  hookEnvChanged(): void {
    this.fullScan = true;
    this.derive(true);
  }

  private pollShadow(): boolean {
    const p = this.shadow.poll();
    if (p.kind === 'missing') {
      const had = this.budgets.size > 0;
      this.shadowLines = [];
      this.budgets = new Map();
      return had;
    }
    if (p.kind !== 'lines') return false;
    if (p.reset) this.shadowLines = [];
    if (p.lines.length === 0) return false;
    this.shadowLines = [...this.shadowLines, ...p.lines.map((l) => l.text)].slice(-500);
    this.budgets = latestBudgetByMode(this.shadowLines);
    return true;
  }

  problems(): readonly Problem[] {
    return this.problemList;
  }

  /**
   * Where the history comes from that is there but could not be read (the ledger, or `sessions/` not listed), or
   * null: with it, no run shown is not "no runs yet". Bound, for useSyncExternalStore.
   */
  notRead = (): string | null => this.ledger.notRead() ?? this.summaries.notRead();

  report(): Record<string, unknown> {
    return {
      runs: runsJson(this.runList),
      // A source of runs there but refused (the ledger, `sessions/`): `runs` is not all of them (History says so too).
      runs_not_read: this.notRead(),
      next_session: this.facts.map((f) => ({
        kind: f.kind,
        mode: f.mode,
        session: f.sessionId,
        path: f.path,
        message: f.message,
        action: f.action,
        // The variable the judgement used and where its value came from (Claude's settings, a Claude's environment…).
        ...(f.setting ? { setting: { name: f.setting.name, value: f.setting.value, source: f.setting.source } } : {}),
      })),
    };
  }

  /** Bound, so a view can hand it to useSyncExternalStore with `runs` as the snapshot (a new array per change). */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private derive(changed: boolean): void {
    if (!changed) return;
    // One read per state file per derivation, and only for runs that have no end line.
    const live = new Map<string, Record<string, unknown> | null>();
    const state = (mode: string, sid: string | null) => {
      const k = stateRel(mode, sid);
      if (!live.has(k)) live.set(k, this.liveState(mode, sid));
      return live.get(k) ?? null;
    };
    const runs = deriveRuns({
      ledger: this.ledger.entries(),
      summaries: this.summaries.summaries(),
      isActive: (mode, sid) => state(mode, sid)?.active === true,
    });
    for (const r of runs) {
      const it = r.outcome === 'running' ? state(r.mode, r.sessionId)?.iteration : undefined;
      r.iterations =
        typeof it === 'number' && Number.isFinite(it)
          ? it
          : (this.opts.sampledIterations?.(r.mode, r.sessionId, r.startedMs) ?? null);
    }
    const now = (this.opts.clock ?? Date.now)();
    const threshold = staleThreshold(this.hookSetting('OMC_STALE_RUN_HOURS'));
    const stale = this.staleTracker
      ? this.staleTracker.update(now, threshold, this.fullScan)
      : staleRuns(this.opts.root, now, threshold);
    const closeouts = missingCloseouts(this.ledger.mainEntries(), now);
    this.fullScan = false;
    // The stale runs can be thousands (every loop left running for hours): the tracker keeps their list while
    // they stay the same, and so do the facts and their problem lines here, so a change costs what it changed.
    const factsMoved = stale !== this.staleList || !sameList(closeouts, this.closeouts, factKey);
    const facts = factsMoved ? [...stale, ...closeouts] : this.facts;
    const factProblems = factsMoved ? factsAsProblems(facts) : this.factProblems;
    const ownProblems = [...this.ledger.problems(), ...this.summaries.problems()];
    // Every scan re-judges (staleness moves with the clock), but views repaint only when something they
    // show changed: the same history keeps its array, so a poll tick costs the sessions pane nothing.
    const same =
      sameList(runs, this.runList, runKey) &&
      (!factsMoved || sameList(facts, this.facts, factKey)) &&
      sameList(ownProblems, this.ownProblems, problemKey) &&
      (!factsMoved || sameList(factProblems, this.factProblems, problemKey));
    this.staleList = stale;
    this.closeouts = closeouts;
    if (same) return;
    this.runList = runs;
    this.facts = facts;
    this.factProblems = factProblems;
    this.ownProblems = ownProblems;
    this.problemList = [...ownProblems, ...factProblems];
    for (const l of this.listeners) l();
  }

  private liveState(mode: string, sessionId: string | null): Record<string, unknown> | null {
    if (sessionId !== null && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/.test(sessionId)) return null;
    const r = readJsonSync(this.opts.root, stateRel(mode, sessionId));
    return r.ok ? obj(r.value) : null;
  }
}

const runKey = (r: RunLine) =>
  [
    r.mode,
    r.sessionId,
    r.startedMs,
    r.endedMs,
    r.outcome,
    r.closeoutWritten,
    r.iterations,
    r.endedBy,
    r.reason,
    r.where.join(','),
  ].join('|');

const factKey = (f: NextSessionFact) => `${f.kind}|${f.path}|${f.message}`;
const problemKey = (p: Problem) => `${p.severity}|${p.path}|${p.message}`;

function sameList<T>(a: readonly T[], b: readonly T[], key: (x: T) => string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (key(a[i] as T) !== key(b[i] as T)) return false;
  return true;
}
