/**
 * Every loop of a project in one list, OMC's and Claude Code's own side by
 * side, with what each really costs: OMC mode loops (active mode files),
 * `/goal` (a session-scoped Stop hook), `/loop` jobs (CronCreate /
 * ScheduleWakeup, alive only with their process), background jobs
 * (`claude --bg`). Two facts cut across them: a session where two Stop hooks
 * compete (an enforced OMC loop and an active /goal: "why didn't it stop" has
 * two answers), and a loop held by the plan's rate limit (OMC's wait daemon or
 * its usage cache say until when). Pure: from the store's snapshots.
 */
import type { BgJob } from '../claude/bg-jobs.js';
import { encodeProjectDir } from '../claude/config-dir.js';
import type { ClaudeSessionView, ClaudeSnapshot, ProcessView } from '../claude/model.js';
import { liveJobs, nextRunMs, type GoalFacts, type ScheduledJob } from '../claude/native-loops.js';
import type { ModelPrice } from '../claude/prices.js';
import type { SessionView, SessionsSnapshot } from '../sessions/model.js';
import { sessionIndex } from '../sessions/view-index.js';
import { compareSessions } from '../sessions/derive.js';
import { lowerBound, PATCH_MAX, patchSorted } from '../sessions/sorted-views.js';
import { modeSummary } from '../sessions/summary.js';
import type { QuotaSnapshot } from './quota-domain.js';
import { judgeUsage } from './quota.js';
import { sessionSpend, spendUnknown, type SessionSpend } from './spend.js';

/** A goal or job that ended this recently still shows (what just happened), then leaves the list. */
export const RECENT_END_MS = 30 * 60_000;

export type LoopKind = 'omc' | 'goal' | 'loop' | 'bg';

export interface LoopRow {
  key: string;
  kind: LoopKind;
  sessionId: string | null;
  /** "ralph 3/100 · ultrawork", "/goal", "/loop", "bg job". */
  label: string;
  /** What keeps it going: the condition, the prompt, the job's words. */
  detail: string;
  /** Its state in a word or two: enforced, active, paused, met, failed, cleared, next 14:05, working, stopped… */
  state: string;
  /** When it runs next (a /loop job), epoch ms. */
  nextMs: number | null;
  process: ProcessView | null;
  spend: SessionSpend | null;
  /** Why its spend cannot be known (its transcript cannot be read: spend.ts spendUnknown), else null. */
  spendUnknown?: string | null;
  /** The session also has the other kind of Stop hook active. */
  competing: boolean;
  rateLimit: RateLimitNote | null;
  /** It is over (met, failed, stopped, ended with its process): shown a while, dimmed. */
  ended: boolean;
  /** An OMC row's session: a view words its state as the Sessions pane does (its status, a cancel's countdown). */
  session?: SessionView;
}

export interface RateLimitNote {
  untilMs: number;
  /** Who says so. */
  by: 'wait daemon' | 'usage cache';
  /** OMC's wait daemon is alive and its last poll listed this loop's tmux pane: it will send it "1 Enter". */
  daemonResumes: boolean;
  /** OMC's wait daemon is alive (it resumes only panes it saw blocked). */
  daemonAlive: boolean;
}

/** The plan is rate-limited now (a window at 100 %), and until when, from OMC's files; null when not known to be. */
export function planLimit(q: QuotaSnapshot | null, now: number): { untilMs: number; by: RateLimitNote['by'] } | null {
  const d = q?.daemon;
  if (d?.alive && d.state?.limited && d.state.nextResetMs !== null && d.state.nextResetMs > now)
    return { untilMs: d.state.nextResetMs, by: 'wait daemon' };
  if (q?.cache) {
    const j = judgeUsage(q.cache, now, q.pollMs);
    if (j.limitedUntilMs !== null) return { untilMs: j.limitedUntilMs, by: 'usage cache' };
  }
  return null;
}

