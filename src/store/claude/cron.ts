/**
 * The next time a five-field cron expression matches (minute hour day-of-month
 * month day-of-week, local time, as Claude Code's /loop schedules): enough of
 * cron for the schedules CronCreate takes — `*`, `*\/n`, `a-b`, `a-b/n`, lists.
 * Claude Code adds a per-job offset to each run, so this is the scheduled
 * minute, not the exact fire time. Pure.
 */

interface Field {
  min: number;
  max: number;
}
const FIELDS: Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12 },
  { min: 0, max: 7 },
];

function parseField(text: string, f: Field): Set<number> | null {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) return null;
    const step = m[4] ? Number(m[4]) : 1;
    const lo = m[1] === '*' ? f.min : Number(m[2]);
    const hi = m[1] === '*' ? f.max : m[3] !== undefined ? Number(m[3]) : m[4] ? f.max : lo;
    if (step < 1 || lo < f.min || hi > f.max || lo > hi) return null;
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Cron's rule: when both day fields are restricted, either may match. */
  dayOr: boolean;
}

export function parseCron(expr: string): Cron | null {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) return null;
  const sets = parts.map((p, i) => parseField(p, FIELDS[i] as Field));
  if (sets.some((s) => s === null)) return null;
  const [minutes, hours, days, months, weekdays] = sets as Set<number>[];
  if (weekdays?.has(7)) weekdays.add(0);
  return {
    minutes: minutes as Set<number>,
    hours: hours as Set<number>,
    days: days as Set<number>,
    months: months as Set<number>,
    weekdays: weekdays as Set<number>,
    dayOr: parts[2] !== '*' && parts[4] !== '*',
  };
}

function dayMatches(c: Cron, d: Date): boolean {
  const dom = c.days.has(d.getDate());
  const dow = c.weekdays.has(d.getDay());
  return c.dayOr ? dom || dow : dom && dow;
}

/** The first matching minute strictly after `afterMs` (epoch ms), within a year; null when none. */
export function nextCronMs(expr: string, afterMs: number): number | null {
  const c = parseCron(expr);
  if (!c) return null;
  const d = new Date(afterMs);
  d.setSeconds(0, 0);
  d.setMinutes(d.getMinutes() + 1);
  const end = afterMs + 366 * 24 * 3600_000;
  while (d.getTime() <= end) {
    if (!c.months.has(d.getMonth() + 1)) {
      d.setMonth(d.getMonth() + 1, 1);
      d.setHours(0, 0, 0, 0);
      continue;
    }
    if (!dayMatches(c, d)) {
      d.setDate(d.getDate() + 1);
      d.setHours(0, 0, 0, 0);
      continue;
    }
    if (!c.hours.has(d.getHours())) {
      d.setHours(d.getHours() + 1, 0, 0, 0);
      continue;
    }
    if (!c.minutes.has(d.getMinutes())) {
      d.setMinutes(d.getMinutes() + 1, 0, 0);
      continue;
    }
    return d.getTime();
  }
  return null;
}
