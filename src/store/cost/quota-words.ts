/**
 * The plan quota in words, from OMC's usage cache (never the network): "5h 38% ↻1h12 · wk 61% ↻2d23h · 2m old".
 * One module for every surface that says it (the monitor's header, the fleet's header, `--json`'s `quota`,
 * `watch --json`'s `quota` line, the serve page). A window at 100 % says until when; data OMC would no longer serve
 * (its last success over 15 minutes ago) is not shown as a percentage; a cache nothing refreshes says how old it
 * is; a window whose reset time has passed shows no percentage ("5h ? (reset 14:05)"). Times are UTC, the app's one
 * time zone.
 */
import { planLimit } from './loops.js';
import type { QuotaSnapshot } from './quota-domain.js';
import { judgeUsage, MAX_STALE_DATA_MS, resetPassed, validityMs, type QuotaReading, type Window } from './quota.js';

/** "2h13", "45m", "3d4h": time left until `ms`. */
export function countdown(ms: number, now: number): string {
  const m = Math.max(0, Math.floor((ms - now) / 60_000));
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${String(m % 60).padStart(2, '0')}`;
  return `${Math.floor(h / 24)}d${h % 24}h`;
}

/** "13:11": a reset's clock time, UTC. */
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

const age = (ms: number) =>
  ms < 60_000 ? 'fresh' : ms < 3_600_000 ? `${Math.floor(ms / 60_000)}m old` : `${Math.floor(ms / 3_600_000)}h old`;

function win(label: string, w: Window | null, now: number, short = false): string | null {
  if (!w) return null;
  // Reset since OMC's read: the figure is the old window's ("5h 100%" would claim a limit that is over).
  if (w.resetsMs !== null && resetPassed(w, now)) return `${label} ? (reset ${hhmm(w.resetsMs)})`;
  const pct = `${Math.round(w.percent)}%`;
  if (w.resetsMs === null) return `${label} ${pct}`;
  if (w.percent >= 100) return `${label} ${pct} until ${hhmm(w.resetsMs)}`;
  return short ? `${label} ${pct}` : `${label} ${pct} ↻${countdown(w.resetsMs, now)}`;
}

/**
 * The header's quota text, or null when OMC keeps no usage cache here. `short` (a narrow header) leaves out the
 * countdowns of windows not at their limit; a limit's end, a passed reset and the data's age stay.
 */
export function quotaHeaderText(q: QuotaSnapshot | null, now: number, short = false): string | null {
  if (!q?.cache) return null;
  return wordsOf(judgeUsage(q.cache, now, q.pollMs), now, short);
}

function wordsOf(j: QuotaReading, now: number, short: boolean): string | null {
  if (!j.data) {
    const why = j.cache.error ? `OMC: ${j.cache.error}` : 'no data';
    return `quota ? (${why}${j.dataAgeMs !== null ? `, last read ${age(j.dataAgeMs).replace(' old', ' ago')}` : ''})`;
  }
  const parts = [win('5h', j.data.fiveHour, now, short), win('wk', j.data.weekly, now, short)].filter(
    (x): x is string => x !== null,
  );
  if (parts.length === 0) return null;
  const stale = j.servedStale || j.notRefreshed;
  const a = j.dataAgeMs ?? j.ageMs;
  return `${parts.join(' · ')}${a !== null && (stale || a >= 60_000) ? ` · ${age(a)}` : ''}`;
}

/** The plan quota as every surface says it, at one moment. */
export interface QuotaLine {
  /** The header's words ("5h 100% until 13:11 · wk 83% ↻2d23h"). */
  text: string;
  /** The narrow header's (no countdowns of windows below their limit). */
  short: string;
  /**
   * The plan is rate-limited until then (epoch ms): OMC's wait daemon says so, else a window at 100 % in the usage
   * cache (loops.ts planLimit, what a held loop's `[rate-limited ↻HH:MM]` says); null when not.
   */
  limitedUntilMs: number | null;
  /**
   * What the words say apart from the clock's passing (a countdown going down, the data's age growing): the same key
   * is the same fact, so a stream says the quota again only when this changes.
   */
  key: string;
}

/** Per snapshot: the line of the last second asked (the words move by the minute; a frame is not a reason). */
const memo = new WeakMap<QuotaSnapshot, { second: number; line: QuotaLine | null }>();

/** The quota line of `q` at `now`, or null when OMC keeps no usage cache here (or it has no window to show). */
export function quotaLine(q: QuotaSnapshot | null, now: number): QuotaLine | null {
  if (!q?.cache) return null;
  const second = Math.floor(now / 1000);
  const kept = memo.get(q);
  if (kept && kept.second === second) return kept.line;
  const j = judgeUsage(q.cache, now, q.pollMs);
  const text = wordsOf(j, now, false);
  const limitedUntilMs = planLimit(q, now)?.untilMs ?? null;
  const line =
    text === null
      ? null
      : { text, short: wordsOf(j, now, true) ?? text, limitedUntilMs, key: keyOf(j, now, limitedUntilMs) };
  memo.set(q, { second, line });
  return line;
}

/** The fact the words say, without the clock's passing: windows (percent, reset, passed), the data's state. */
function keyOf(j: QuotaReading, now: number, limitedUntilMs: number | null): string {
  const w = (x: Window | null | undefined) =>
    x ? [Math.round(x.percent), x.resetsMs, x.resetsMs !== null && resetPassed(x, now)] : null;
  return JSON.stringify([
    j.data ? [w(j.data.fiveHour), w(j.data.weekly)] : null,
    j.cache.error,
    j.servedStale || j.notRefreshed,
    j.data ? null : j.cache.lastSuccessMs,
    limitedUntilMs,
  ]);
}

/**
 * The next moment the key can change with nothing written (a reset passing, OMC's 15-minute rule, a HUD that
 * stopped refreshing), after `now`; null when none is ahead. A stream that says the quota looks again then.
 */
export function quotaEdgeMs(q: QuotaSnapshot | null, now: number): number | null {
  if (!q?.cache) return null;
  const c = q.cache;
  const j = judgeUsage(c, now, q.pollMs);
  const times = [
    ...[c.data?.fiveHour, c.data?.weekly, c.data?.monthly].map((x) => x?.resetsMs ?? null),
    c.lastSuccessMs === null ? null : c.lastSuccessMs + MAX_STALE_DATA_MS + 1,
    c.apiBackoffUntilMs,
    // The wait daemon's limit ends then (planLimit takes it while it is in the future).
    q.daemon?.alive ? (q.daemon.state?.nextResetMs ?? null) : null,
  ];
  // notRefreshed flips when the cache grows older than the HUD's validity and a minute (quota.ts judgeUsage).
  if (c.writtenMs !== null && !j.notRefreshed) {
    times.push(c.writtenMs + validityMs(c, q.pollMs) + 60_001);
  }
  let next: number | null = null;
  for (const t of times) if (t !== null && t > now && (next === null || t < next)) next = t;
  return next;
}

/**
 * How long until the words can read differently (a countdown's minute, the data's age, an edge): a view that shows
 * them redraws then, not on every tick. Infinity with no quota.
 */
export function quotaWordsChangeInMs(q: QuotaSnapshot | null, now: number): number {
  if (!q?.cache) return Infinity;
  const c = q.cache;
  let next = Infinity;
  const edge = quotaEdgeMs(q, now);
  if (edge !== null) next = edge - now;
  for (const w of [c.data?.fiveHour, c.data?.weekly])
    if (w?.resetsMs != null && w.resetsMs > now) next = Math.min(next, (w.resetsMs - now) % 60_000 || 60_000);
  const from = c.lastSuccessMs ?? c.writtenMs;
  if (from !== null && from <= now) next = Math.min(next, 60_000 - ((now - from) % 60_000));
  return Math.max(1, next);
}
