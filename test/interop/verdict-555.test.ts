/**
 * Must hold (issue 11): omc-top's verdict equals OMC 5.5.0's real Stop hook on every one of
 * ≥ 1,000 generated trees. Seeded: OMC_TOP_VERDICT_SEED reproduces a run.
 */
import { describe, expect, it } from 'vitest';
import { runDifferential, runnerMatchesSpawn } from './verdict-differential.js';
import { runNamed } from './verdict-named.js';
import { scaled } from '../helpers/time-scale.js';

describe('verdict engine vs OMC 5.5.0 scripts/persistent-mode.mjs', () => {
  it('the in-process hook runner decides as real hook processes do', { timeout: scaled(120_000) }, async () => {
    await runnerMatchesSpawn('5.5.0', 8);
  });

  it(
    "issue 11's observed cases: the real hook and the engine both decide as reported",
    { timeout: scaled(120_000) },
    async () => {
      await runNamed('5.5.0');
    },
  );

  it('agrees with the real hook on 1,000 generated state trees', { timeout: scaled(600_000) }, async () => {
    const r = await runDifferential('5.5.0', 1000);
    console.log(`5.5.0: 1000 cases in ${(r.ms / 1000).toFixed(1)} s, ${r.blocks} blocked`);
    // A generator that never makes the hook block would prove little.
    expect(r.blocks).toBeGreaterThan(150);
  });
});
