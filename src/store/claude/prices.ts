/**
 * Estimated cost of a session's usage, per model. Only a model whose price is
 * known gets a figure: a built-in table, which the user's config file
 * (`prices`, validated in src/config/config-file.ts) can extend or override.
 * A model in neither is "unpriced": shown as such, never costed as zero. Every
 * figure is an estimate (no batch, regional or negotiated prices): views
 * always mark it "est.".
 *
 * Source of the built-in table: the baked-in model catalog of Claude Code
 * 2.1.332 (the CLI omc-top is tested against), read from the text of its
 * binary on 2026-12-01 — the prices that CLI itself uses for its `cost-state`
 * figures. Checked against a real run (cc-lab sample q3-cost-state-lines):
 * opus 5.5 1,134 in / 144 out / 34,000 cache read / 55 cache write → $0.014491
 * and haiku 5.5 203 / 23 / 3,000 / 10 → $0.00006305, both equal to the CLI's
 * `costUSD`. Re-read the table when the pinned CLI changes.
 */
import { FAST_SUFFIX, UNNAMED_MODEL, US_SUFFIX, type ModelUsage, type UsagePart } from './usage.js';

/**
 * The model Claude Code 2.1.332 names on a message it made itself, with no API call (an API error or an interrupted
 * turn written as Claude's reply; its usage is all zeros): it costs nothing, so it is never "unpriced" and asks for
 * no price.
 */
export const SYNTHETIC_MODEL = '<synthetic>';
const NO_API_CALL: ModelPrice = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
/** Said of it where a model's price is said. */
export const SYNTHETIC_WORDS = "Claude Code's own message, no API call";

/** Where the built-in table comes from, in words (shown beside every estimate's source). */
export const PRICE_SOURCE = "Claude Code 2.1.332's model catalog (read from the CLI, 2026-12-01)";

/** USD per million tokens. */
export interface Rates {
  input: number;
  output: number;
  cacheRead: number;
  /** The 5-minute cache write. */
  cacheWrite: number;
  /** The 1-hour cache write; absent = the 5-minute rate. */
  cacheWrite1h?: number;
}

export interface ModelPrice extends Rates {
  /** USD per web search request. */
  webSearch?: number;
  /** Rates for a response whose prompt exceeded LONG_PROMPT_TOKENS (usage.ts). */
  longPrompt?: Rates;
}

const r = (
  input: number,
  output: number,
  cacheRead: number,
  cacheWrite: number,
  cacheWrite1h: number,
  longPrompt?: Rates,
): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite,
  cacheWrite1h,
  webSearch: 0.01,
  ...(longPrompt ? { longPrompt } : {}),
});

// The catalog's price tiers (USD per million: input, output, cache read, 5-minute write, 1-hour write).
const T3_15 = r(3, 15, 0.3, 3.75, 6);
const T5_25 = r(5, 25, 0.5, 6.25, 10);
const T15_75 = r(15, 75, 1.5, 18.75, 30);
const T2_10 = r(2, 10, 0.2, 2.5, 4);
const T2_10_R010 = r(2, 10, 0.1, 2.5, 4);
const T4_20_R020 = r(4, 20, 0.2, 5, 8);
const T10_50 = r(10, 50, 1, 12.5, 20);
const T10_50_R025 = r(10, 50, 0.25, 12.5, 20);
const T8_40_R020 = r(8, 40, 0.2, 10, 16);

/**
 * Model ids as the API names them in a response (`message.model`), without a date suffix: a key also
 * prices `<key>-YYYYMMDD`. Catalog ids that differ from the API's (claude-sonnet-4-0) are listed too.
 */
export const BUILTIN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-3-5-haiku': r(0.8, 4, 0.08, 1, 1.6),
  'claude-haiku-4-5': r(1, 5, 0.1, 1.25, 2),
  'claude-haiku-5-5': r(0.1, 0.5, 0.01, 0.125, 0.2, {
    input: 0.5,
    output: 2.5,
    cacheRead: 0.05,
    cacheWrite: 0.625,
    cacheWrite1h: 1,
  }),
  'claude-3-5-sonnet': T3_15,
  'claude-3-7-sonnet': T3_15,
  'claude-sonnet-4': T3_15,
  'claude-sonnet-4-0': T3_15,
  'claude-sonnet-4-5': T3_15,
  'claude-sonnet-4-6': T3_15,
  'claude-sonnet-5': T2_10,
  'claude-sonnet-5-5': T2_10_R010,
  'claude-opus-4': T15_75,
  'claude-opus-4-0': T15_75,
  'claude-opus-4-1': T15_75,
  'claude-opus-4-5': T5_25,
  'claude-opus-4-6': T5_25,
  'claude-opus-4-7': T5_25,
  'claude-opus-4-8': T5_25,
  'claude-opus-5': T5_25,
  'claude-opus-5-5': T4_20_R020,
  'claude-fable-5': T10_50,
  'claude-fable-5-1': T10_50_R025,
  'claude-fable-5-2': T8_40_R020,
  'claude-mythos-5': T10_50,
  'claude-mythos-5-1': T10_50_R025,
  'claude-mythos-5-2': T8_40_R020,
};

