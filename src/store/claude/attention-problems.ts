/**
 * The join's attention facts as problem lines, so the problems view (!), the
 * "needs you" count and notifications list an orphaned loop, a permission
 * prompt and a CLI idle while its loop is active, each with what to do.
 */
import type { SessionView } from '../sessions/model.js';
import type { Problem } from '../types.js';
import { attentionFor, type AttentionFact } from './attention.js';
import type { ClaudeSnapshot } from './model.js';

const ACTION: Record<AttentionFact['kind'], string> = {
  'orphaned-loop': 'select the session: c cleans it up, J goes to its tmux pane when it is still open',
  'waiting-for-you': 'answer it in its terminal: J in the sessions pane jumps there',
  'idle-while-active': 'the session detail explains it',
};

export function attentionProblems(sessions: readonly SessionView[], snap: ClaudeSnapshot): Problem[] {
  const out: Problem[] = [];
  if (snap.bySession.size === 0) return out;
  for (const s of sessions) {
    if (s.kind !== 'session') continue;
    const c = snap.bySession.get(s.id);
    // No registry entry and no exit in the transcript: nothing is known of its Claude (never "orphaned").
    if (!c?.process && !c?.transcript?.facts.exit) continue;
    for (const a of attentionFor(s, c.process, c.transcript?.facts ?? null))
      out.push({
        path: s.dir,
        message: `${a.text} (${ACTION[a.kind]})`,
        // An idle CLI is explained, not broken: it needs no notification.
        severity: a.kind === 'idle-while-active' ? 'info' : 'warning',
      });
  }
  return out;
}
