/**
 * Spend rolled up: per run (the History pane), per mode, per day and for the
 * project, from each session's spend timeline (usage.ts) and the loops' time
 * windows (the run history, the sessions' own mode files for runs OMC 5.5
 * logs nowhere, and the windows omc-top saw those in once the files are gone). Every figure is a sum of the same buckets, so the
 * rollups add up: the modes' rows and the days' rows each sum to the project
 * total, on every surface (TUI, --json, fleet). A bucket is placed by its
 * middle, so a run's edges are exact to one bucket (one minute in a session's
 * first hour and a half, coarser later; the run detail says which). Pure.
 */
import type { ClaudeSessionView, ClaudeSnapshot } from '../claude/model.js';
import type { TranscriptFacts } from '../claude/transcript-facts.js';
import { estimate, type Estimate, type ModelPrice } from '../claude/prices.js';
import { addUsage, usageTokens, type UsageByModel } from '../claude/usage.js';
import type { RunLine } from '../runs/history.js';
import type { SeenWindows } from '../runs/samples.js';
import type { SessionView } from '../sessions/model.js';
import type { SessionIndex } from '../sessions/view-index.js';
import { spendUnknown, unreadOf, utcDay } from './spend.js';

/** Spend outside every loop's window (a plain prompt, the time before a loop started). */
export const NO_LOOP = '(no loop)';
/** The day row of usage with no timestamp. */
export const UNDATED = 'undated';
/** The day row that holds every day past ROLLUP_DAYS. */
export const EARLIER = 'earlier';
/** Days kept in the per-day rollup. */
export const ROLLUP_DAYS = 14;

export interface Window {
  mode: string;
  fromMs: number;
  /** null: still running. */
  toMs: number | null;
}

/** The run's key in `runs`: mode, session and start (a run has no id of its own). */
export const runKey = (r: Pick<RunLine, 'mode' | 'sessionId' | 'startedMs' | 'endedMs'>) =>
  `${r.mode}|${r.sessionId ?? ''}|${r.startedMs ?? ''}|${r.endedMs ?? ''}`;

export interface Spent {
  estimate: Estimate;
  tokens: number;
}

export interface RunSpent extends Spent {
  /** The width of the buckets at the run's edges (ms): the run's figure is exact to this at each end. */
  resolutionMs: number;
}

export interface CostRollup {
  /**
   * `sessions` counted; `notPriced`: OMC's sessions whose transcript is there but cannot be read (spend.ts
   * spendUnknown), left out of every figure and said beside them, never counted as $0. `unread`: counted sessions
   * whose transcript is read only in part (spend.ts unreadOf): every figure here is a lower bound for good then.
   */
  project: Spent & { sessions: number; notPriced: number; unread: number };
  /** Newest first, at most ROLLUP_DAYS days with usage. */
  byDay: (Spent & { day: string })[];
  /** Most spent first; a bucket where two loops ran goes to "ralph+ultrawork". */
  byMode: (Spent & { mode: string })[];
  runs: Map<string, RunSpent>;
}

function spent(by: UsageByModel, prices: Readonly<Record<string, ModelPrice>> | undefined): Spent {
  return { estimate: estimate(by, prices), tokens: usageTokens(by) };
}

/**
 * Each session's loop windows: its runs from the history (ledger or ended-session summary), then the
 * modes its state files hold that no run line covers (OMC 5.5 has no ledger: a live loop is only there), then
 * the windows omc-top saw its loops in (`seen`): an OMC 5.5 loop's file is deleted by a cancel, and its spend
 * stays under its mode. Overlapping windows of one mode count once (a bucket goes to the set of modes around it).
 */
export function loopWindows(
  s: SessionView,
  runs: readonly RunLine[],
  now: number,
  seen?: SeenWindows | null,
): Window[] {
  const out: Window[] = [];
  for (const r of runs) {
    if (r.sessionId !== s.id) continue;
    const from = r.startedMs ?? s.startedMs;
    if (from === null) continue;
    out.push({ mode: r.mode, fromMs: from, toMs: r.outcome === 'running' ? null : (r.endedMs ?? now) });
  }
  for (const m of s.modes) {
    if (m.startedMs === null) continue;
    const to = m.active ? null : (m.updatedMs ?? m.startedMs);
    const covered = out.some((w) => w.mode === m.mode && w.fromMs <= (to ?? now) && (w.toMs ?? now) >= m.startedMs!);
    if (!covered) out.push({ mode: m.mode, fromMs: m.startedMs, toMs: to });
  }
  if (seen && s.kind === 'session') out.push(...seen.of(s.id));
  return out;
}

