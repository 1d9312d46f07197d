/**
 * A Claude process's life in words, shared by the session detail and the peek: "busy for 3m", "exited
 * 14:02" (a day before today with its date), and Claude Code's own final figures (its cost-state line at exit) as it wrote them.
 */
import { momentWords } from '../../store/claude/life.js';
import type { GoneDatedBy } from '../../store/claude/model.js';
import type { ExitFigures, Tokens } from '../../store/claude/transcript-facts.js';
import { formatAge, formatAgo, isFuture } from '../../ui/format.js';
import type { DetailLine } from './detail.js';
import { groupDigits } from '../../io/group-digits.js';

const n = groupDigits;
export const tokenText = (t: Tokens) =>
  `in ${n(t.input)} · out ${n(t.output)} · cache read ${n(t.cacheRead)} · cache write ${n(t.cacheWrite)}`;

/**
 * "busy for 3m", "exited 14:02" (today; "exited yesterday 23:10", "exited Dec 6 23:10"), "unknown"; a gone process this omc-top never saw run is dated by its last sign of
 * life and says so: "gone, last sign of life 10m ago" (one it saw go: "gone for 15s").
 */
export function lifeWords(status: string, sinceMs: number | null, now: number, datedBy?: GoneDatedBy | null): string {
  if (sinceMs === null || status === 'unknown') return status;
  if (status === 'gone' && datedBy === 'last-sign-of-life') return `gone, last sign of life ${formatAgo(sinceMs, now)}`;
  return status === 'exited'
    ? `exited ${momentWords(sinceMs, now)}`
    : isFuture(sinceMs, now)
      ? `${status}, stamped ${formatAgo(sinceMs, now)}`
      : `${status} for ${formatAge(sinceMs, now)}`;
}

const secs = (ms: number | null) => (ms === null ? '?' : `${Math.round(ms / 100) / 10}s`);

/** Claude Code's own final figures (its cost-state line at exit), as it wrote them. */
export function exitLines(x: ExitFigures): DetailLine[] {
  const out: DetailLine[] = [
    {
      text: `  Claude Code's own figures at exit: $${x.usd.toFixed(4)}${x.unknownModelCost ? ' (some model had no known price)' : ''} · ran ${secs(x.durationMs)} (API ${secs(x.apiDurationMs)}, tools ${secs(x.toolDurationMs)}) · lines +${x.linesAdded ?? '?'} −${x.linesRemoved ?? '?'}`,
      tone: 'dim',
    },
  ];
  for (const m of x.models)
    out.push({
      text: `    ${m.model}: ${tokenText(m.tokens)}${m.usd !== null ? ` · $${m.usd.toFixed(4)}` : ''}`,
      tone: 'dim',
    });
  return out;
}
