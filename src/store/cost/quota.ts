/**
 * The plan quota as OMC 5.5.0 keeps it, from files only (no network):
 * - the HUD's usage cache `<CLAUDE_CONFIG_DIR>/plugins/oh-my-claudecode/.usage-cache-<source>.json`
 *   (legacy `.usage-cache.json`): 5-hour and weekly percentages with their reset
 *   times, when it was written, when the usage API last answered;
 * - the rate-limit wait daemon (`omc wait`): its state file and pid file under
 *   `$OMC_HOME/state`, else `$XDG_STATE_HOME/omc` (Linux: `~/.local/state/omc`),
 *   else `~/.omc/state` (macOS, Windows).
 * Shapes and rules as observed with OMC's own writers
 * (/work/notes/omc-5.5-surfaces/findings.md §3, §4). Pure: parsing and judging.
 */
import { type Obj, obj } from '../../io/json.js';
import path from 'node:path';
import { cleanLine, truncate } from '../../io/sanitize.js';
import { homeDir } from '../../io/home-dir.js';

/** OMC serves a failed fetch's last good data only while its last success is this recent (MAX_STALE_DATA_MS). */
export const MAX_STALE_DATA_MS = 15 * 60_000;
/** The HUD refetches once the cache is older than its poll interval (omcHud.usageApiPollIntervalMs; default, minimum). */
export const DEFAULT_POLL_MS = 90_000;
export const MIN_POLL_MS = 1_000;

export const USAGE_CACHE_DIR = 'plugins/oh-my-claudecode';
export const USAGE_SOURCES = ['anthropic', 'zai', 'minimax', 'kimi'] as const;
export type UsageSource = (typeof USAGE_SOURCES)[number];

export interface Window {
  percent: number;
  resetsMs: number | null;
}

/**
 * The window's reset time has passed: its percentage is from before the reset (OMC has not read the new window
 * since), so it says nothing about the window now; a view shows neither it nor a limit from it.
 */
export const resetPassed = (w: Window, now: number): boolean => w.resetsMs !== null && w.resetsMs <= now;

export interface UsageData {
  fiveHour: Window | null;
  weekly: Window | null;
  /** z.ai's monthly window. */
  monthly: Window | null;
  /** Per-model weekly windows ("Sonnet", "Opus", scoped buckets). */
  scoped: { label: string; window: Window }[];
  /** Pro/Max overage: spent and limit in USD. */
  extraUsage: { spentUsd: number; limitUsd: number | null } | null;
}

export interface UsageCache {
  /** Relative to the Claude config dir. */
  rel: string;
  source: string;
  /** When OMC wrote the file (epoch ms). */
  writtenMs: number | null;
  /** When the usage API last answered (epoch ms). */
  lastSuccessMs: number | null;
  data: UsageData | null;
  /** OMC's error reason for the last fetch (network, auth, no_credentials, rate_limited), when it failed. */
  error: string | null;
  /** The usage API itself answered 429: OMC backs off until then. Not the plan's limit. */
  apiBackoffUntilMs: number | null;
  /** Fields OMC would not write (a percentage outside 0–100, a reset time that is no time): one line each. */
  problems: string[];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const time = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
};
const pct = (v: unknown): number | null => {
  const n = num(v);
  return n === null ? null : Math.max(0, Math.min(100, n));
};
const words = (v: unknown, max: number) => (typeof v === 'string' ? truncate(cleanLine(v).trim(), max) : null);
/** A value as a problem line shows it: short, one line, no control byte. */
const shown = (v: unknown): string => truncate(cleanLine(typeof v === 'string' ? JSON.stringify(v) : String(v)), 40);

/**
 * Reads the cache's windows field by field. OMC's HUD clamps every percentage it writes to 0–100 (usage-api.js
 * `clamp`) and writes reset times as ISO dates, so anything else is not OMC's writing: each such field is a
 * problem line and keeps its last good value (`prev`, the cache as last read), never clamped into a figure
 * (1e308 was read as 100 %, -40 as 0 %) or dropped with no word.
 */
class DataReader {
  readonly problems: string[] = [];
  constructor(private readonly prev: UsageData | null) {}

  /** A window from its percentage and reset fields; `prevWindow` is the same window as last read. */
  window(o: Obj, p: string, r: string, prevWindow: Window | null | undefined, prefix = ''): Window | null {
    const raw = o[p];
    const field = `${prefix}${p}`;
    if (raw === undefined || raw === null) return null;
    const good = typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 && raw <= 100;
    if (!good)
      this.problems.push(
        `"${field}" is ${shown(raw)}, not a percentage from 0 to 100 (OMC writes one): ${
          prevWindow ? `the last good value (${Math.round(prevWindow.percent)}%) is kept` : 'not shown'
        }`,
      );
    const resetsMs = this.resets(o[r], prevWindow, `${prefix}${r}`);
    if (good) return { percent: raw, resetsMs };
    return prevWindow ?? null;
  }

