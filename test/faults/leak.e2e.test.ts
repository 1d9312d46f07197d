/**
 * The leak check (bench/soak/leak.mjs) in CI: the real bundle on the
 * 200-session real-OMC tree, the soak's changes in 30 fixed cycles of 20,
 * each cycle waited for on screen, samples taken on demand after a forced GC.
 * Nothing in it depends on time or load: counts must return exactly, the
 * post-GC heap may not rise more than LEAK_LIMITS.heapMb. The second test
 * injects a real leak (run for 60 cycles) and proves the same judge catches it. The long,
 * clock-driven soak (RSS over minutes) lives in bench/soak/soak.mjs.
 */
import { describe, expect, it } from 'vitest';
import { leakVerdict, runLeakCheck } from '../../bench/soak/leak.mjs';
import { scaled } from '../helpers/time-scale.js';

const log = (l: string) => console.log(`leak: ${l}`);

describe('leak check', () => {
  it(
    '30 cycles of 20 changes on 200 sessions: heap, listeners, timers, watchers and descriptors come back',
    { timeout: scaled(240_000) },
    async () => {
      const r = await runLeakCheck({ cycles: 30, log });
      expect(r.changes).toBeGreaterThanOrEqual(30 * 20);
      expect(leakVerdict(r)).toEqual([]);
    },
  );

  it(
    'a real leak (8 KB kept per file open, a descriptor and a listener every 25th) is caught',
    { timeout: scaled(240_000) },
    async () => {
      // 60 cycles: the injected leak grows with the cycles (~0.3 MB each), healthy noise does not.
      const r = await runLeakCheck({ cycles: 60, leak: true, log });
      const bad = leakVerdict(r).join('\n');
      expect(bad).toMatch(/post-GC heap rose/);
      expect(bad).toMatch(/^fds: /m);
      expect(bad).toMatch(/^processListeners: /m);
    },
  );
});
