/**
 * Token usage per model, as a cost needs it: one API response's `usage` split
 * into the parts that are priced differently (input, output, cache read, cache
 * writes at the 5-minute and the 1-hour rate, web searches), summed per model,
 * with the responses whose prompt was long kept apart (some models charge
 * those at a higher rate). A spend timeline keeps the same sums in time
 * buckets, so a run's window, a mode or a day can be costed later. Pure.
 */
import { type Obj, obj } from '../../io/json.js';
import { cleanLine, truncate } from '../../io/sanitize.js';

/**
 * A response whose prompt (input + cache read + cache write) exceeds this is priced at a model's
 * long-prompt rate where it has one: the only threshold in Claude Code 2.1.332's model catalog
 * (claude-haiku-5-5), read from its binary 2026-12-01.
 */
export const LONG_PROMPT_TOKENS = 100_000;

export interface UsagePart {
  input: number;
  output: number;
  cacheRead: number;
  /** Every cache write, both rates (what Claude Code's usage calls cache_creation_input_tokens). */
  cacheWrite: number;
  /** The part of `cacheWrite` written for one hour (a higher rate). */
  cacheWrite1h: number;
  webSearches: number;
}

export interface ModelUsage extends UsagePart {
  /** API responses counted. */
  responses: number;
  /** The part of the sums above from responses whose prompt exceeded LONG_PROMPT_TOKENS. */
  long: UsagePart | null;
}

/** Keyed by the model id the response named ("(unnamed model)" when it named none). */
export type UsageByModel = Map<string, ModelUsage>;

export const UNNAMED_MODEL = '(unnamed model)';

export const zeroPart = (): UsagePart => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cacheWrite1h: 0,
  webSearches: 0,
});

/**
 * The most one count of one API response can hold, in tokens (and web searches). One request's prompt (input +
 * cache read + cache write) is bounded by the model's context window, 1M tokens at the most for any Claude model
 * (2026-12), and its output by the model's output limit, far below that. 10^9 is a thousand times the largest
 * window: no real response reaches it, so a count above it is a corrupt or hand-written line, and counting it would
 * make one line the project's spend (`"input_tokens": 1e300` read as $4e+294 in every rollup).
 */
export const MAX_RESPONSE_COUNT = 1e9;

/** The counts of `message.usage` a cost is made of, as Claude Code 2.1.332 names them. */
const COUNT_FIELDS = [
  ['input_tokens'],
  ['output_tokens'],
  ['cache_read_input_tokens'],
  ['cache_creation_input_tokens'],
  ['cache_creation', 'ephemeral_1h_input_tokens'],
  ['server_tool_use', 'web_search_requests'],
] as const;

/** A value as a problem line shows it: short, one line, no control byte. */
const shown = (v: unknown): string => truncate(cleanLine(typeof v === 'string' ? JSON.stringify(v) : String(v)), 24);

/**
 * One count: absent or null counts 0 (older lines omit fields); else a whole number from 0 to
 * MAX_RESPONSE_COUNT, or null for anything else.
 */
const countOf = (v: unknown): number | null =>
  v === undefined || v === null
    ? 0
    : typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_RESPONSE_COUNT
      ? v
      : null;

export type UsageRead = { ok: true; part: UsagePart } | { ok: false; why: string };

/**
 * The priced parts of one response's `message.usage` (2.1.332's shape; missing fields count 0), or why they
 * cannot be counted: a count that is not a whole number from 0 to MAX_RESPONSE_COUNT (negative, fractional,
 * a string, 1e300). Such a response is left out of every total and said as a problem line, never clamped to 0
 * or counted as is.
 */
