/**
 * The claude domain as the cancel tracker sees it: per session, what its
 * Claude process does and since when, and when its transcript's last turn
 * ended. The tracker needs no more to tell "stopped ✓" from "not yet".
 */
import type { AgentStatus, AgentView, AgentWatch } from '../cancel/tracker.js';
import type { ClaudeDomain } from './domain.js';
import { lifeOf } from './life.js';

export function agentWatchOf(claude: ClaudeDomain): AgentWatch {
  return {
    view(sessionId: string): AgentView | null {
      const c = claude.getSnapshot().bySession.get(sessionId);
      if (!c) return null;
      const life = lifeOf(c);
      // Nothing registered and nothing exited: a transcript alone still shows a turn ending.
      const status: AgentStatus = !c.process && life.status === 'unknown' ? 'none' : life.status;
      return {
        status,
        pid: c.process?.pid ?? null,
        sinceMs: life.sinceMs,
        lastTurnEndMs: c.transcript?.facts.lastTurnEndMs ?? null,
      };
    },
    subscribe: (l) => claude.subscribe(l),
  };
}