/** Fast-mode rates (a response with `usage.speed: "fast"`), from the same catalog; other models have none. */
export const BUILTIN_FAST_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-6': r(30, 150, 3, 37.5, 60),
  'claude-opus-4-7': r(30, 150, 3, 37.5, 60),
  'claude-opus-4-8': r(10, 50, 1, 12.5, 20),
  'claude-opus-5': r(10, 50, 1, 12.5, 20),
  'claude-opus-5-5': r(8, 40, 0.4, 10, 16),
  'claude-fable-5-2': r(16, 80, 0.4, 20, 32),
  'claude-mythos-5-2': r(16, 80, 0.4, 20, 32),
};

/** Requests served only in the US cost this much more (Claude Code 2.1.332: `inference_geo: "us"`). */
export const US_ONLY_FACTOR = 1.1;

export interface PricedModel {
  model: string;
  price: ModelPrice;
  /** Which table named it. */
  source: 'config' | 'built-in';
}

const DATED = /-\d{8}$/;

function builtIn(id: string, fast: boolean): ModelPrice | null {
  const table = fast ? BUILTIN_FAST_PRICES : BUILTIN_PRICES;
  const base = id.replace(/\[1m\]$/i, '');
  if (Object.hasOwn(table, base)) return table[base] as ModelPrice;
  const undated = base.replace(DATED, '');
  return undated !== base && Object.hasOwn(table, undated) ? (table[undated] as ModelPrice) : null;
}

/** The user's entries: an exact id, else the longest key the id starts with (followed by "-"). */
function configured(id: string, table: Readonly<Record<string, ModelPrice>>): ModelPrice | null {
  if (Object.hasOwn(table, id)) return table[id] as ModelPrice;
  let best: string | null = null;
  for (const k of Object.keys(table)) if (id.startsWith(`${k}-`) && (best === null || k.length > best.length)) best = k;
  return best === null ? null : (table[best] as ModelPrice);
}

/** The model id and how it was served, from a usage key ("claude-opus-5-5 fast us-only"). */
export function splitModelKey(key: string): { id: string; fast: boolean; usOnly: boolean } {
  let id = key;
  const usOnly = id.endsWith(US_SUFFIX);
  if (usOnly) id = id.slice(0, -US_SUFFIX.length);
  const fast = id.endsWith(FAST_SUFFIX);
  if (fast) id = id.slice(0, -FAST_SUFFIX.length);
  return { id, fast, usOnly };
}

/**
 * The config's entry first (exact id or prefix; the user can name "<id> fast" too), then the built-in
 * table (exact id or the id with a date suffix). null = unpriced: no cost is shown for it, never zero.
 */
export function priceFor(
  model: string | null,
  overrides: Readonly<Record<string, ModelPrice>> | undefined,
): PricedModel | null {
  if (!model || model === UNNAMED_MODEL) return null;
  const { id, fast } = splitModelKey(model);
  if (id === SYNTHETIC_MODEL) return { model: id, price: NO_API_CALL, source: 'built-in' };
  const name = fast ? `${id}${FAST_SUFFIX}` : id;
  const mine = overrides ? configured(name, overrides) : null;
  if (mine) return { model: name, price: mine, source: 'config' };
  const built = builtIn(id, fast);
  return built ? { model: name, price: built, source: 'built-in' } : null;
}

function partUsd(t: UsagePart, rates: Rates, webSearch: number): number {
  const oneHour = Math.min(t.cacheWrite1h, t.cacheWrite);
  const tokens =
    t.input * rates.input +
    t.output * rates.output +
    t.cacheRead * rates.cacheRead +
    (t.cacheWrite - oneHour) * rates.cacheWrite +
    oneHour * (rates.cacheWrite1h ?? rates.cacheWrite);
  return tokens / 1_000_000 + t.webSearches * webSearch;
}

