/**
 * The --json fields of "what it costs" (issue 26), from the same functions the
 * TUI draws with, so the figures are the same on every surface: per session
 * `agent.spend` (per model, priced or "unpriced"), `agent.subagents` (per
 * type), `agent.native_loops`; per run `usd_est`; and a top-level `cost`
 * (price source, the project's spend per mode and per day, the loops with
 * their burn rates, the plan quota, the wait daemon, the budget guard).
 */
import type { ClaudeSessionView } from '../store/claude/model.js';
import { modelShare, PRICE_SOURCE, type Estimate } from '../store/claude/prices.js';
import type { UsageByModel } from '../store/claude/usage.js';
import { nextRunMs } from '../store/claude/native-loops.js';
import { costRollup, runKey, type Spent } from '../store/cost/rollup.js';
import { competingStopHooks, projectLoops, type LoopRow } from '../store/cost/loops.js';
import { sessionRateLimit } from '../store/cost/rate-limit-words.js';
import { judgeUsage, resetPassed, type Window } from '../store/cost/quota.js';
import { sessionSpend, spendUnknown, unreadOf } from '../store/cost/spend.js';
import type { OmcStore } from '../store/store.js';
import type { ModelPrice } from '../store/claude/prices.js';

const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString();
const usd = (n: number) => Math.round(n * 1e9) / 1e9;

export function estimateJson(e: Estimate): Record<string, unknown> {
  return {
    // null (not 0) when nothing was priced: unpriced usage is never a zero cost.
    usd_est: e.priced.length === 0 && e.unpriced.length > 0 ? null : usd(e.usd),
    unpriced_models: e.unpriced.map((u) => ({ model: u.model, tokens: u.tokens })),
  };
}

const spentJson = (s: Spent) => ({ tokens: s.tokens, ...estimateJson(s.estimate) });

/** What of a session is still being read, both facts (agent.spend's fields), and whether part of it never is. */
interface ReadingFlags {
  subagents: boolean;
  transcript: boolean;
  unread: boolean;
}
const NOT_READING: Readonly<ReadingFlags> = { subagents: false, transcript: false, unread: false };
const readingFlags = (c: ClaudeSessionView | undefined): ReadingFlags => ({
  subagents: c?.transcript?.subagentsReading === true,
  transcript: c?.transcript?.transcriptReading === true,
  unread: unreadOf(c) !== null,
});
/** `lower_bound`: any of them, the one field a script reads to know the figure is not the whole. */
const readingJson = (r: Readonly<ReadingFlags>) => ({
  subagents_reading: r.subagents,
  transcript_reading: r.transcript,
  lower_bound: r.subagents || r.transcript || r.unread,
});

function byModelJson(by: UsageByModel, e: Estimate, prices: Readonly<Record<string, ModelPrice>>) {
  return [...by.entries()].map(([model, u]) => {
    // As the session detail says it (modelShare): "unpriced" here is in `unpriced_models` too.
    const p = modelShare(model, e, prices);
    return {
      model,
      responses: u.responses,
      input: u.input,
      output: u.output,
      cache_read: u.cacheRead,
      cache_write: u.cacheWrite,
      cache_write_1h: u.cacheWrite1h,
      web_searches: u.webSearches,
      usd_est: p ? usd(p.usd) : null,
      price: p ? p.source : 'unpriced',
    };
  });
}

