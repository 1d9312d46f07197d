/**
 * What needs the user, from the join of OMC's state and the Claude process:
 * an orphaned loop (OMC would enforce it, no live CLI has the session), a
 * permission prompt, or a CLI idle while its loop is active, with the reason
 * the facts support.
 */
import type { SessionView } from '../sessions/model.js';
import type { ProcessView } from './model.js';
import type { TranscriptFacts } from './transcript-facts.js';

export type AttentionKind = 'orphaned-loop' | 'waiting-for-you' | 'idle-while-active';
export type IdleReason = 'block-cap' | 'one-iteration-per-turn' | 'hook-did-not-block';

export interface AttentionFact {
  kind: AttentionKind;
  reason: IdleReason | null;
  text: string;
}

/** A mode OMC's Stop hook would keep enforcing (held now, or only paused at this Stop). */
export function activeLoop(s: SessionView) {
  return s.modes.find((m) => m.enforced || m.status === 'paused') ?? null;
}

export function attentionFor(s: SessionView, proc: ProcessView | null, facts: TranscriptFacts | null): AttentionFact[] {
  const out: AttentionFact[] = [];
  const loop = activeLoop(s);
  if (proc?.status === 'waiting')
    out.push({
      kind: 'waiting-for-you',
      reason: null,
      text: `Claude is waiting for you: ${proc.waitingFor ?? 'a prompt'}`,
    });
  if (loop && proc?.status === 'gone')
    out.push({
      kind: 'orphaned-loop',
      reason: null,
      text: `orphaned ${loop.mode}: its Claude process (pid ${proc.pid}) is gone; cancel cleans it up`,
    });
  if (loop && proc?.status === 'idle') {
    let reason: IdleReason = 'hook-did-not-block';
    let text = `Claude is idle while ${loop.mode} is active: the Stop hook did not block this turn`;
    if (facts?.blockCapOverride) {
      reason = 'block-cap';
      text = `Claude Code overrode the Stop hook after its block cap (8 by default, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP); ${loop.mode} stays active`;
    } else if (facts && facts.turnBlocks > 0) {
      reason = 'one-iteration-per-turn';
      text = `${loop.mode} advances once per prompt: OMC's Stop hook does not block again while stop_hook_active is true`;
    }
    out.push({ kind: 'idle-while-active', reason, text });
  }
  return out;
}
