import { describe, expect, it } from 'vitest';
import { loopAnalytics } from '../../../src/store/claude/analytics.js';
import { attentionFor } from '../../../src/store/claude/attention.js';
import type { ProcessView } from '../../../src/store/claude/model.js';
import { FactsBuilder } from '../../../src/store/claude/transcript-facts.js';
import type { SessionView } from '../../../src/store/sessions/model.js';
import { assistant, prompt, stopBlock, toolResult } from './lines.js';

const SID = 's1';
// "active" here means the Stop hook enforces the loop (the verdict engine's `enforced`).
const session = (active: boolean) =>
  ({
    id: SID,
    modes: [
      { mode: 'ralph', active, enforced: active, status: active ? 'enforced' : 'finished', iteration: 4, max: 10 },
    ],
  }) as unknown as SessionView;
const proc = (status: ProcessView['status']) => ({ pid: 7, status, waitingFor: 'permission prompt' }) as ProcessView;
const facts = (lines: string[]) => {
  const b = new FactsBuilder();
  for (const l of lines) b.add(JSON.parse(l) as Record<string, unknown>, l);
  return b.facts;
};

describe('attention', () => {
  it('orphaned loop only when the process is gone, never when it is unknown', () => {
    expect(attentionFor(session(true), proc('gone'), null).map((a) => a.kind)).toEqual(['orphaned-loop']);
    expect(attentionFor(session(true), proc('unknown'), null)).toEqual([]);
    expect(attentionFor(session(true), null, null)).toEqual([]);
    expect(attentionFor(session(false), proc('gone'), null)).toEqual([]);
  });

  it('waiting for you', () => {
    expect(attentionFor(session(false), proc('waiting'), null)).toEqual([
      expect.objectContaining({
        kind: 'waiting-for-you',
        reason: null,
        text: 'Claude is waiting for you: permission prompt',
      }),
    ]);
  });

  it('idle while active names the reason the transcript supports', () => {
    const oneBlock = facts([
      prompt(SID, '2026-12-01T09:00:00Z', 'go'),
      stopBlock(SID, '2026-12-01T09:00:05Z', '[RALPH LOOP - ITERATION 4/10] more'),
    ]);
    expect(attentionFor(session(true), proc('idle'), oneBlock)[0]?.reason).toBe('one-iteration-per-turn');
    const capped = facts([
      prompt(SID, '2026-12-01T09:00:00Z', 'go'),
      JSON.stringify({
        type: 'system',
        timestamp: '2026-12-01T09:00:09Z',
        content: 'A hook blocked the turn from ending 9 consecutive times—overriding and ending turn.',
      }),
    ]);
    expect(attentionFor(session(true), proc('idle'), capped)[0]?.reason).toBe('block-cap');
    const none = facts([prompt(SID, '2026-12-01T09:00:00Z', 'go')]);
    expect(attentionFor(session(true), proc('idle'), none)[0]?.reason).toBe('hook-did-not-block');
  });
});

describe('loop analytics', () => {
  it('seconds per iteration, ETA, no file in 3 iterations, the same error 3 times', () => {
    const lines: string[] = [prompt(SID, '2026-12-01T09:00:00Z', 'ralph: go')];
    for (let i = 2; i <= 5; i++) {
      const at = new Date(Date.parse('2026-12-01T09:00:00Z') + i * 30_000).toISOString();
      lines.push(stopBlock(SID, at, `[RALPH LOOP - ITERATION ${i}/10] Work is NOT done.`));
      lines.push(
        ...assistant(SID, at, `m${i}`, i, [{ type: 'tool_use', name: 'Bash', input: { command: 'npm test' } }]),
      );
      lines.push(toolResult(SID, at, 'Error: boom', true));
    }
    const f = facts(lines);
    const now = Date.parse('2026-12-01T09:03:00Z');
    const a = loopAnalytics(f, { iteration: 5, max: 10 }, now);
    expect(a.secondsPerIteration).toEqual([30, 30, 30]);
    expect(a.etaMs).toBe(now + 5 * 30_000);
    expect(a.noFileIn3).toBe(true);
    expect(a.sameError3).toBe('Error: boom');
    expect(a.burnPerMin).toBeGreaterThan(0);
  });
});
