/** The cost estimate: only for a model whose price is known, the user's config first, a bad entry named. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config-file.js';
import { configuredPrices, forgetConfiguredPrices } from '../../../src/store/claude/price-config.js';
import { estimateUsd, formatUsdEst, priceFor } from '../../../src/store/claude/prices.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
  forgetConfiguredPrices();
});
const writeConfig = (value: unknown) => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-prices-'));
  fs.mkdirSync(path.join(dir, 'omc-top'));
  const file = path.join(dir, 'omc-top', 'config.json');
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

describe('prices', () => {
  it('a dated model id takes its family price; an unknown model has none (no guess)', () => {
    expect(priceFor('claude-sonnet-4-20250514', undefined)?.price.input).toBe(3);
    expect(priceFor('claude-opus-4-1-20250805', undefined)?.price.output).toBe(75);
    // The models Claude Code 2.1.332 uses by default (its catalog's prices).
    expect(priceFor('claude-opus-5-5', undefined)?.price).toMatchObject({ input: 4, output: 20, cacheRead: 0.2 });
    expect(priceFor('claude-haiku-5-5', undefined)?.price).toMatchObject({ input: 0.1, output: 0.5 });
    expect(priceFor('claude-sonnet-5-5', undefined)?.price).toMatchObject({ input: 2, output: 10, cacheRead: 0.1 });
    // A newer model is not priced by its family's prefix: unpriced, never guessed.
    expect(priceFor('claude-opus-5-6', undefined)).toBeNull();
    expect(priceFor('claude-mock', undefined)).toBeNull();
    expect(priceFor(null, undefined)).toBeNull();
    const t = { input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000, cacheWrite: 1_000_000 };
    // 3 + 15 + 0.3 + 3.75
    expect(estimateUsd(t, priceFor('claude-sonnet-4-5', undefined)!.price)).toBeCloseTo(22.05, 6);
    expect(formatUsdEst(0.011047)).toBe('$0.0110 est.');
  });

  it("the config's prices override and extend the table", () => {
    const file = writeConfig({
      prices: { 'claude-opus-5-5': { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 } },
    });
    const prices = configuredPrices({ XDG_CONFIG_HOME: dir! });
    expect(loadConfig(file).error).toBeNull();
    expect(priceFor('claude-opus-5-5', prices)).toMatchObject({ source: 'config', price: { output: 2 } });
    expect(priceFor('claude-sonnet-4', prices)?.source).toBe('built-in');
  });

  it('a bad price names the file and the field, and only the built-in table applies', () => {
    const file = writeConfig({ prices: { 'claude-x': { input: -1, output: 2, cacheRead: 0, cacheWrite: 0 } } });
    expect(loadConfig(file).error).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: prices\\.claude-x\\.input: `),
    );
    expect(configuredPrices({ XDG_CONFIG_HOME: dir! })).toEqual({});
    fs.writeFileSync(
      file,
      JSON.stringify({ prices: { 'claude-x': { input: 1, output: 'cheap', cacheRead: 0, cacheWrite: 0 } } }),
    );
    expect(loadConfig(file).error).toContain('prices.claude-x.output');
  });
});
