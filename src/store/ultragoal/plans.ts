/**
 * OMC 5.5.0's Ultragoal plans as progress (observed with its own CLI:
 * /work/notes/omc-5.5-surfaces/findings.md §2): `ultragoal/goals.json` (the
 * legacy layout) or `ultragoal/plans/<planId>/goals.json`, each beside an
 * append-only `ledger.jsonl`. The current goal is `activeGoalId`, else the
 * first `in_progress` one (OMC's status command). "Blocked" is not a status:
 * a `goal_blocked` ledger event after the current goal's last start says it.
 * Done is OMC's `isUltragoalDone`: the aggregate completed, no goals, or every
 * goal complete or review-blocked with the last non-review-blocked one
 * complete. Pure.
 */
import { obj } from '../../io/json.js';
import { cleanLine, truncate } from '../../io/sanitize.js';

export const GOAL_STATUSES = ['pending', 'in_progress', 'complete', 'failed', 'review_blocked'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export interface Goal {
  id: string;
  title: string;
  status: GoalStatus | 'unknown';
  attempt: number;
  failureReason: string | null;
}

export interface PlanProgress {
  /** null for the legacy layout (`ultragoal/goals.json`). */
  planId: string | null;
  /** Relative to the .omc root. */
  rel: string;
  goals: Goal[];
  current: Goal | null;
  complete: number;
  total: number;
  failed: number;
  reviewBlocked: number;
  pending: number;
  /** The ledger's last word on the current goal is `goal_blocked` (its evidence). */
  blocked: string | null;
  done: boolean;
  updatedMs: number | null;
}

const text = (v: unknown, max: number) => (typeof v === 'string' ? truncate(cleanLine(v).trim(), max) : '');

/** Parses goals.json; a wrong shape is the problem line (the last good value stays). */
export function parseGoals(v: unknown):
  | {
      ok: true;
      value: { goals: Goal[]; activeGoalId: string | null; aggregateComplete: boolean; updatedMs: number | null };
    }
  | { ok: false; problem: string } {
  const o = obj(v);
  if (!o) return { ok: false, problem: 'not a JSON object (OMC writes {version, goals: [...], …})' };
  if (!Array.isArray(o.goals)) return { ok: false, problem: '"goals" is not an array: OMC cannot read this plan' };
  const goals: Goal[] = [];
  for (const g of o.goals.slice(0, 500)) {
    const go = obj(g);
    if (!go || typeof go.id !== 'string') continue;
    const status = GOAL_STATUSES.includes(go.status as GoalStatus) ? (go.status as GoalStatus) : 'unknown';
    goals.push({
      id: text(go.id, 80),
      title: text(go.title, 200),
      status,
      attempt: typeof go.attempt === 'number' && Number.isFinite(go.attempt) ? go.attempt : 0,
      failureReason: text(go.failureReason, 200) || null,
    });
  }
  const updated = typeof o.updatedAt === 'string' ? Date.parse(o.updatedAt) : NaN;
  return {
    ok: true,
    value: {
      goals,
      activeGoalId: typeof o.activeGoalId === 'string' ? text(o.activeGoalId, 80) : null,
      aggregateComplete: obj(o.aggregateCompletion)?.status === 'complete',
      updatedMs: Number.isFinite(updated) ? updated : null,
    },
  };
}

/** The ledger's last event per goal id (only what `blocked` needs: the event name and its evidence). */
export function lastEvents(lines: readonly string[]): Map<string, { event: string; evidence: string | null }> {
  const out = new Map<string, { event: string; evidence: string | null }>();
  for (const l of lines) {
    if (l.length > 64 * 1024) continue;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      continue;
    }
    const o = obj(v);
    if (!o || typeof o.goalId !== 'string' || typeof o.event !== 'string') continue;
    // goal_resumed is written by every complete-goals call: it does not lift a block.
    if (o.event === 'goal_resumed' && out.get(o.goalId)?.event === 'goal_blocked') continue;
    out.set(o.goalId, { event: o.event, evidence: text(o.evidence, 200) || text(o.message, 200) || null });
  }
  return out;
}

export function planProgress(
  planId: string | null,
  rel: string,
  g: { goals: Goal[]; activeGoalId: string | null; aggregateComplete: boolean; updatedMs: number | null },
  ledger: Map<string, { event: string; evidence: string | null }>,
): PlanProgress {
  const current =
    g.goals.find((x) => x.id === g.activeGoalId) ?? g.goals.find((x) => x.status === 'in_progress') ?? null;
  const n = (s: GoalStatus) => g.goals.filter((x) => x.status === s).length;
  const settled = g.goals.every((x) => x.status === 'complete' || x.status === 'review_blocked');
  const lastReal = [...g.goals].reverse().find((x) => x.status !== 'review_blocked');
  const last = current ? ledger.get(current.id) : undefined;
  return {
    planId,
    rel,
    goals: g.goals,
    current,
    complete: n('complete'),
    total: g.goals.length,
    failed: n('failed'),
    reviewBlocked: n('review_blocked'),
    pending: n('pending'),
    blocked: last?.event === 'goal_blocked' ? (last.evidence ?? 'blocked') : null,
    done: g.aggregateComplete || g.goals.length === 0 || (settled && lastReal?.status === 'complete'),
    updatedMs: g.updatedMs,
  };
}
