/**
 * The claude domain as the cancel tracker sees it: per session, what its
 * Claude process does and since when, and when its transcript's last turn
 * ended. The tracker needs no more to tell "stopped ✓" from "not yet".
 */
import type { AgentStatus, AgentView, AgentWatch } from '../cancel/tracker.js';
import type { ClaudeDomain } from './domain.js';
import type { ClaudeSessionView } from './model.js';
import { lifeOf } from './life.js';

/** Processes whose first sighting as gone is remembered (one per session at most matters; a bound all the same). */
const MAX_GONE_SEEN = 1000;

export function agentWatchOf(claude: ClaudeDomain, clock: () => number = Date.now): AgentWatch {
  // A gone process's status is dated by when the domain saw it gone, or by its last sign of life on disk when the
  // domain never saw it run. The tracker wants the moment it saw the process gone in every case: a stop marked ✓
  // is a stop omc-top observed, never earlier.
  const goneSeen = new Map<string, number>();
  const seenGone = (pid: number, procStart: string | null): number => {
    const key = `${pid}:${procStart ?? ''}`;
    let at = goneSeen.get(key);
    if (at === undefined) {
      at = clock();
      goneSeen.set(key, at);
      if (goneSeen.size > MAX_GONE_SEEN) goneSeen.delete(goneSeen.keys().next().value as string);
    }
    return at;
  };
  return {
    view(sessionId: string): AgentView | null {
      const c = claude.getSnapshot().bySession.get(sessionId);
      return c ? agentViewOf(c, seenGone) : null;
    },
    subscribe: (l) => claude.subscribe(l),
  };
}

/**
 * One session's Claude process as a cancel sees it. `goneAt` dates a gone process (the tracker: when this process
 * first saw it gone); without it, the domain's date (ProcessView.goneDatedBy; the word every surface
 * gives a cancel in flight, store/cancel/in-flight.ts, is decided from that).
 */
export function agentViewOf(
  c: ClaudeSessionView,
  goneAt?: (pid: number, procStart: string | null) => number,
): AgentView {
  const life = lifeOf(c);
  // Nothing registered and nothing exited: a transcript alone still shows a turn ending.
  const status: AgentStatus = !c.process && life.status === 'unknown' ? 'none' : life.status;
  return {
    status,
    pid: c.process?.pid ?? null,
    sinceMs: status === 'gone' && c.process && goneAt ? goneAt(c.process.pid, c.process.procStart) : life.sinceMs,
    lastTurnEndMs: c.transcript?.facts.lastTurnEndMs ?? null,
  };
}
