/**
 * `DISABLE_OMC` / `OMC_SKIP_HOOKS` per session: each Claude Code process gives its hooks its own environment, so two
 * Claudes of one project, one started with `DISABLE_OMC=1`, get different Stops from OMC 5.5.0's real hook. omc-top's
 * verdict for each session must be its own Claude's, whichever of them is the project's newest; a session no Claude
 * runs is judged by the project's hooks' environment. Stand-in Claude processes (real processes, so their
 * environment is in /proc) are joined to their sessions by Claude's registry, as in hard-max.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveRalph, writeOmcJson } from '../helpers/fixtures.js';
import { claudesScene } from './claudes-scene.js';
import { hookDecision, spawnStopHook } from '../helpers/stop-hook.js';

const A = 'a1a1a1a1-1111-4222-8333-444455556666';
const B = 'b2b2b2b2-1111-4222-8333-444455556666';
const C = 'c3c3c3c3-1111-4222-8333-444455556666';
const scene = claudesScene();

/** Three ralph sessions; A's and B's Claudes started with the given environments (B the newer), none for C. */
async function world(envA: Record<string, string>, envB: Record<string, string>) {
  const w = scene.open('omc-top-hooksoff-two-');
  for (const sid of [A, B, C])
    writeOmcJson(path.join(w.p.root, 'state', 'sessions', sid, 'ralph-state.json'), {
      ...liveRalph({ sessionId: sid, iteration: 2, max: 100 }),
      prompt: 'scratch',
    });
  const pidA = await w.claude(A, envA, 120_000);
  const pidB = await w.claude(B, envB, 60_000);
  const s = w.startStore();
  return {
    pidA,
    pidB,
    /** omc-top's verdict on the session: decision and rule. */
    verdict: (sid: string) => {
      const v = s.sessions.getSnapshot().sessions.find((x) => x.id === sid)?.verdict;
      return { decision: v?.decision, rule: v?.rule, detail: v?.detail };
    },
    /** The real 5.5.0 Stop hook run as that session's Claude runs it (its environment). */
    hook: (sid: string, env: Record<string, string>) =>
      hookDecision(spawnStopHook('5.5.0', { cwd: w.dir, sessionId: sid, home: w.home, now: Date.now(), env })).decision,
  };
}

describe("DISABLE_OMC per session: each verdict is its own Claude's, against OMC 5.5.0's real Stop hook", () => {
  it('the older Claude started with DISABLE_OMC=1: its session is let stop, the newest one is held', async () => {
    const w = await world({ DISABLE_OMC: '1' }, {});
    expect(w.verdict(A)).toEqual({
      decision: 'stop',
      rule: 'hooks-disabled',
      detail: `not enforced: DISABLE_OMC=1 from Claude pid ${String(w.pidA)}'s environment; OMC's Stop hook lets every stop through`,
    });
    expect(w.hook(A, { DISABLE_OMC: '1' })).toBe('stop');
    expect(w.verdict(B).decision).toBe('block');
    expect(w.hook(B, {})).toBe('block');
    // No Claude runs C: the project's hooks' environment (its newest Claude's, B's) decides.
    expect(w.verdict(C).decision).toBe('block');
  });

  it("the newest Claude started with OMC_SKIP_HOOKS=persistent-mode: only its session is let stop, not the older one's", async () => {
    const w = await world({}, { OMC_SKIP_HOOKS: 'persistent-mode' });
    expect(w.verdict(A).decision).toBe('block');
    expect(w.hook(A, {})).toBe('block');
    expect(w.verdict(B)).toMatchObject({ decision: 'stop', rule: 'hooks-disabled' });
    expect(w.verdict(B).detail).toContain(`Claude pid ${String(w.pidB)}'s environment (skips persistent-mode)`);
    expect(w.hook(B, { OMC_SKIP_HOOKS: 'persistent-mode' })).toBe('stop');
  });
});
