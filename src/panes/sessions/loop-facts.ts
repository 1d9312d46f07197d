/**
 * What issue 26 adds to a session's row and detail, kept apart like
 * run-facts.ts: the Ultragoal plan's progress on an ultragoal row (like ralph's
 * stories), a badge for an active /goal and for two competing Stop hooks, and
 * "rate-limited ↻14:05" on a loop OMC's files say the plan's limit holds.
 */
import { competingStopHooks } from '../../store/cost/loops.js';
import { rateLimitBadge, sessionRateLimit } from '../../store/cost/rate-limit-words.js';
import type { SessionView } from '../../store/sessions/model.js';
import type { OmcStore } from '../../store/store.js';
import { goalCell, rateLimitLine, ultragoalLines } from './cost-lines.js';
import type { DetailLine } from './detail.js';

const hasUltragoal = (s: SessionView) => s.modes.some((m) => m.mode === 'ultragoal');

/** Row extras: the goals cell, then the badges. */
export function loopExtras(store: OmcStore, s: SessionView): string[] {
  if (s.kind !== 'session') return [];
  const out: string[] = [];
  if (hasUltragoal(s)) {
    const cell = goalCell(store.ultragoal.resolved(), store.ultragoal.plansNow().length);
    if (cell) out.push(cell);
  }
  const c = store.claude.getSnapshot().bySession.get(s.id);
  const goal = c?.transcript?.facts.native.goal;
  if (competingStopHooks(s, c)) out.push('[2 Stop hooks]');
  else if (goal?.state === 'active') out.push('[/goal]');
  const r = sessionRateLimit(s, c, store.quota.getSnapshot(), store.clock());
  if (r) out.push(rateLimitBadge(r.untilMs));
  return out;
}

/** Detail lines before the modes: the rate limit, then the Ultragoal goals. */
export function loopFactDetail(store: OmcStore, s: SessionView): DetailLine[] {
  if (s.kind !== 'session') return [];
  const c = store.claude.getSnapshot().bySession.get(s.id);
  const plan = hasUltragoal(s) ? store.ultragoal.resolved() : null;
  const plans = store.ultragoal.plansNow();
  return [
    ...rateLimitLine(s, c, store.quota.getSnapshot(), store.clock()),
    ...(hasUltragoal(s) && !plan && plans.length > 1
      ? [
          { text: '' },
          {
            text: `▌goals: ${plans.length} plans (${plans.map((p) => p.planId).join(', ')}); OMC records no plan per session`,
            tone: 'title' as const,
          },
        ]
      : ultragoalLines(plan, Math.max(0, plans.length - 1))),
  ];
}
