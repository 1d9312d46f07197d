/**
 * Where OMC's ralph finds prd.json, in its order (5.5.0 dist/hooks/ralph/prd.js
 * `findPrdPath`, unchanged in the newest upstream src/hooks/ralph/prd.ts):
 * the session's own `state/sessions/<sid>/prd.json`, then the project's
 * `prd.json`, then `<omc>/prd.json`, then the legacy `<omc>/state/prd.json`.
 * OMC 4.4.4 looked only at the project's and `<omc>/prd.json`. The first file
 * that exists wins, even when it is invalid (OMC does not fall through).
 */
import type { PrdRules } from './count.js';

export interface PrdCandidate {
  /** 'omc': relative to the .omc root; 'project': relative to the project directory. */
  base: 'omc' | 'project';
  rel: string;
}

/** A session id that can name a directory (OMC refuses ids with separators or dots-only). */
const SAFE_SID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/;

export function prdCandidates(sessionId: string | null, rules: PrdRules): PrdCandidate[] {
  const out: PrdCandidate[] = [];
  if (rules === '5.5' && sessionId !== null && SAFE_SID.test(sessionId))
    out.push({ base: 'omc', rel: `state/sessions/${sessionId}/prd.json` });
  out.push({ base: 'project', rel: 'prd.json' });
  out.push({ base: 'omc', rel: 'prd.json' });
  if (rules === '5.5') out.push({ base: 'omc', rel: 'state/prd.json' });
  return out;
}

/** How a candidate is named in problem lines and --json (relative to the .omc root). */
export function displayPath(c: PrdCandidate): string {
  return c.base === 'omc' ? c.rel : `../${c.rel}`;
}

/** The .omc-relative paths the watcher should deliver to the PRD domain. */
export function isPrdPath(rel: string): boolean {
  return rel === 'prd.json' || rel === 'state/prd.json' || /^state\/sessions\/[^/]+\/prd\.json$/.test(rel);
}
