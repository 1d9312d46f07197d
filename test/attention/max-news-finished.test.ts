/**
 * A ralph that ends on its last iteration: one write (temp + rename, as OMC writes) takes it from 2/3 active to
 * 3/3 `complete`, `active: false`. The news is "loop finished", never "max reached, OMC extends it (+10)": the
 * real OMC 5.5.0 Stop hook, run on that very tree, lets the agent stop and leaves the file as it is (no extension).
 * A loop that is not active (finished, cancelled, stopped) has no max news at all; an active one still has it.
 */
import fs from 'node:fs';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, ralphStateFile, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook } from '../helpers/stop-hook.js';
import { watchLines } from '../helpers/watch-lines.js';

const S = 'a6666666-1111-4222-8333-444444444444';

/** The 3/3 state of a loop that finished at its max, written in one go. */
const finished = (now: string) => ({
  ...liveRalph({ sessionId: S, iteration: 3, max: 3, startedAt: now, checkedAt: now }),
  active: false,
  current_phase: 'complete',
  completed_at: now,
});

describe('a ralph that finishes at its max is "loop finished", not "OMC extends it"', () => {
  for (const [what, last] of [
    ['finished (complete, active: false)', finished],
    [
      'switched off at its max (active: false, no phase)',
      (now: string) => ({
        ...liveRalph({ sessionId: S, iteration: 3, max: 3, startedAt: now, checkedAt: now }),
        active: false,
      }),
    ],
  ] as const) {
    it(`watch --json: ${what}, then OMC 5.5.0's real Stop hook lets the agent stop`, async ({
      emptyProject: p,
      tempDir,
    }) => {
      const file = ralphStateFile(p.root, S);
      writeOmcJson(file, liveRalph({ sessionId: S, iteration: 2, max: 3 }));
      const lines = watchLines(['--root', p.root], p.dir, {
        ...process.env,
        XDG_STATE_HOME: tempDir('omc-top-watch-state-'),
      });
      await waitFor(() => lines.some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: 'the ready line' });
      const now = new Date().toISOString();
      writeOmcJson(file, last(now));
      const ended = () =>
        lines.find((l) => l.type === 'transition' && l.kind === 'mode' && l.session === S && l.to === 'inactive');
      await waitFor(() => ended() !== undefined, {
        timeoutMs: 20_000,
        what: `the mode's transition\n${lines.map((l) => JSON.stringify(l)).join('\n')}`,
      });
      const news = lines
        .filter((l) => l.type === 'transition' && typeof l.news === 'string')
        .map((l) => [l.kind, l.news]);
      expect(news.filter(([kind]) => kind === 'iteration' || kind === 'max')).toEqual([]);
      if (what.startsWith('finished')) expect(news).toEqual([['mode', 'loop finished']]);
      // What the hook does with that tree: no block, no extension (the file is left as written).
      const before = fs.readFileSync(file, 'utf8');
      const home = tempDir('omc-top-maxnews-home-');
      const hook = spawnStopHook('5.5.0', { cwd: p.dir, sessionId: S, home, now: Date.now() });
      expect(hookDecision(hook).decision).toBe('stop');
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
      expect(JSON.parse(before).max_iterations).toBe(3);
    });
  }

  it('watch --json: an active ralph reaching its max still says "max reached, OMC extends it (+10)"', async ({
    emptyProject: p,
    tempDir,
  }) => {
    const file = ralphStateFile(p.root, S);
    writeOmcJson(file, liveRalph({ sessionId: S, iteration: 2, max: 3 }));
    const lines = watchLines(['--root', p.root], p.dir, {
      ...process.env,
      XDG_STATE_HOME: tempDir('omc-top-watch-state-'),
    });
    await waitFor(() => lines.some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: 'the ready line' });
    writeOmcJson(file, liveRalph({ sessionId: S, iteration: 3, max: 3 }));
    const news = () =>
      lines.filter((l) => l.type === 'transition' && typeof l.news === 'string').map((l) => [l.kind, l.news]);
    await waitFor(() => news().length > 0 || null, { timeoutMs: 20_000, what: 'the max news' });
    expect(news()).toEqual([['iteration', 'max reached, OMC extends it (+10)']]);
  });
});