function sessionCostJson(c: ClaudeSessionView | undefined, prices: Readonly<Record<string, ModelPrice>>, now: number) {
  const f = c?.transcript?.facts;
  const sp = sessionSpend(c, prices, now);
  const subs = c?.transcript?.subagents ?? null;
  return {
    spend: sp &&
      f && {
        tokens: sp.tokens,
        ...estimateJson(sp.estimate),
        today_tokens: sp.todayTokens,
        today_usd_est: estimateJson(sp.today).usd_est,
        burn_tokens_per_min: sp.burnPerMin,
        burn_usd_per_hour_est: sp.burnUsdPerHour === null ? null : usd(sp.burnUsdPerHour),
        // true while subagent files, or the rest of the transcript, are still being read (a live monitor reads them
        // after start-up): a lower bound.
        ...readingJson(readingFlags(c)),
        // The byte the counted part of the transcript starts at (0: read from its start); the rest is never read.
        partial_from: sp.unread?.fromByte ?? 0,
        // Lines over 4 MB in the transcript and its subagent files, not read: their usage is in no figure.
        lines_not_read: sp.unread?.longLines ?? 0,
        // Subagent files over 64 MB read from their last 64 MB only, and the bytes before those parts (never read).
        subagent_files_partial: sp.unread?.subagentFiles ?? 0,
        subagent_bytes_not_read: sp.unread?.subagentBytes ?? 0,
        by_model: byModelJson(f.byModel, sp.estimate, prices),
      },
    // Why the spend cannot be known (its transcript is there but cannot be read): `spend` is then null, not $0.
    spend_unknown: spendUnknown(c),
    subagents: subs && {
      count: subs.agents.length,
      not_counted: subs.notCounted,
      input: subs.tokens.input,
      output: subs.tokens.output,
      cache_read: subs.tokens.cacheRead,
      cache_write: subs.tokens.cacheWrite,
      by_type: subs.byType.map((t) => ({
        type: t.type,
        count: t.count,
        input: t.tokens.input,
        output: t.tokens.output,
        cache_read: t.tokens.cacheRead,
        cache_write: t.tokens.cacheWrite,
        models: [...t.byModel.keys()],
      })),
      agents: subs.agents.map((a) => ({
        id: a.id,
        type: a.meta.type,
        model: a.meta.model,
        description: a.meta.description,
        finished: a.meta.finished,
        responses: a.facts.messages,
        input: a.facts.tokens.input,
        output: a.facts.tokens.output,
        cache_read: a.facts.tokens.cacheRead,
        cache_write: a.facts.tokens.cacheWrite,
        started_at: iso(a.facts.firstMs),
        last_at: iso(a.facts.lastMs),
        problem: a.problem,
      })),
    },
    native_loops: f && {
      goal: f.native.goal && {
        condition: f.native.goal.condition,
        state: f.native.goal.state,
        paused: f.native.goal.paused,
        set_at: iso(f.native.goal.setMs),
        unmet_checks: f.native.goal.checks,
        last_check_at: iso(f.native.goal.lastCheckMs),
        reason: f.native.goal.reason,
        summary: f.native.goal.summary && {
          iterations: f.native.goal.summary.iterations,
          duration_ms: f.native.goal.summary.durationMs,
          tokens: f.native.goal.summary.tokens,
        },
      },
      jobs: f.native.jobs.map((j) => ({
        id: j.id,
        kind: j.kind,
        cron: j.cron,
        schedule: j.human,
        prompt: j.prompt,
        recurring: j.recurring,
        fires: j.fires,
        last_fire_at: iso(j.lastFireMs),
        next_run_at: iso(nextRunMs(j, now)),
        deleted: j.deleted,
        alive_with_process: c?.process ? c.process.status !== 'gone' : null,
      })),
    },
  };
}

function budgetJson(s: { modes: { mode: string }[] } | undefined, store: OmcStore) {
  for (const m of s?.modes ?? []) {
    const b = store.runs.budgetFor(m.mode);
    if (b) return { mode: m.mode, spend: b.spend, budget: b.budget, pct: b.pct, outcome: b.outcome, at: iso(b.tsMs) };
  }
  return null;
}

/** A window whose reset time has passed says no percentage (it is from before the reset): `reset_passed`. */
const windowJson = (w: Window | null, now: number) =>
  w && {
    percent: resetPassed(w, now) ? null : w.percent,
    resets_at: iso(w.resetsMs),
    reset_passed: resetPassed(w, now),
  };

