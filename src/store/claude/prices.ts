/**
 * Estimated cost of a session's tokens. Only a model whose price is known gets
 * a figure: a small built-in table of published list prices, which the user's
 * config file (`prices`, validated in src/notify/config.ts) can extend or
 * override. Every figure is an estimate (cache-write at the 5-minute rate,
 * no batch or regional discounts): views always mark it "est.".
 */
import type { Tokens } from './transcript-facts.js';

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const p = (input: number, output: number): ModelPrice => ({
  input,
  output,
  // Anthropic's published ratios: cache reads at 0.1×, 5-minute cache writes at 1.25× the input price.
  cacheRead: input / 10,
  cacheWrite: input * 1.25,
});

/** Model id prefixes (a dated id such as claude-sonnet-4-20250514 matches its family). Longest prefix wins. */
export const BUILTIN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-5': p(5, 25),
  'claude-opus-4-6': p(5, 25),
  'claude-opus-4-1': p(15, 75),
  'claude-opus-4': p(15, 75),
  'claude-sonnet-4': p(3, 15),
  'claude-3-7-sonnet': p(3, 15),
  'claude-3-5-sonnet': p(3, 15),
  'claude-haiku-4-5': p(1, 5),
  'claude-3-5-haiku': p(0.8, 4),
};

export interface PricedModel {
  model: string;
  price: ModelPrice;
  /** Which table named it. */
  source: 'config' | 'built-in';
}

function lookup(model: string, table: Readonly<Record<string, ModelPrice>>): ModelPrice | null {
  if (Object.hasOwn(table, model)) return table[model] as ModelPrice;
  let best: string | null = null;
  for (const k of Object.keys(table))
    if (model.startsWith(`${k}-`) && (best === null || k.length > best.length)) best = k;
  return best === null ? null : (table[best] as ModelPrice);
}

/** The config's entry first (exact id or prefix), then the built-in table; null = unknown (no cost shown). */
export function priceFor(
  model: string | null,
  overrides: Readonly<Record<string, ModelPrice>> | undefined,
): PricedModel | null {
  if (!model) return null;
  const mine = overrides ? lookup(model, overrides) : null;
  if (mine) return { model, price: mine, source: 'config' };
  const built = lookup(model, BUILTIN_PRICES);
  return built ? { model, price: built, source: 'built-in' } : null;
}

export function estimateUsd(t: Tokens, price: ModelPrice): number {
  return (
    (t.input * price.input +
      t.output * price.output +
      t.cacheRead * price.cacheRead +
      t.cacheWrite * price.cacheWrite) /
    1_000_000
  );
}

/** "$0.0123 est." — always says it is an estimate. */
export function formatUsdEst(usd: number): string {
  const digits = usd >= 100 ? 0 : usd >= 1 ? 2 : 4;
  return `$${usd.toFixed(digits)} est.`;
}