/** The note for a loop whose process is not busy while the plan is limited. */
export function rateLimitFor(q: QuotaSnapshot | null, p: ProcessView | null, now: number): RateLimitNote | null {
  if (p?.status === 'busy' || p?.status === 'gone') return null;
  const lim = planLimit(q, now);
  if (!lim) return null;
  const d = q?.daemon;
  const pane = p?.tmux ? /\.(%\d+)$/.exec(p.tmux)?.[1] : undefined;
  return {
    ...lim,
    daemonAlive: d?.alive === true,
    daemonResumes:
      d?.alive === true && pane !== undefined && (d.state?.blockedPanes.some((b) => b.id === pane) ?? false),
  };
}

const activeGoal = (g: GoalFacts | null) => g !== null && g.state === 'active';

/** An enforced OMC loop and an active /goal in one session: two Stop hooks that can each keep it going. */
export function competingStopHooks(s: SessionView | null, c: ClaudeSessionView | undefined): string | null {
  const goal = c?.transcript?.facts.native.goal ?? null;
  const omc = s?.modes.find((m) => m.enforced);
  return omc && activeGoal(goal) ? `${omc.mode} (OMC) and /goal "${goal?.condition}"` : null;
}

function goalState(g: GoalFacts): string {
  if (g.state !== 'active') return g.state;
  return g.paused ? 'paused (block cap)' : g.checks > 0 ? `active · ${g.checks} unmet` : 'active';
}

function jobState(j: ScheduledJob, now: number): { state: string; next: number | null } {
  const next = nextRunMs(j, now);
  if (j.deleted) return { state: 'deleted', next: null };
  return { state: next === null ? 'due' : 'scheduled', next };
}

export interface LoopInputs {
  sessions: readonly SessionView[];
  /**
   * The snapshot `sessions` is from, when the caller has it: sessions are then looked up through its index
   * (view-index.ts) instead of a Set and a Map of every session made at each call.
   */
  snapshot?: SessionsSnapshot;
  claude: ClaudeSnapshot;
  jobs: readonly BgJob[];
  quota: QuotaSnapshot | null;
  prices: Readonly<Record<string, ModelPrice>> | undefined;
  projectDir: string | null;
  now: number;
}

/** The Claude sessions of this project: OMC's, and any whose process or transcript is in the project. */
export function projectClaudeSessions(i: LoopInputs): [string, ClaudeSessionView][] {
  const omc = omcSessionOf(i);
  const prefix = i.projectDir ? `projects/${encodeProjectDir(i.projectDir)}/` : null;
  const out: [string, ClaudeSessionView][] = [];
  for (const [sid, c] of i.claude.bySession) {
    const cwd = c.process?.cwd ?? null;
    const mine =
      omc(sid) !== null ||
      (i.projectDir !== null && cwd !== null && (cwd === i.projectDir || cwd.startsWith(`${i.projectDir}/`))) ||
      (prefix !== null && c.transcript?.rel.startsWith(prefix) === true);
    if (mine) out.push([sid, c]);
  }
  return out;
}

/** OMC's session (a session directory, not the session-less row) with this id, or null. */
function omcSessionOf(i: LoopInputs): (sid: string) => SessionView | null {
  if (i.snapshot) {
    const byKey = sessionIndex(i.snapshot).byKey;
    return (sid) => {
      const s = byKey.get(sid);
      return s?.kind === 'session' ? s : null;
    };
  }
  const byId = new Map(i.sessions.filter((s) => s.kind === 'session').map((s) => [s.id, s]));
  return (sid) => byId.get(sid) ?? null;
}