export function readUsage(usage: Obj): UsageRead {
  const counts: number[] = [];
  let bad: string[] | null = null;
  for (const [a, b] of COUNT_FIELDS) {
    const v = b === undefined ? usage[a] : obj(usage[a])?.[b];
    const n = countOf(v);
    if (n === null) (bad ??= []).push(`${b === undefined ? a : `${a}.${b}`} is ${shown(v)}`);
    counts.push(n ?? 0);
  }
  if (bad) return { ok: false, why: bad.join(', ') };
  const [input = 0, output = 0, cacheRead = 0, cacheWrite = 0, cacheWrite1h = 0, webSearches = 0] = counts;
  return {
    ok: true,
    part: { input, output, cacheRead, cacheWrite, cacheWrite1h: Math.min(cacheWrite, cacheWrite1h), webSearches },
  };
}

/**
 * The problem line for responses whose usage could not be counted: the last one named (its message id, else its
 * time), how many there were.
 */
export function badUsageText(why: string, id: string | null, atMs: number | null, responses: number): string {
  const which =
    id !== null
      ? `response ${truncate(cleanLine(id).trim(), 60)}`
      : atMs !== null
        ? `the response at ${new Date(atMs).toISOString()}`
        : 'a response with no id or time';
  return `${which}: ${why}: not a token count one API response can hold (a whole number from 0 to 10^9); left out of every total${responses > 1 ? ` (${responses} such responses, the last one named)` : ''}`;
}

/** Suffixes of a model key for responses priced differently: fast mode, US-only inference. */
export const FAST_SUFFIX = ' fast';
export const US_SUFFIX = ' us-only';

/**
 * The model a response names, as a key: cleaned and bounded (it is shown and written to --json), with
 * " fast" when `usage.speed` was "fast" and " us-only" when `usage.inference_geo` was "us" (both priced
 * differently by Claude Code 2.1.332).
 */
export function modelKey(model: unknown, usage?: Obj | null): string {
  const id =
    typeof model === 'string' && model !== '' ? truncate(cleanLine(model).trim(), 80) || UNNAMED_MODEL : UNNAMED_MODEL;
  if (id === UNNAMED_MODEL || !usage) return id;
  return `${id}${usage.speed === 'fast' ? FAST_SUFFIX : ''}${usage.inference_geo === 'us' ? US_SUFFIX : ''}`;
}

const isLong = (p: UsagePart) => p.input + p.cacheRead + p.cacheWrite > LONG_PROMPT_TOKENS;

export function addPart(into: UsagePart, p: UsagePart): void {
  into.input += p.input;
  into.output += p.output;
  into.cacheRead += p.cacheRead;
  into.cacheWrite += p.cacheWrite;
  into.cacheWrite1h += p.cacheWrite1h;
  into.webSearches += p.webSearches;
}

/**
 * Every field written out, not `{ ...zeroPart(), responses, long }`: V8 gives each object made by a spread
 * plus added fields a hidden class of its own (measured: 8 of 2,000 shared one), and one such object lives per
 * model per iteration, time bucket and session: ~3,100 hidden classes (~0.9 MB the collector marks) after a
 * 200-transcript catch-up, and sums over them were megamorphic. Same fields, same order.
 */
const blank = (): ModelUsage => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cacheWrite1h: 0,
  webSearches: 0,
  responses: 0,
  long: null,
});

/** Counts one response of `model` into `by`. */
export function addResponse(by: UsageByModel, model: string, p: UsagePart): void {
  let m = by.get(model);
  if (!m) by.set(model, (m = blank()));
  addPart(m, p);
  m.responses += 1;
  if (isLong(p)) addPart((m.long ??= zeroPart()), p);
}

/** Adds one model's sums into `by`. */
export function addModelUsage(by: UsageByModel, model: string, u: ModelUsage): void {
  let m = by.get(model);
  if (!m) by.set(model, (m = blank()));
  addPart(m, u);
  m.responses += u.responses;
  if (u.long) addPart((m.long ??= zeroPart()), u.long);
}

/** Adds every model's sums of `from` into `into`. */
export function addUsage(into: UsageByModel, from: ReadonlyMap<string, ModelUsage>): void {
  for (const [model, u] of from) addModelUsage(into, model, u);
}

export function copyUsage(from: ReadonlyMap<string, ModelUsage>): UsageByModel {
  const out: UsageByModel = new Map();
  addUsage(out, from);
  return out;
}