  private resets(raw: unknown, prevWindow: Window | null | undefined, field: string): number | null {
    if (raw === undefined || raw === null) return null;
    const t = time(raw);
    if (t !== null) return t;
    const kept = prevWindow?.resetsMs ?? null;
    this.problems.push(
      `"${field}" is ${shown(raw)}, not a time: ${kept !== null ? 'the last good reset time is kept' : 'no reset time is shown'}`,
    );
    return kept;
  }

  data(v: unknown): UsageData | null {
    const o = obj(v);
    if (!o) return null;
    const prev = this.prev;
    // In the order the file is usually read (and the problem lines are said): the main windows first.
    const fiveHour = this.window(o, 'fiveHourPercent', 'fiveHourResetsAt', prev?.fiveHour);
    const weekly = this.window(o, 'weeklyPercent', 'weeklyResetsAt', prev?.weekly);
    const monthly = this.window(o, 'monthlyPercent', 'monthlyResetsAt', prev?.monthly);
    const prevScoped = (label: string) => prev?.scoped.find((s) => s.label === label)?.window;
    const scoped: { label: string; window: Window }[] = [];
    for (const [label, p, r] of [
      ['Sonnet', 'sonnetWeeklyPercent', 'sonnetWeeklyResetsAt'],
      ['Opus', 'opusWeeklyPercent', 'opusWeeklyResetsAt'],
    ] as const) {
      const w = this.window(o, p, r, prevScoped(label));
      if (w) scoped.push({ label, window: w });
    }
    if (Array.isArray(o.scopedWeeklyBuckets))
      for (const b of o.scopedWeeklyBuckets.slice(0, 8)) {
        const bo = obj(b);
        if (!bo) continue;
        const label = words(bo.label, 30) || 'other';
        const w = this.window(bo, 'percent', 'resetsAt', prevScoped(label), `scopedWeeklyBuckets "${label}" `);
        if (w) scoped.push({ label, window: w });
      }
    const spent = num(o.extraUsageSpentUsd);
    return {
      fiveHour,
      weekly,
      monthly,
      scoped,
      extraUsage: spent === null ? null : { spentUsd: spent, limitUsd: num(o.extraUsageLimitUsd) },
    };
  }
}

/**
 * Parses one cache file's JSON; a wrong shape is a problem line (the last good value stays), and so is each odd
 * field (`problems`; that field keeps its value in `prev`, the cache as last read).
 */
export function parseUsageCache(
  rel: string,
  v: unknown,
  prev: UsageCache | null = null,
): { ok: true; value: UsageCache } | { ok: false; problem: string } {
  const o = obj(v);
  if (!o) return { ok: false, problem: 'not a JSON object (OMC writes {timestamp, data, error, source, …})' };
  if (o.data !== null && o.data !== undefined && !obj(o.data))
    return { ok: false, problem: '"data" is not an object or null' };
  const backoff = num(o.rateLimitedUntil);
  const reader = new DataReader(prev?.rel === rel ? prev.data : null);
  const data = reader.data(o.data);
  return {
    ok: true,
    value: {
      rel,
      source: words(o.source, 20) || 'anthropic',
      writtenMs: time(o.timestamp),
      lastSuccessMs: time(o.lastSuccessAt),
      data,
      problems: reader.problems,
      error: o.error === true ? words(o.errorReason, 30) || 'error' : null,
      apiBackoffUntilMs: o.rateLimited === true && backoff !== null ? backoff : null,
    },
  };
}

/** The source OMC's HUD picks for this environment (usage-api.js: the base URL's host decides). */
export function sourceFor(env: NodeJS.ProcessEnv): UsageSource {
  const raw = env.ANTHROPIC_BASE_URL;
  let host = '';
  try {
    host = raw ? new URL(raw).hostname.toLowerCase() : '';
  } catch {
    host = '';
  }
  const is = (...domains: string[]) => domains.some((d) => host === d || host.endsWith(`.${d}`));
  if (is('minimax.io', 'minimaxi.com', 'minimax.com')) return 'minimax';
  if (is('kimi.com')) return 'kimi';
  if (is('z.ai') && env.ANTHROPIC_AUTH_TOKEN) return 'zai';
  return 'anthropic';
}

/** The HUD's poll interval from `<config>/settings.json` (`omcHud.usageApiPollIntervalMs`). */
export function pollIntervalOf(settings: unknown): number {
  const v = num(obj(obj(settings)?.omcHud)?.usageApiPollIntervalMs);
  return v === null ? DEFAULT_POLL_MS : Math.max(MIN_POLL_MS, v);
}

