/**
 * The session detail's cost and loop lines (issue 26): the estimate per model
 * (priced or "unpriced", never zero), the subagents by type, Claude Code's own
 * loops (/goal, /loop jobs), two competing Stop hooks, a plan rate limit, and
 * OMC's Ultragoal goals. Pure text from the store's snapshots.
 */
import type { ClaudeSessionView } from '../../store/claude/model.js';
import { nextRunMs } from '../../store/claude/native-loops.js';
import {
  estimateText,
  formatUsd,
  formatUsdEst,
  modelShare,
  splitModelKey,
  SYNTHETIC_MODEL,
  SYNTHETIC_WORDS,
  type ModelPrice,
} from '../../store/claude/prices.js';
import { competingStopHooks, rateLimitFor, type RateLimitNote } from '../../store/cost/loops.js';
import type { QuotaSnapshot } from '../../store/cost/quota-domain.js';
import { limitedUntilWords } from '../../store/cost/plan-hold.js';
import { readingWhy, sessionSpend, spendUnknown, spendUnknownText } from '../../store/cost/spend.js';
import type { SessionView } from '../../store/sessions/model.js';
import type { PlanProgress } from '../../store/ultragoal/plans.js';
import { formatAge, formatAgo, formatClock, formatTimestamp } from '../../ui/format.js';
import type { DetailLine } from './detail.js';
import { groupDigits } from '../../io/group-digits.js';

const n = groupDigits;
const k = (v: number) =>
  v < 10_000 ? n(v) : v < 1_000_000 ? `${(v / 1000).toFixed(v < 100_000 ? 1 : 0)}k` : `${(v / 1e6).toFixed(1)}M`;

/**
 * "rate-limited, resumes 14:05" when OMC's wait daemon will press the key, else "rate-limited until 14:05" — with who
 * says so and why nothing may resume it.
 */
export function rateLimitText(r: RateLimitNote, now: number): string {
  const at = formatClock(r.untilMs).slice(0, 5);
  const who = r.by === 'wait daemon' ? "OMC's wait daemon" : "OMC's usage cache";
  const resume = r.daemonResumes
    ? "; the wait daemon saw this pane blocked and will send it '1 Enter' then"
    : r.daemonAlive
      ? '; the wait daemon runs but did not list this pane (it resumes only panes it saw blocked)'
      : '; no wait daemon runs: nothing will resume it (omc wait --start)';
  // "resumes" only where something will resume it; else the words of its "needs you" item (plan-hold.ts).
  const head = r.daemonResumes ? `rate-limited, resumes ${at} UTC` : limitedUntilWords(r.untilMs);
  return `${head} (in ${formatAge(now - (r.untilMs - now), now)}; ${who} says the plan is at 100 %)${resume}`;
}

/** The lines after the tokens: cost per model, subagents, the loops Claude Code runs itself. */
export function costLines(
  s: SessionView,
  c: ClaudeSessionView | undefined,
  now: number,
  prices: Readonly<Record<string, ModelPrice>> | undefined,
): DetailLine[] {
  const out: DetailLine[] = [];
  const f = c?.transcript?.facts;
  const sp = sessionSpend(c, prices, now);
  const unknown = spendUnknown(c);
  if (unknown !== null) out.push({ text: `  cost — (${spendUnknownText(unknown)})`, tone: 'warn' });
  if (!f || !sp) return out;
  const burn =
    sp.burnPerMin === null
      ? ''
      : ` · burn ${n(sp.burnPerMin)} tokens/min${sp.burnUsdPerHour === null ? '' : ` ≈ ${formatUsd(sp.burnUsdPerHour)}/h est.`}`;
  const reading = readingWhy(sp.reading, sp.unread);
  out.push({ text: `  cost ${estimateText(sp.estimate)}${reading}${burn}`, tone: sp.partial ? 'warn' : undefined });
  for (const [model, u] of f.byModel) {
    const p = modelShare(model, sp.estimate, prices);
    const price =
      splitModelKey(model).id === SYNTHETIC_MODEL
        ? `$0 (${SYNTHETIC_WORDS})`
        : p
          ? `${formatUsdEst(p.usd)} (${p.source} price)`
          : 'unpriced: add it under "prices" in the config file';
    out.push({
      text: `    ${model}: ${n(u.responses)} responses · ${k(u.input + u.output + u.cacheRead + u.cacheWrite)} tokens · ${price}`,
      tone: p ? 'dim' : 'warn',
    });
  }
  const subs = c?.transcript?.subagents;
  if (subs && subs.agents.length > 0) {
    const t = subs.tokens;
    out.push({
      text: `  subagents: ${subs.agents.length} (counted in the figures above; Claude Code writes them beside the transcript) · ${k(t.input + t.output + t.cacheRead + t.cacheWrite)} tokens`,
    });
    for (const x of subs.byType)
      out.push({
        text: `    ${x.type} ×${x.count}: ${k(x.tokens.input + x.tokens.output + x.tokens.cacheRead + x.tokens.cacheWrite)} tokens (${[...x.byModel.keys()].join(', ')})`,
        tone: 'dim',
      });
    if (subs.notCounted > 0)
      out.push({
        text: `    ${subs.notCounted} more subagent files not counted (over the limit of files read per session)`,
        tone: 'warn',
      });
  }
  const g = f.native.goal;
  if (g) {
    const state =
      g.state === 'active'
        ? g.paused
          ? 'paused by the block cap (a message continues it)'
          : `active · ${g.checks} unmet check${g.checks === 1 ? '' : 's'}`
        : g.state;
    out.push({ text: `  /goal ${state}: "${g.condition}"`, tone: g.state === 'active' ? 'ok' : 'dim' });
    if (g.reason) out.push({ text: `    last check ${formatAgo(g.lastCheckMs, now)}: ${g.reason}`, tone: 'dim' });
    if (g.summary)
      out.push({
        text: `    Claude Code's count: ${g.summary.iterations ?? '?'} turns · ${g.summary.durationMs === null ? '?' : `${Math.round(g.summary.durationMs / 1000)}s`} · ${g.summary.tokens ?? '?'} tokens`,
        tone: 'dim',
      });
  }
  const alive = c?.process ? c.process.status !== 'gone' : null;
  for (const j of f.native.jobs) {
    const next = nextRunMs(j, now);
    const when = j.deleted
      ? 'deleted'
      : alive === false
        ? 'ended with its process (session-only jobs die with Claude)'
        : next === null
          ? 'not scheduled'
          : `next ${formatTimestamp(next)}${j.kind === 'cron' && j.recurring ? ' (cron minute; Claude adds a small offset)' : ''}`;
    out.push({
      text: `  /loop ${j.kind === 'wakeup' ? 'wakeup' : `job ${j.id}`} ${j.cron ?? j.human ?? ''} → ${j.prompt} · fired ${j.fires}× · ${when}`,
      tone: j.deleted || alive === false ? 'dim' : undefined,
    });
  }
  const both = competingStopHooks(s, c);
  if (both)
    out.push({
      text: `  ! two Stop hooks compete: ${both}; either can keep the session going (cancel the OMC loop and /goal clear to stop both)`,
      tone: 'warn',
    });
  return out;
}