/** input + output + cache read + cache write, over every model (the "tokens" a row shows). */
export function usageTokens(by: ReadonlyMap<string, ModelUsage>): number {
  let n = 0;
  for (const u of by.values()) n += u.input + u.output + u.cacheRead + u.cacheWrite;
  return n;
}

/**
 * Bucket widths in minutes: each divides the next and a day, so buckets never straddle a UTC day and
 * coarsening merges whole buckets.
 */
const WIDTHS_MIN = [1, 5, 15, 30, 60, 180, 360, 720, 1440];
/** Buckets kept per timeline; past this the width grows (and at a day's width the oldest days go). */
export const TIMELINE_BUCKETS = 96;

export interface SpendBucket {
  startMs: number;
  byModel: UsageByModel;
}

/**
 * A session's usage over time, in buckets of `widthMs` (one minute while it fits, coarser as the session
 * grows), so a window's or a day's usage can be summed later. A window's edges are exact to one bucket.
 */
export class SpendTimeline {
  private level = 0;
  private buckets = new Map<number, UsageByModel>();
  /** Buckets before this were dropped (only after a 96-day session). */
  droppedBefore: number | null = null;
  /**
   * Usage with no place in time: responses without a timestamp and dropped buckets. The buckets and this
   * always add up to every response added.
   */
  readonly undated: UsageByModel = new Map();

  get widthMs(): number {
    return (WIDTHS_MIN[this.level] as number) * 60_000;
  }

  add(atMs: number | null, model: string, p: UsagePart): void {
    const b = atMs === null ? null : this.bucketAt(atMs);
    addResponse(b ?? this.undated, model, p);
  }

  /** A copy that can take more usage without changing this one. */
  clone(): SpendTimeline {
    const t = new SpendTimeline();
    t.level = this.level;
    t.droppedBefore = this.droppedBefore;
    addUsage(t.undated, this.undated);
    for (const [start, by] of this.buckets) t.buckets.set(start, copyUsage(by));
    return t;
  }

  /** Adds another timeline's buckets (subagents into their session). */
  merge(other: SpendTimeline): void {
    for (const b of other.list())
      for (const [model, u] of b.byModel) addModelUsage(this.bucketAt(b.startMs) ?? this.undated, model, u);
    addUsage(this.undated, other.undated);
  }

  private floor(atMs: number): number {
    const w = this.widthMs;
    return atMs - (((atMs % w) + w) % w);
  }

  /** The bucket holding `atMs` (made when missing), or null when that time was dropped. */
  private bucketAt(atMs: number): UsageByModel | null {
    if (!Number.isFinite(atMs)) return null;
    let start = this.floor(atMs);
    if (this.droppedBefore !== null && start < this.droppedBefore) return null;
    const had = this.buckets.get(start);
    if (had) return had;
    this.buckets.set(start, new Map());
    if (this.buckets.size <= TIMELINE_BUCKETS) return this.buckets.get(start) ?? null;
    this.coarsen();
    start = this.floor(atMs);
    return this.buckets.get(start) ?? null;
  }

  private coarsen(): void {
    while (this.buckets.size > TIMELINE_BUCKETS) {
      if (this.level === WIDTHS_MIN.length - 1) {
        const oldest = Math.min(...this.buckets.keys());
        addUsage(this.undated, this.buckets.get(oldest) ?? new Map());
        this.buckets.delete(oldest);
        this.droppedBefore = oldest + this.widthMs;
        continue;
      }
      this.level += 1;
      const merged = new Map<number, UsageByModel>();
      for (const [start, by] of this.buckets) {
        const s = this.floor(start);
        const into = merged.get(s) ?? new Map<string, ModelUsage>();
        addUsage(into, by);
        merged.set(s, into);
      }
      this.buckets = merged;
    }
  }

  /** The buckets, oldest first. */
  list(): SpendBucket[] {
    return [...this.buckets.entries()].sort((a, b) => a[0] - b[0]).map(([startMs, byModel]) => ({ startMs, byModel }));
  }
}
