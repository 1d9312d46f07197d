/**
 * Which registered Claude process stands for a session when several name it (two terminals resumed it, or a stale
 * file beside a resumed CLI). One rule, used by the Claude domain (so the TUI, `I`, `J`, `r`, `--json`, the fleet
 * and serve, which all read its snapshot) and by `omc-top send` (which reads the registry itself):
 *
 * 1. a process not known to have ended (busy, idle, waiting, then unknown) before one that has (gone, exited);
 * 2. among those, one whose hooks read this root before one working elsewhere (when the caller knows the root);
 * 3. the newest start (the registry's startedAt), then the higher pid, so the choice never depends on the order the
 *    registry was listed in.
 */
import type { ProcessView } from './model.js';

const RANK: Record<string, number> = { waiting: 0, busy: 0, idle: 0, unknown: 1, gone: 2, exited: 2 };

/** 0 live, 1 not known either way, 2 ended. */
export const processRank = (p: Pick<ProcessView, 'status'>): number => RANK[p.status] ?? 3;

/** A process not known to have ended: it counts among the processes that run the session. */
export const stillRuns = (p: Pick<ProcessView, 'status'>): boolean => processRank(p) < 2;

type Candidate = Pick<ProcessView, 'status' | 'startedAt' | 'pid' | 'cwd'>;

/**
 * Negative when `a` is the better choice, positive when `b` is (never 0 for two different pids). `here`: whether a
 * process's hooks read this root (null: not known, counted as here).
 */
export function compareChoice(a: Candidate, b: Candidate, here?: (cwd: string | null) => boolean | null): number {
  const rank = processRank(a) - processRank(b);
  if (rank !== 0) return rank;
  if (here && stillRuns(a)) {
    const away = (p: Candidate) => (here(p.cwd) === false ? 1 : 0);
    const d = away(a) - away(b);
    if (d !== 0) return d;
  }
  return (b.startedAt ?? 0) - (a.startedAt ?? 0) || b.pid - a.pid;
}

/** The chosen one of a session's processes (null for none), and the pids of the others that still run. */
export function chooseProcess<T extends Candidate>(
  views: readonly T[],
  here?: (cwd: string | null) => boolean | null,
): { chosen: T | null; others: number[] } {
  let chosen: T | null = null;
  for (const v of views) if (chosen === null || compareChoice(v, chosen, here) < 0) chosen = v;
  const others = views
    .filter((v) => v !== chosen && stillRuns(v) && v.pid !== chosen?.pid)
    .map((v) => v.pid)
    .sort((x, y) => x - y);
  return { chosen, others: chosen && stillRuns(chosen) ? others : [] };
}
