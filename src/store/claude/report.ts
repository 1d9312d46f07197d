/**
 * The --json fields the Claude join adds to each session: "process" and
 * "tokens" (fixed shapes, null when unknown), and an "agent" object with the
 * peek facts, attention and analytics (additive).
 */
import type { SessionView } from '../sessions/model.js';
import { loopAnalytics, numberedIterations } from './analytics.js';
import { activeLoop, attentionFor } from './attention.js';
import { isDead, lifeOf } from './life.js';
import { elsewhereText, processesText } from './join-words.js';
import type { ClaudeSnapshot } from './model.js';
import type { ToolCall, TranscriptFacts } from './transcript-facts.js';

const iso = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString());

export function sessionJsonExtras(s: SessionView, snap: ClaudeSnapshot, now: number): Record<string, unknown> {
  const c = snap.bySession.get(s.id);
  const p = c?.process ?? null;
  const t = c?.transcript ?? null;
  const f = t?.facts ?? null;
  const loop = activeLoop(s);
  const life = lifeOf(c);
  return {
    process: p && {
      pid: p.pid,
      status: p.status,
      since: iso(p.since),
      // Gone: whether `since` is when this omc-top saw it gone or its last sign of life (it never saw it run).
      gone_dated_by: p.goneDatedBy ?? null,
      entrypoint: p.entrypoint,
      version: p.version,
    },
    // The process's life from everything known (a clean exit read from the transcript too); null = nothing known.
    life: c ? { status: life.status, since: iso(life.sinceMs) } : null,
    tokens: f && {
      input: f.tokens.input,
      output: f.tokens.output,
      cache_read: f.tokens.cacheRead,
      cache_write: f.tokens.cacheWrite,
    },
    agent: c
      ? {
          process_detail: p && {
            reason: p.reason,
            name: p.name,
            tmux: p.tmux,
            tmux_where: p.tmuxWhere,
            kind: p.kind,
            waiting_for: p.waitingFor,
            registry: `${snap.configDir}/${p.registryRel}`,
            // The join (store/claude/choice.ts, join-words.ts): the other processes of the session, where it runs.
            other_pids: p.alsoPids ?? [],
            processes_text: processesText(p),
            cwd: p.cwd,
            hooks_elsewhere: p.elsewhere ?? null,
            hooks_elsewhere_text: elsewhereText(p),
          },
          transcript: t && {
            path: `${snap.configDir}/${t.rel}`,
            bytes: t.size,
            partial_from: t.partialFrom,
            problem: t.problem,
          },
          attention: attentionFor(s, p, f).map((a) => ({ kind: a.kind, reason: a.reason, text: a.text })),
          waiting: c.waiting && {
            for: c.waiting.for,
            since: iso(c.waiting.sinceMs),
            tool: c.waiting.call?.name ?? null,
            arg: c.waiting.call?.arg ?? null,
            call_at: iso(c.waiting.call?.atMs ?? null),
            more: c.waiting.more,
            name: c.waiting.name,
            where: c.waiting.where,
            text: c.waiting.text,
          },
          peek: f && {
            model: f.model,
            messages: f.messages,
            last_text: f.lastAssistantText,
            last_tool_calls: f.lastToolCalls.map((x) => ({
              name: x.name,
              arg: x.arg,
              at: iso(x.atMs),
              pending: (f.pendingCalls as readonly ToolCall[]).includes(x),
            })),
            pending_calls: f.pendingCalls.map((x) => ({ name: x.name, arg: x.arg, at: iso(x.atMs) })),
            files_written_this_turn: f.turnFiles,
            last_error: f.lastError && { text: f.lastError.text, at: iso(f.lastError.atMs) },
            turn_durations_ms: f.turnDurationsMs,
            turn_open: f.turnOpen,
            stop_hooks: f.stopHooks.map((h) => ({ at: iso(h.atMs), text: h.text, iteration: h.iteration, max: h.max })),
            block_cap_override: f.blockCapOverride !== null,
          },
          cost: f?.cliCost
            ? { usd: f.cliCost.usd, unknown_model_cost: f.cliCost.unknownModelCost, source: 'claude-code-at-exit' }
            : null,
          exit: life.exit && {
            at: iso(life.exit.endMs),
            usd: life.exit.usd,
            unknown_model_cost: life.exit.unknownModelCost,
            duration_ms: life.exit.durationMs,
            api_duration_ms: life.exit.apiDurationMs,
            tool_duration_ms: life.exit.toolDurationMs,
            lines_added: life.exit.linesAdded,
            lines_removed: life.exit.linesRemoved,
            models: life.exit.models.map((m) => ({
              model: m.model,
              input: m.tokens.input,
              output: m.tokens.output,
              cache_read: m.tokens.cacheRead,
              cache_write: m.tokens.cacheWrite,
              usd: m.usd,
            })),
            source: 'claude-code-cost-state',
          },
          analytics: f && analyticsJson(f, loop, now, isDead(life.status)),
        }
      : null,
  };
}

function analyticsJson(
  f: TranscriptFacts,
  loop: { iteration: number | null; max: number | null } | null,
  now: number,
  dead: boolean,
) {
  const a = loopAnalytics(f, loop, now, dead);
  return {
    seconds_per_iteration: a.secondsPerIteration,
    eta: iso(a.etaMs),
    no_file_in_last_3_iterations: a.noFileIn3,
    same_error_3_times: a.sameError3,
    burn_tokens_per_min: a.burnPerMin,
    iterations: numberedIterations(f, loop).map((i) => ({
      iteration: i.iteration,
      started_at: iso(i.startedMs),
      input: i.tokens.input,
      output: i.tokens.output,
      cache_read: i.tokens.cacheRead,
      cache_write: i.tokens.cacheWrite,
      files_written: i.filesWritten,
      errors: i.errors,
    })),
  };
}

/** Adds the fields to every session of a --json document built by buildJsonReport. */
export function addClaudeToReport(
  doc: Record<string, unknown>,
  sessions: readonly SessionView[],
  snap: ClaudeSnapshot,
  now: number,
): void {
  const list = doc.sessions as Record<string, unknown>[];
  const byId = new Map(sessions.map((s) => [s.id, s]));
  for (const row of list) {
    const s = byId.get(row.id as string);
    if (s) Object.assign(row, sessionJsonExtras(s, snap, now));
  }
  doc.claude = { config_dir: snap.configDir, rule: snap.rule, registry_missing: snap.registryMissing };
}