/** A rate-limited loop's line for the detail head, when OMC's files say the plan is limited. */
export function rateLimitLine(
  s: SessionView,
  c: ClaudeSessionView | undefined,
  quota: QuotaSnapshot | null,
  now: number,
): DetailLine[] {
  const looping = s.modes.some((m) => m.enforced) || c?.transcript?.facts.native.goal?.state === 'active';
  if (!looping) return [];
  const r = rateLimitFor(quota, c?.process ?? null, now);
  return r ? [{ text: `! ${rateLimitText(r, now)}`, tone: 'warn' }] : [];
}

/** The Ultragoal plan's goals, like PRD stories. */
export function ultragoalLines(plan: PlanProgress | null, others: number): DetailLine[] {
  if (!plan) return [];
  const out: DetailLine[] = [{ text: '' }];
  const which =
    plan.planId === null
      ? ''
      : ` (plan ${plan.planId}${others > 0 ? `; ${others} other plan${others === 1 ? '' : 's'}: which is this session's is not recorded` : ''})`;
  out.push({
    text: `▌goals (${plan.rel}): ${plan.complete}/${plan.total} complete${plan.current ? ` · current ${plan.current.id}` : ''}${plan.done ? ' · done' : ''}${which}`,
    tone: 'title',
  });
  if (plan.blocked) out.push({ text: `  ⚠ ${plan.current?.id} blocked: ${plan.blocked}`, tone: 'warn' });
  for (const g of plan.goals) {
    const mark =
      g.status === 'complete'
        ? '✓'
        : g.status === 'in_progress'
          ? '▸'
          : g.status === 'failed'
            ? '✗'
            : g.status === 'review_blocked'
              ? '⚠'
              : '·';
    out.push({
      text: `  ${mark} ${g.id} — ${g.status.replace('_', ' ')}${g.attempt > 1 ? ` (attempt ${g.attempt})` : ''}${g.failureReason ? `: ${g.failureReason}` : ''}`,
      tone:
        g.status === 'complete' ? 'ok' : g.status === 'failed' || g.status === 'review_blocked' ? 'warn' : undefined,
    });
  }
  if (plan.truncated)
    out.push({
      text: `  … ${plan.total - plan.goals.length} more goals not listed (the counts above are over all ${plan.total})`,
      tone: 'dim',
    });
  return out;
}

/** "goals 2/4 · G003-…" for the row, with failed / blocked counts; null without a plan. */
export function goalCell(plan: PlanProgress | null, plans: number): string | null {
  if (!plan) return plans > 1 ? `goals: ${plans} plans` : null;
  const extra = [
    plan.blocked ? 'blocked' : '',
    plan.failed ? `${plan.failed} failed` : '',
    plan.reviewBlocked ? `${plan.reviewBlocked} review-blocked` : '',
  ].filter(Boolean);
  return `goals ${plan.complete}/${plan.total}${plan.done ? ' done' : plan.current ? ` · ${plan.current.id.split('-')[0]}` : ''}${extra.length ? ` ⚠${extra.join(', ')}` : ''}`;
}