/** A session's OMC row (its active modes as one loop), or null when no mode is active. */
function omcRow(i: LoopInputs, s: SessionView, c: ClaudeSessionView | undefined): LoopRow | null {
  const modes = s.modes.filter((m) => m.active);
  if (modes.length === 0) return null;
  const p = c?.process ?? null;
  const enforced = modes.some((m) => m.enforced);
  return {
    key: `omc|${s.id}`,
    kind: 'omc',
    sessionId: s.kind === 'session' ? s.id : null,
    label: modes.map((m) => modeSummary(m, false)).join(' · '),
    detail: modes.find((m) => m.prompt)?.prompt ?? '',
    state: enforced ? 'enforced' : s.status,
    nextMs: null,
    process: p,
    spend: sessionSpend(c, i.prices, i.now),
    spendUnknown: spendUnknown(c),
    competing: competingStopHooks(s, c) !== null,
    rateLimit: enforced ? rateLimitFor(i.quota, p, i.now) : null,
    ended: false,
    session: s,
  };
}

/**
 * The OMC row of a session with no Claude Code process or transcript, while the plan is not rate-limited: a
 * function of its view alone, so it is made once per view (views are immutable and kept while unchanged), and a
 * change costs the rows of the sessions it touched (with the Cost pane open at 10,000 sessions, every change
 * made 10,000 rows again). Null: no active mode.
 */
const plainRows = new WeakMap<SessionView, LoopRow | null>();

function plainRow(i: LoopInputs, s: SessionView): LoopRow | null {
  let row = plainRows.get(s);
  if (row === undefined) plainRows.set(s, (row = omcRow(i, s, undefined)));
  return row;
}

/** The plain OMC rows of a domain's snapshot (every session with an active mode, in the snapshot's order). */
interface PlainList {
  version: number;
  /** The sessions the rows are of, in the snapshot's order (compareSessions). */
  views: SessionView[];
  rows: LoopRow[];
}

/** Per sessions domain (SessionsSnapshot.lineage), patched by each snapshot's delta. */
const plainLists = new WeakMap<object, PlainList>();

/**
 * Every session's plain OMC row in the snapshot's order, kept per domain and patched by the delta: a change costs
 * the rows it touched (found by binary search), not a pass over every session.
 */
function plainList(i: LoopInputs, snap: SessionsSnapshot): PlainList {
  const kept = snap.lineage ? plainLists.get(snap.lineage) : undefined;
  if (kept && kept.version === snap.version) return kept;
  const delta = snap.delta;
  if (kept && delta?.gone && delta.from === kept.version && delta.gone.length + delta.changed.length <= PATCH_MAX) {
    const patched = patchSorted(
      kept.views,
      kept.rows,
      delta.gone,
      delta.changed,
      (v) => plainRow(i, v),
      compareSessions,
    );
    const next = { version: snap.version, views: patched?.items ?? kept.views, rows: patched?.values ?? kept.rows };
    if (snap.lineage) plainLists.set(snap.lineage, next);
    return next;
  }
  const fresh: PlainList = { version: snap.version, views: [], rows: [] };
  for (const s of snap.sessions) {
    const row = plainRow(i, s);
    if (!row) continue;
    fresh.views.push(s);
    fresh.rows.push(row);
  }
  if (snap.lineage) plainLists.set(snap.lineage, fresh);
  return fresh;
}

/**
 * OMC's rows, in the sessions' order. While the plan is not rate-limited and the snapshot is known: the kept plain
 * rows, with the rows of the few sessions Claude Code knows made again in their places (their process, spend and
 * /goal change with time). Else every session's row, made now.
 */
function omcRows(i: LoopInputs, limited: boolean): LoopRow[] {
  if (!limited && i.snapshot && i.snapshot.sessions === i.sessions) {
    const list = plainList(i, i.snapshot);
    let rows: LoopRow[] | null = null;
    const index = sessionIndex(i.snapshot).byKey;
    for (const [sid, c] of i.claude.bySession) {
      const s = index.get(sid);
      if (s?.kind !== 'session') continue;
      const at = lowerBound(list.views, s, compareSessions);
      if (list.views[at] !== s) continue; // no active mode: no row
      const row = omcRow(i, s, c);
      rows ??= list.rows.slice();
      if (row) rows[at] = row;
    }
    return rows ?? list.rows;
  }
  const rows: LoopRow[] = [];
  for (const s of i.sessions) {
    const c = s.kind === 'session' ? i.claude.bySession.get(s.id) : undefined;
    const row = c === undefined && !limited ? plainRow(i, s) : omcRow(i, s, c);
    if (row) rows.push(row);
  }
  return rows;
}

