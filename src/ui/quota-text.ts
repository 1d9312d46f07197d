/**
 * The header's plan quota, from OMC's usage cache (never the network):
 * "5h 38% ↻1h12 · wk 61% ↻2d23h · 2m old". A window at 100 % says until when;
 * data OMC would no longer serve (its last success over 15 minutes ago) is not
 * shown as a percentage; a cache nothing refreshes says how old it is; a window
 * whose reset time has passed shows no percentage ("5h ? (reset 14:05)").
 */
import type { QuotaSnapshot } from '../store/cost/quota-domain.js';
import { judgeUsage, resetPassed, type Window } from '../store/cost/quota.js';
import { formatClock } from './format.js';

/** "2h13", "45m", "3d4h": time left until `ms`. */
export function countdown(ms: number, now: number): string {
  const m = Math.max(0, Math.floor((ms - now) / 60_000));
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${String(m % 60).padStart(2, '0')}`;
  return `${Math.floor(h / 24)}d${h % 24}h`;
}

const age = (ms: number) =>
  ms < 60_000 ? 'fresh' : ms < 3_600_000 ? `${Math.floor(ms / 60_000)}m old` : `${Math.floor(ms / 3_600_000)}h old`;

function win(label: string, w: Window | null, now: number, short = false): string | null {
  if (!w) return null;
  // Reset since OMC's read: the figure is the old window's ("5h 100%" would claim a limit that is over).
  if (w.resetsMs !== null && resetPassed(w, now)) return `${label} ? (reset ${formatClock(w.resetsMs).slice(0, 5)})`;
  const pct = `${Math.round(w.percent)}%`;
  if (w.resetsMs === null) return `${label} ${pct}`;
  if (w.percent >= 100) return `${label} ${pct} until ${formatClock(w.resetsMs).slice(0, 5)}`;
  return short ? `${label} ${pct}` : `${label} ${pct} ↻${countdown(w.resetsMs, now)}`;
}

/**
 * The header's quota text, or null when OMC keeps no usage cache here. `short` (a narrow header) leaves out the
 * countdowns of windows not at their limit; a limit's end, a passed reset and the data's age stay.
 */
export function quotaHeaderText(q: QuotaSnapshot | null, now: number, short = false): string | null {
  if (!q?.cache) return null;
  const j = judgeUsage(q.cache, now, q.pollMs);
  if (!j.data) {
    const why = q.cache.error ? `OMC: ${q.cache.error}` : 'no data';
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