/** USD for one model's usage at `price` (the long-prompt part at its own rates, US-only at 1.1×). */
export function usageUsd(u: ModelUsage | UsagePart, price: ModelPrice, usOnly = false): number {
  const web = price.webSearch ?? 0;
  const long = 'long' in u ? u.long : null;
  let usd: number;
  if (long && price.longPrompt) {
    const short: UsagePart = {
      input: u.input - long.input,
      output: u.output - long.output,
      cacheRead: u.cacheRead - long.cacheRead,
      cacheWrite: u.cacheWrite - long.cacheWrite,
      cacheWrite1h: u.cacheWrite1h - long.cacheWrite1h,
      webSearches: u.webSearches - long.webSearches,
    };
    usd = partUsd(short, price, web) + partUsd(long, price.longPrompt, web);
  } else usd = partUsd(u, price, web);
  return usOnly ? usd * US_ONLY_FACTOR : usd;
}

export interface Estimate {
  /** USD of the priced models (0 when none is priced: then look at `unpriced`). */
  usd: number;
  /** Per priced model: its USD and where the price came from. */
  priced: { model: string; usd: number; source: 'config' | 'built-in'; tokens: number }[];
  /** Models with usage but no price, with their tokens: never counted as zero. */
  unpriced: { model: string; tokens: number }[];
}

const tokensOf = (u: UsagePart) => u.input + u.output + u.cacheRead + u.cacheWrite;

/** The estimate of usage over several models. */
export function estimate(
  by: ReadonlyMap<string, ModelUsage>,
  overrides: Readonly<Record<string, ModelPrice>> | undefined,
): Estimate {
  const out: Estimate = { usd: 0, priced: [], unpriced: [] };
  for (const [model, u] of by) {
    const tokens = tokensOf(u);
    if (tokens === 0 && u.webSearches === 0) continue;
    const p = priceFor(model, overrides);
    if (!p) {
      out.unpriced.push({ model, tokens });
      continue;
    }
    const usd = usageUsd(u, p.price, splitModelKey(model).usOnly);
    out.usd += usd;
    out.priced.push({ model, usd, source: p.source, tokens });
  }
  return out;
}

/**
 * One model's part of `e` for a per-model list (the session detail, `--json`'s by_model), or null when it has no
 * price. A model with no tokens is in neither of the estimate's lists: its price decides, $0 when it has one (a
 * `<synthetic>` message, a response with an empty usage), so the list never calls a priced model "unpriced".
 */
export function modelShare(
  model: string,
  e: Estimate,
  overrides: Readonly<Record<string, ModelPrice>> | undefined,
): { usd: number; source: 'config' | 'built-in' } | null {
  const p = e.priced.find((x) => x.model === model);
  if (p) return p;
  if (e.unpriced.some((x) => x.model === model)) return null;
  const q = priceFor(model, overrides);
  return q ? { usd: 0, source: q.source } : null;
}

/** Tokens × price of a plain token count (one model, 5-minute cache writes). */
export function estimateUsd(
  t: { input: number; output: number; cacheRead: number; cacheWrite: number },
  price: ModelPrice,
): number {
  return partUsd({ ...t, cacheWrite1h: 0, webSearches: 0 }, price, 0);
}

/** "$0.0123 est." — always says it is an estimate. */
export function formatUsdEst(usd: number): string {
  return `${formatUsd(usd)} est.`;
}

/** "$0.0123", "$4.20", "$120". */
export function formatUsd(usd: number): string {
  const digits = usd >= 100 ? 0 : usd >= 1 ? 2 : 4;
  return `$${usd.toFixed(digits)}`;
}

/**
 * An estimate in a few words: "$0.42 est.", "$0.42 est. + 1 unpriced model", "unpriced (claude-x)".
 * Never "$0" for usage nobody priced.
 */
export function estimateText(e: Estimate): string {
  if (e.priced.length === 0 && e.unpriced.length === 0) return '$0 est.';
  if (e.priced.length === 0)
    return e.unpriced.length === 1 ? `unpriced (${e.unpriced[0]?.model})` : `unpriced (${e.unpriced.length} models)`;
  const base = formatUsdEst(e.usd);
  if (e.unpriced.length === 0) return base;
  return `${base} + ${e.unpriced.length} unpriced model${e.unpriced.length === 1 ? '' : 's'}`;
}