/**
 * Every loop of the project, live ones first (OMC's, then Claude Code's), then those that ended lately. The list
 * may be one this module keeps (the plain OMC rows of the snapshot): read it, do not change it.
 */
export function projectLoops(i: LoopInputs): readonly LoopRow[] {
  const limited = planLimit(i.quota, i.now) !== null;
  const omc = omcRows(i, limited);
  // Claude Code's own loops and the background jobs: a few, sorted on their own (OMC's rows never end: first).
  const rows: LoopRow[] = [];
  const omcSession = omcSessionOf(i);
  for (const [sid, c] of projectClaudeSessions(i)) {
    const f = c.transcript?.facts;
    if (!f) continue;
    const p = c.process;
    const alive = p !== null && p.status !== 'gone';
    const s = omcSession(sid);
    const g = f.native.goal;
    if (g) {
      const endMs = g.lastCheckMs ?? g.setMs;
      const live = g.state === 'active' && (alive || p === null);
      const recent = endMs !== null && i.now - endMs < RECENT_END_MS;
      if (live || recent)
        rows.push({
          key: `goal|${sid}`,
          kind: 'goal',
          sessionId: sid,
          label: '/goal',
          detail: g.condition,
          state: live ? goalState(g) : g.state === 'active' ? 'ended with its process' : g.state,
          nextMs: null,
          process: p,
          spend: sessionSpend(c, i.prices, i.now),
          spendUnknown: spendUnknown(c),
          competing: competingStopHooks(s, c) !== null,
          rateLimit: live ? rateLimitFor(i.quota, p, i.now) : null,
          ended: !live,
        });
    }
    const jobs = alive ? liveJobs(f.native, i.now) : [];
    for (const j of jobs) {
      const st = jobState(j, i.now);
      rows.push({
        key: `loop|${sid}|${j.id}`,
        kind: 'loop',
        sessionId: sid,
        label: j.kind === 'wakeup' ? '/loop (dynamic)' : '/loop',
        detail: `${j.cron ?? j.human ?? ''}${j.prompt ? ` → ${j.prompt}` : ''}`.trim(),
        state: `${st.state}${j.fires > 0 ? ` · fired ${j.fires}×` : ''}`,
        nextMs: st.next,
        process: p,
        spend: sessionSpend(c, i.prices, i.now),
        spendUnknown: spendUnknown(c),
        competing: false,
        rateLimit: rateLimitFor(i.quota, p, i.now),
        ended: false,
      });
    }
  }
  for (const j of i.jobs) {
    const c = j.sessionId ? i.claude.bySession.get(j.sessionId) : undefined;
    const over = j.state === 'stopped' || j.state === 'done' || j.state === 'failed';
    const endMs = j.endedMs ?? j.updatedMs;
    if (over && (endMs === null || i.now - endMs >= RECENT_END_MS)) continue;
    rows.push({
      key: `bg|${j.id}`,
      kind: 'bg',
      sessionId: j.sessionId,
      label: `bg job ${j.id}`,
      detail: j.prompt,
      state: `${j.state}${j.detail && j.detail !== j.state ? ` · ${j.detail}` : ''}`,
      nextMs: null,
      process: c?.process ?? null,
      spend: sessionSpend(c, i.prices, i.now),
      spendUnknown: spendUnknown(c),
      competing: false,
      rateLimit: over ? null : rateLimitFor(i.quota, c?.process ?? null, i.now),
      ended: over,
    });
  }
  const order: Record<LoopKind, number> = { omc: 0, goal: 1, loop: 2, bg: 3 };
  rows.sort((a, b) => Number(a.ended) - Number(b.ended) || order[a.kind] - order[b.kind]);
  return rows.length === 0 ? omc : omc.concat(rows);
}
