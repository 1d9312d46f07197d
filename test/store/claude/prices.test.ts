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

describe("prices against Claude Code 2.1.332's own figures", () => {
  const FIX = path.resolve(__dirname, '../../fixtures/claude-2.1.332');

  it('the cost-state line of a real session with subagents: every model priced, each costUSD equal to ours', async () => {
    const { estimate } = await import('../../../src/store/claude/prices.js');
    const line = JSON.parse(
      fs.readFileSync(path.join(FIX, 'q3-cost-state-lines-with-subagents.jsonl'), 'utf8').split('\n')[0] as string,
    ) as { totalCostUSD: number; modelUsage: Record<string, Record<string, number>> };
    const by = new Map(
      Object.entries(line.modelUsage).map(([model, u]) => [
        model,
        {
          input: u.inputTokens as number,
          output: u.outputTokens as number,
          cacheRead: u.cacheReadInputTokens as number,
          cacheWrite: u.cacheCreationInputTokens as number,
          cacheWrite1h: u.cacheCreationEphemeral1hInputTokens as number,
          webSearches: u.webSearchRequests as number,
          responses: 1,
          long: null,
        },
      ]),
    );
    const e = estimate(by, undefined);
    expect(e.unpriced).toEqual([]);
    for (const [model, u] of Object.entries(line.modelUsage))
      expect(e.priced.find((x) => x.model === model)?.usd).toBeCloseTo(u.costUSD as number, 12);
    expect(e.usd).toBeCloseTo(line.totalCostUSD, 12);
  });

  it('unpriced usage is never a zero cost; 1-hour cache writes and long haiku 5.5 prompts take their own rates', async () => {
    const { estimate, estimateText, usageUsd } = await import('../../../src/store/claude/prices.js');
    const { addResponse } = await import('../../../src/store/claude/usage.js');
    const by = new Map();
    addResponse(by, 'claude-mock', {
      input: 10,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite1h: 0,
      webSearches: 0,
    });
    expect(estimateText(estimate(by, undefined))).toBe('unpriced (claude-mock)');
    addResponse(by, 'claude-opus-5-5', {
      input: 1e6,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite1h: 0,
      webSearches: 0,
    });
    expect(estimateText(estimate(by, undefined))).toBe('$4.00 est. + 1 unpriced model');
    const opus = priceFor('claude-opus-5-5', undefined)!.price;
    // 1M cache write of which 0.5M for an hour: 0.5 × $5 + 0.5 × $8.
    expect(
      usageUsd({ input: 0, output: 0, cacheRead: 0, cacheWrite: 1e6, cacheWrite1h: 5e5, webSearches: 0 }, opus),
    ).toBeCloseTo(6.5, 9);
    // Haiku 5.5 above 100k prompt tokens: the long-prompt rates ($0.50 in) for that response only.
    const h = new Map();
    addResponse(h, 'claude-haiku-5-5', {
      input: 150_000,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite1h: 0,
      webSearches: 0,
    });
    addResponse(h, 'claude-haiku-5-5', {
      input: 50_000,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite1h: 0,
      webSearches: 0,
    });
    expect(estimate(h, undefined).usd).toBeCloseTo(0.15 * 0.5 + 0.05 * 0.1, 9);
  });
});
