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
  /** The goals kept for the detail: the first KEEP_GOALS (the counts below are over every goal). */
  goals: Goal[];
  /** The plan holds more goals than `goals` lists. */
  truncated: boolean;
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

/**
 * Goals kept per plan for the detail and `--json`: a plan is a to-do list a person reads, and a goals.json
 * with thousands of entries (hostile or generated) must not make every publish copy them all. Only the list
 * is cut: the counts, the current goal and "done" are over every goal.
 */
export const KEEP_GOALS = 500;

/** What goals.json says, counted over every goal; only `goals` is cut to KEEP_GOALS. */
export interface GoalsFile {
  goals: Goal[];
  total: number;
  counts: Record<GoalStatus | 'unknown', number>;
  /** `activeGoalId`'s goal, else the first in progress (OMC's status command); over every goal. */
  current: Goal | null;
  /** Every goal complete or review-blocked, with the last one that is not review-blocked complete (OMC's rule). */
  settledComplete: boolean;
  activeGoalId: string | null;
  aggregateComplete: boolean;
  updatedMs: number | null;
  /** What in the file is odd but readable: a dangling activeGoalId, a repeated id, entries that are no goal. */
  warnings: string[];
}

const text = (v: unknown, max: number) => (typeof v === 'string' ? truncate(cleanLine(v).trim(), max) : '');

const toGoal = (go: Record<string, unknown>): Goal => ({
  id: text(go.id, 80),
  title: text(go.title, 200),
  status: GOAL_STATUSES.includes(go.status as GoalStatus) ? (go.status as GoalStatus) : 'unknown',
  attempt: typeof go.attempt === 'number' && Number.isFinite(go.attempt) ? go.attempt : 0,
  failureReason: text(go.failureReason, 200) || null,
});

/** Parses goals.json; a wrong shape is the problem line (the last good value stays). */
export function parseGoals(v: unknown): { ok: true; value: GoalsFile } | { ok: false; problem: string } {
  const o = obj(v);
  if (!o) return { ok: false, problem: 'not a JSON object (OMC writes {version, goals: [...], …})' };
  if (!Array.isArray(o.goals)) return { ok: false, problem: '"goals" is not an array: OMC cannot read this plan' };
  const activeGoalId = typeof o.activeGoalId === 'string' ? o.activeGoalId : null;
  const goals: Goal[] = [];
  const counts: GoalsFile['counts'] = {
    pending: 0,
    in_progress: 0,
    complete: 0,
    failed: 0,
    review_blocked: 0,
    unknown: 0,
  };
  const seen = new Set<string>();
  const repeated: string[] = [];
  let notGoals = 0;
  let active: Goal | null = null;
  let firstInProgress: Goal | null = null;
  let lastRealStatus: Goal['status'] | null = null;
  let settled = true;
  let total = 0;
  for (const g of o.goals) {
    const go = obj(g);
    if (!go || typeof go.id !== 'string') {
      notGoals += 1;
      continue;
    }
    total += 1;
    if (seen.has(go.id)) repeated.push(go.id);
    else seen.add(go.id);
    const goal = toGoal(go);
    if (goals.length < KEEP_GOALS) goals.push(goal);
    counts[goal.status] += 1;
    if (active === null && go.id === activeGoalId) active = goal;
    if (firstInProgress === null && goal.status === 'in_progress') firstInProgress = goal;
    if (goal.status !== 'review_blocked') lastRealStatus = goal.status;
    if (goal.status !== 'complete' && goal.status !== 'review_blocked') settled = false;
  }
  const warnings: string[] = [];
  if (total > KEEP_GOALS)
    warnings.push(`the plan has ${total} goals: only the first ${KEEP_GOALS} are listed (every one is counted)`);
  if (activeGoalId !== null && !seen.has(activeGoalId))
    warnings.push(
      `"activeGoalId" is "${text(activeGoalId, 80)}", which is no goal of the plan: the current goal is the first in progress`,
    );
  if (repeated.length > 0) {
    const ids = [...new Set(repeated)];
    warnings.push(
      `goal id${ids.length === 1 ? '' : 's'} ${ids
        .slice(0, 3)
        .map((id) => `"${text(id, 80)}"`)
        .join(
          ', ',
        )}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''} appear${ids.length === 1 ? 's' : ''} more than once: each copy is counted, OMC acts on the first`,
    );
  }
  if (notGoals > 0)
    warnings.push(
      `${notGoals} entr${notGoals === 1 ? 'y' : 'ies'} of "goals" ${notGoals === 1 ? 'is' : 'are'} not a goal (an object with a string "id"): not counted`,
    );
  const updated = typeof o.updatedAt === 'string' ? Date.parse(o.updatedAt) : NaN;
  return {
    ok: true,
    value: {
      goals,
      total,
      counts,
      current: active ?? firstInProgress,
      settledComplete: settled && lastRealStatus === 'complete',
      activeGoalId: activeGoalId === null ? null : text(activeGoalId, 80),
      aggregateComplete: obj(o.aggregateCompletion)?.status === 'complete',
      updatedMs: Number.isFinite(updated) ? updated : null,
      warnings,
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
  g: GoalsFile,
  ledger: Map<string, { event: string; evidence: string | null }>,
): PlanProgress {
  const last = g.current ? ledger.get(g.current.id) : undefined;
  // A goal pending or in progress is open work: the plan is not done, whatever the aggregate says (a plan whose
  // list is cut must never read as done because its open goal is past the cut).
  const open = g.counts.pending + g.counts.in_progress > 0;
  return {
    planId,
    rel,
    goals: g.goals,
    truncated: g.total > g.goals.length,
    current: g.current,
    complete: g.counts.complete,
    total: g.total,
    failed: g.counts.failed,
    reviewBlocked: g.counts.review_blocked,
    pending: g.counts.pending,
    blocked: last?.event === 'goal_blocked' ? (last.evidence ?? 'blocked') : null,
    done: !open && (g.aggregateComplete || g.total === 0 || g.settledComplete),
    updatedMs: g.updatedMs,
  };
}