const inside = (w: { fromMs: number; toMs: number | null }, t: number) =>
  t >= w.fromMs && (w.toMs === null || t < w.toMs);

/** OMC's sessions that have transcript facts, and whether a session id is one of OMC's. */
function sessionsWithFacts(
  sessions: readonly SessionView[],
  claude: ClaudeSnapshot,
  index: SessionIndex | undefined,
): { pairs: [SessionView, TranscriptFacts][]; notPriced: number; unread: number; held: (sid: string) => boolean } {
  const pairs: [SessionView, TranscriptFacts][] = [];
  let notPriced = 0;
  let unread = 0;
  const add = (s: SessionView, c: ClaudeSessionView | undefined) => {
    const f = c?.transcript?.facts;
    if (!f) return;
    if (spendUnknown(c) !== null) notPriced += 1;
    else {
      pairs.push([s, f]);
      if (unreadOf(c) !== null) unread += 1;
    }
  };
  if (index) {
    // Claude's sessions are a few; OMC's may be 10,000: look each of the few up rather than pass over the many.
    for (const [sid, c] of claude.bySession) {
      const s = index.byKey.get(sid);
      if (s?.kind === 'session') add(s, c);
    }
    return { pairs, notPriced, unread, held: (sid) => index.byKey.get(sid)?.kind === 'session' };
  }
  for (const s of sessions) if (s.kind === 'session') add(s, claude.bySession.get(s.id));
  const held = new Set(sessions.filter((s) => s.kind === 'session').map((s) => s.id));
  return { pairs, notPriced, unread, held: (sid) => held.has(sid) };
}

/**
 * `index`: the sessions' index (view-index.ts), when the caller has the snapshot: the rollup then costs Claude's
 * sessions and the run lines, not a pass over every OMC session.
 */