export interface QuotaReading {
  cache: UsageCache;
  /** The data OMC would still serve now (its 15-minute rule); null past it. */
  data: UsageData | null;
  /** now − written. */
  ageMs: number | null;
  /** now − last success. */
  dataAgeMs: number | null;
  /** The HUD would have refetched by now: nothing is refreshing the file (no HUD, no wait daemon running). */
  notRefreshed: boolean;
  /** The data served is from an earlier fetch (the last one failed). */
  servedStale: boolean;
  /** A window at 100 %: the plan is rate-limited until then. */
  limitedUntilMs: number | null;
}

/** How long OMC's HUD takes the cache as valid before it fetches again (a failed fetch is retried sooner). */
export const validityMs = (cache: UsageCache, pollMs: number): number =>
  cache.error === 'network' ? Math.max(120_000, pollMs) : cache.error ? 15_000 : pollMs;

/** The cache judged at `now` by OMC's own rules (§3.3). */
export function judgeUsage(cache: UsageCache, now: number, pollMs: number): QuotaReading {
  const ageMs = cache.writtenMs === null ? null : Math.max(0, now - cache.writtenMs);
  const dataAgeMs = cache.lastSuccessMs === null ? null : Math.max(0, now - cache.lastSuccessMs);
  const usable = cache.data !== null && dataAgeMs !== null && dataAgeMs <= MAX_STALE_DATA_MS;
  const valid = validityMs(cache, pollMs);
  const backoff = cache.apiBackoffUntilMs !== null && cache.apiBackoffUntilMs > now;
  const data = usable ? cache.data : null;
  let limitedUntilMs: number | null = null;
  for (const w of [data?.fiveHour, data?.weekly, data?.monthly])
    if (w && w.percent >= 100 && w.resetsMs !== null && w.resetsMs > now)
      limitedUntilMs = limitedUntilMs === null ? w.resetsMs : Math.min(limitedUntilMs, w.resetsMs);
  return {
    cache,
    data,
    ageMs,
    dataAgeMs,
    // A HUD renders every few seconds and refetches past `valid` (a backoff holds it back): older means none runs.
    notRefreshed: ageMs !== null && !backoff && ageMs > valid + 60_000,
    servedStale: usable && (cache.error !== null || (cache.writtenMs ?? 0) > (cache.lastSuccessMs ?? 0) + 1_000),
    limitedUntilMs,
  };
}

/** Where `omc wait` keeps its files on this platform (getGlobalOmcStatePath). */
export function waitDaemonDir(env: NodeJS.ProcessEnv, platform = process.platform): string {
  const home = homeDir(env);
  if (env.OMC_HOME && path.isAbsolute(env.OMC_HOME)) return path.join(env.OMC_HOME, 'state');
  if (platform === 'darwin' || platform === 'win32') return path.join(home, '.omc', 'state');
  const xdg =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  return path.join(xdg, 'omc');
}

export const DAEMON_STATE = 'rate-limit-daemon.json';
export const DAEMON_PID = 'rate-limit-daemon.pid';

export interface DaemonState {
  /** The pid the state file names (the pid file decides liveness). */
  pid: number | null;
  lastPollMs: number | null;
  limited: boolean | null;
  fiveHourLimited: boolean;
  weeklyLimited: boolean;
  nextResetMs: number | null;
  fiveHourPercent: number | null;
  weeklyPercent: number | null;
  /** Panes its last poll saw blocked ("%3" ids with their tmux session): one poll old at best, often empty. */
  blockedPanes: { id: string; session: string | null; firstDetectedMs: number | null }[];
  resumes: number;
}

export function parseDaemonState(v: unknown): { ok: true; value: DaemonState } | { ok: false; problem: string } {
  const o = obj(v);
  if (!o)
    return { ok: false, problem: 'not a JSON object (OMC writes {isRunning, pid, rateLimitStatus, blockedPanes, …})' };
  const st = obj(o.rateLimitStatus);
  const panes = Array.isArray(o.blockedPanes) ? o.blockedPanes : [];
  return {
    ok: true,
    value: {
      pid: num(o.pid),
      lastPollMs: time(o.lastPollAt),
      limited: st ? st.isLimited === true : null,
      fiveHourLimited: st?.fiveHourLimited === true,
      weeklyLimited: st?.weeklyLimited === true,
      nextResetMs: st ? time(st.nextResetAt) : null,
      fiveHourPercent: st ? pct(st.fiveHourPercent) : null,
      weeklyPercent: st ? pct(st.weeklyPercent) : null,
      blockedPanes: panes.slice(0, 64).flatMap((p) => {
        const po = obj(p);
        const id = words(po?.id, 20);
        return po && id && /^%\d+$/.test(id)
          ? [{ id, session: words(po.session, 60), firstDetectedMs: time(po.firstDetectedAt) }]
          : [];
      }),
      resumes: num(o.successfulResumes) ?? 0,
    },
  };
}

/** The pid file's pid (OMC writes the bare number). */
export function parsePidFile(text: string): number | null {
  const t = text.trim();
  return /^\d{1,10}$/.test(t) && Number(t) > 0 ? Number(t) : null;
}