/** Adds the cost fields to a --json document built by buildJsonReport (+ addClaudeToReport). */
/** Every loop of the store's project (OMC's, Claude Code's own, background jobs), as the Cost pane and `--json` list them. */
export function storeLoops(
  store: OmcStore,
  prices: Readonly<Record<string, ModelPrice>>,
  now: number,
): readonly LoopRow[] {
  const snapshot = store.sessions.getSnapshot();
  return projectLoops({
    sessions: snapshot.sessions,
    snapshot,
    claude: store.claude.getSnapshot(),
    jobs: store.bgJobs.getSnapshot().jobs,
    quota: store.quota.getSnapshot(),
    prices,
    projectDir: store.projectDir,
    now,
  });
}

export function addCostToReport(
  doc: Record<string, unknown>,
  store: OmcStore,
  prices: Readonly<Record<string, ModelPrice>>,
  now: number,
): void {
  const sessions = store.sessions.getSnapshot().sessions;
  const claude = store.claude.getSnapshot();
  const quota = store.quota.getSnapshot();
  const byId = new Map(sessions.map((s) => [s.id, s]));
  for (const row of doc.sessions as Record<string, unknown>[]) {
    const s = byId.get(row.id as string);
    if (!s || s.kind !== 'session') continue;
    const c = claude.bySession.get(s.id);
    const agent = (row.agent ?? null) as Record<string, unknown> | null;
    if (!agent) continue;
    Object.assign(agent, sessionCostJson(c, prices, now));
    const competing = competingStopHooks(s, c);
    agent.competing_stop_hooks = competing;
    // The rows' own reading (store/cost/rate-limit-words.ts), so --json says what every row says.
    const lim = sessionRateLimit(s, c, quota, now);
    agent.rate_limited = lim && {
      until: iso(lim.untilMs),
      by: lim.by,
      wait_daemon_alive: lim.daemonAlive,
      wait_daemon_resumes_it: lim.daemonResumes,
    };
  }
  const runs = store.runs.runs();
  const rollup = costRollup(sessions, runs, claude, prices, now, undefined, store.runs.seenWindows());
  if (Array.isArray(doc.runs))
    (doc.runs as Record<string, unknown>[]).forEach((r, i) => {
      const run = runs[i];
      const sp = run ? rollup.runs.get(runKey(run)) : undefined;
      Object.assign(r, {
        tokens: sp ? sp.tokens : null,
        ...(sp ? estimateJson(sp.estimate) : { usd_est: null, unpriced_models: [] }),
        resolution_ms: sp ? sp.resolutionMs : null,
        // The run's session's subagent files or transcript still being read (as agent.spend says): a lower bound.
        ...readingJson(run ? readingFlags(claude.bySession.get(run.sessionId ?? '')) : NOT_READING),
      });
    });
  // A rollup row is a sum that any session still being read may add to, on any day or mode (its unread lines are
  // not placed yet): while one is, every row says so.
  const reading = { ...NOT_READING };
  for (const s of sessions) {
    const r = readingFlags(claude.bySession.get(s.id));
    reading.subagents ||= r.subagents;
    reading.transcript ||= r.transcript;
    reading.unread ||= r.unread;
  }
  const loops = storeLoops(store, prices, now);
  const judged = quota.cache ? judgeUsage(quota.cache, now, quota.pollMs) : null;
  const d = quota.daemon;
  const tokens = store.runs.hookSetting('OMC_RUN_BUDGET_TOKENS');
  const enforce = store.runs.hookSetting('OMC_BUDGET_ENFORCE');
  doc.cost = {
    prices: { built_in: PRICE_SOURCE, config_overrides: Object.keys(prices) },
    project: {
      sessions: rollup.project.sessions,
      ...spentJson(rollup.project),
      // Sessions whose transcript cannot be read: left out of every figure, never counted as $0; with none counted,
      // the total is unknown (null).
      not_priced_sessions: rollup.project.notPriced,
      ...(rollup.project.sessions === 0 && rollup.project.notPriced > 0 ? { tokens: null, usd_est: null } : {}),
      // Sessions counted whose transcript is read only in part: the figures are a lower bound for good.
      partial_sessions: rollup.project.unread,
      ...readingJson(reading),
    },
    by_mode: rollup.byMode.map((m) => ({ mode: m.mode, ...spentJson(m), ...readingJson(reading) })),
    by_day: rollup.byDay.map((x) => ({ day: x.day, ...spentJson(x), ...readingJson(reading) })),
    loops: loops.map((l) => ({
      kind: l.kind,
      session: l.sessionId,
      label: l.label,
      detail: l.detail,
      state: l.state,
      ended: l.ended,
      next_run_at: iso(l.nextMs),
      process: l.process?.status ?? null,
      competing_stop_hooks: l.competing,
      rate_limited_until: iso(l.rateLimit?.untilMs),
      burn_tokens_per_min: l.spend?.burnPerMin ?? null,
      burn_usd_per_hour_est: l.spend?.burnUsdPerHour === null || !l.spend ? null : usd(l.spend.burnUsdPerHour),
      tokens: l.spend?.tokens ?? null,
      ...(l.spend ? estimateJson(l.spend.estimate) : { usd_est: null, unpriced_models: [] }),
      spend_unknown: l.spendUnknown ?? null,
      lower_bound: l.spend?.partial ?? false,
      budget: budgetJson(l.kind === 'omc' && l.sessionId ? byId.get(l.sessionId) : undefined, store),
    })),
    quota: judged && {
      file: `${quota.configDir}/${judged.cache.rel}`,
      source: judged.cache.source,
      written_at: iso(judged.cache.writtenMs),
      age_ms: judged.ageMs,
      last_success_at: iso(judged.cache.lastSuccessMs),
      data_age_ms: judged.dataAgeMs,
      // OMC serves the data only while its last success is under 15 minutes old: null past that.
      five_hour: windowJson(judged.data?.fiveHour ?? null, now),
      weekly: windowJson(judged.data?.weekly ?? null, now),
      monthly: windowJson(judged.data?.monthly ?? null, now),
      scoped: (judged.data?.scoped ?? []).map((s) => ({ label: s.label, ...windowJson(s.window, now) })),
      extra_usage: judged.data?.extraUsage
        ? { spent_usd: judged.data.extraUsage.spentUsd, limit_usd: judged.data.extraUsage.limitUsd }
        : null,
      error: judged.cache.error,
      served_stale: judged.servedStale,
      not_refreshed: judged.notRefreshed,
      usage_api_backoff_until: iso(judged.cache.apiBackoffUntilMs),
      limited_until: iso(judged.limitedUntilMs),
    },
    wait_daemon: d && {
      dir: d.dir,
      pid: d.pid,
      alive: d.alive,
      last_poll_at: iso(d.state?.lastPollMs),
      limited: d.state?.limited ?? null,
      next_reset_at: iso(d.state?.nextResetMs),
      blocked_panes: d.state?.blockedPanes.map((p) => ({ id: p.id, session: p.session })) ?? [],
      note: 'blockedPanes is one poll old at best and usually empty (OMC 5.5.0 drops a static limit screen after one poll)',
    },
    budget_guard: {
      // OMC 5.6's guard is configured only through the hooks' environment: as they see it, and where from.
      run_budget_tokens: Number(tokens.value) > 0 ? Number(tokens.value) : null,
      enforce: enforce.value ?? (Number(tokens.value) > 0 ? 'shadow' : null),
      run_budget_tokens_source: tokens.value === null ? null : tokens.source,
      enforce_source: enforce.value === null ? null : enforce.source,
    },
  };
}