export function costRollup(
  sessions: readonly SessionView[],
  runs: readonly RunLine[],
  claude: ClaudeSnapshot,
  prices: Readonly<Record<string, ModelPrice>> | undefined,
  now: number,
  index?: SessionIndex,
  seen?: SeenWindows | null,
): CostRollup {
  const project: UsageByModel = new Map();
  const days = new Map<string, UsageByModel>();
  const modes = new Map<string, UsageByModel>();
  const runUsage = new Map<string, { by: UsageByModel; resolutionMs: number }>();
  let counted = 0;
  const addRunUsage = (
    mine: readonly RunLine[],
    sessionStart: number | null,
    mid: number,
    by: UsageByModel,
    width: number,
  ) => {
    for (const r of mine) {
      const from = r.startedMs ?? sessionStart;
      if (from === null) continue;
      const to = r.outcome === 'running' ? null : (r.endedMs ?? now);
      if (!inside({ fromMs: from, toMs: to }, mid)) continue;
      const k = runKey(r);
      const u = runUsage.get(k) ?? runUsage.set(k, { by: new Map(), resolutionMs: width }).get(k)!;
      addUsage(u.by, by);
    }
  };
  const runsBySession = new Map<string, RunLine[]>();
  for (const r of runs)
    if (r.sessionId !== null)
      (runsBySession.get(r.sessionId) ?? runsBySession.set(r.sessionId, []).get(r.sessionId))?.push(r);
  const { pairs, notPriced, unread, held } = sessionsWithFacts(sessions, claude, index);
  for (const [s, f] of pairs) {
    counted += 1;
    addUsage(project, f.byModel);
    const mine = runsBySession.get(s.id) ?? [];
    const windows = loopWindows(s, mine, now, seen);
    const width = f.timeline.widthMs;
    for (const b of f.timeline.list()) {
      const day = utcDay(b.startMs);
      addUsage(days.get(day) ?? days.set(day, new Map()).get(day)!, b.byModel);
      const mid = b.startMs + width / 2;
      const key = [...new Set(windows.filter((w) => inside(w, mid)).map((w) => w.mode))].sort().join('+') || NO_LOOP;
      addUsage(modes.get(key) ?? modes.set(key, new Map()).get(key)!, b.byModel);
      addRunUsage(mine, s.startedMs, mid, b.byModel, width);
    }
    // Usage with no time (no timestamp, or a bucket dropped after 96 days): in the totals, outside any loop.
    if (f.timeline.undated.size > 0) {
      addUsage(days.get(UNDATED) ?? days.set(UNDATED, new Map()).get(UNDATED)!, f.timeline.undated);
      addUsage(modes.get(NO_LOOP) ?? modes.set(NO_LOOP, new Map()).get(NO_LOOP)!, f.timeline.undated);
    }
  }
  // Runs whose session OMC no longer holds (its state is gone): the run still gets its window's cost, but the
  // project, mode and day totals stay the sum of the session rows, as the fleet view adds them.
  for (const [sid, mine] of runsBySession) {
    if (held(sid)) continue;
    const f = claude.bySession.get(sid)?.transcript?.facts;
    if (!f) continue;
    const width = f.timeline.widthMs;
    for (const b of f.timeline.list()) addRunUsage(mine, null, b.startMs + width / 2, b.byModel, width);
  }
  // Newest first; days past ROLLUP_DAYS are folded into one "earlier" row, so the rows still add up.
  const sorted = [...days.entries()].filter(([d]) => d !== UNDATED).sort((a, b) => (a[0] < b[0] ? 1 : -1));
  const older: UsageByModel = new Map();
  for (const [, by] of sorted.slice(ROLLUP_DAYS)) addUsage(older, by);
  const byDay = sorted.slice(0, ROLLUP_DAYS).map(([day, by]) => ({ day, ...spent(by, prices) }));
  if (older.size > 0) byDay.push({ day: EARLIER, ...spent(older, prices) });
  if (days.has(UNDATED)) byDay.push({ day: UNDATED, ...spent(days.get(UNDATED)!, prices) });
  const byMode = [...modes.entries()]
    .map(([mode, by]) => ({ mode, ...spent(by, prices) }))
    .sort((a, b) => b.estimate.usd - a.estimate.usd || b.tokens - a.tokens || (a.mode < b.mode ? -1 : 1));
  const runSpent = new Map<string, RunSpent>();
  for (const [k, u] of runUsage) runSpent.set(k, { ...spent(u.by, prices), resolutionMs: u.resolutionMs });
  return {
    project: { ...spent(project, prices), sessions: counted, notPriced, unread },
    byDay,
    byMode,
    runs: runSpent,
  };
}

/** Memoised on its inputs' identities (the snapshots are immutable) and the minute. */
const memo: { key: unknown[]; value: CostRollup | null } = { key: [], value: null };
export function costRollupMemo(
  sessions: readonly SessionView[],
  runs: readonly RunLine[],
  claude: ClaudeSnapshot,
  prices: Readonly<Record<string, ModelPrice>> | undefined,
  now: number,
  index?: SessionIndex,
  seen?: SeenWindows | null,
): CostRollup {
  const key = [sessions, runs, claude, prices, Math.floor(now / 60_000), seen ?? null, seen?.version ?? 0];
  if (memo.value && memo.key.every((k, i) => k === key[i])) return memo.value;
  memo.key = key;
  memo.value = costRollup(sessions, runs, claude, prices, now, index, seen);
  return memo.value;
}

/** Sums spends (the fleet's project line over its rows). */
export function addEstimates(list: readonly Estimate[]): Estimate {
  const out: Estimate = { usd: 0, priced: [], unpriced: [] };
  const priced = new Map<string, { model: string; usd: number; source: 'config' | 'built-in'; tokens: number }>();
  const unpriced = new Map<string, { model: string; tokens: number }>();
  for (const e of list) {
    out.usd += e.usd;
    for (const p of e.priced) {
      const cur = priced.get(p.model) ?? { ...p, usd: 0, tokens: 0 };
      cur.usd += p.usd;
      cur.tokens += p.tokens;
      priced.set(p.model, cur);
    }
    for (const u of e.unpriced) {
      const cur = unpriced.get(u.model) ?? { model: u.model, tokens: 0 };
      cur.tokens += u.tokens;
      unpriced.set(u.model, cur);
    }
  }
  out.priced = [...priced.values()];
  out.unpriced = [...unpriced.values()];
  return out;
}
