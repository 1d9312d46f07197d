/**
 * A session's loop held by the plan's rate limit, and the one way every row surface says it (the sessions row, the
 * fleet's rows, the serve page; `watch --json --rows` and `--json` carry the time): `[rate-limited ↻13:11]`, the
 * reset in UTC, the app's one time zone. A loop is held when it would go on (an enforced OMC mode, or an active
 * /goal) while its Claude is not in a turn and OMC's files say the plan is at its limit.
 */
import type { ClaudeSessionView } from '../claude/model.js';
import type { SessionView } from '../sessions/model.js';
import { rateLimitFor, type RateLimitNote } from './loops.js';
import type { QuotaSnapshot } from './quota-domain.js';

export function sessionRateLimit(
  s: SessionView,
  c: ClaudeSessionView | undefined,
  q: QuotaSnapshot | null,
  now: number,
): RateLimitNote | null {
  if (s.kind !== 'session') return null;
  const looping = s.modes.some((m) => m.enforced) || c?.transcript?.facts.native.goal?.state === 'active';
  return looping ? rateLimitFor(q, c?.process ?? null, now) : null;
}

/** The badge a row shows: `[rate-limited ↻13:11]` (HH:MM UTC of the reset). */
export const rateLimitBadge = (untilMs: number): string =>
  `[rate-limited ↻${new Date(untilMs).toISOString().slice(11, 16)}]`;
