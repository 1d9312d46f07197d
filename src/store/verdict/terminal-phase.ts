/**
 * The phases at which a version's Stop hook counts a mode as over, mode by mode: only ultragoal, team / omc-teams
 * and autopilot have any (5.5.0 and 4.15 read them, trimmed and lower-cased; 4.4.4 only autopilot's `phase`
 * "complete", exactly). Every other mode, and every other phase (an autopilot "completed" or "failed"), the hook
 * enforces as it would any: the registry line must not call such a phase terminal (omc-rules.ts modeStatus).
 */
import { isObjectLike } from '../../io/json.js';
import type { RulesVersion } from './types.js';

export const TEAM_TERMINAL = new Set([
  'completed',
  'complete',
  'failed',
  'cancelled',
  'canceled',
  'aborted',
  'terminated',
  'done',
]);
export const GOAL_TERMINAL = new Set([
  'complete',
  'completed',
  'done',
  'all-done',
  'all_done',
  'failed',
  'cancelled',
  'canceled',
  'aborted',
]);

const lowered = (v: unknown): string => (typeof v === 'string' ? v.trim().toLowerCase() : '');

/** The terminal phase the hook of `rules` finds in mode `mode`'s state `s` (as written), or null. */
export function terminalPhaseOf(mode: string, s: unknown, rules: RulesVersion): string | null {
  if (!isObjectLike(s)) return null;
  if (rules === '4.4.4') return mode === 'autopilot' && s.phase === 'complete' ? 'complete' : null;
  let raw: unknown;
  let terminal: (p: string) => boolean;
  if (mode === 'ultragoal') {
    raw = s.current_phase ?? s.phase ?? s.status;
    terminal = (p) => GOAL_TERMINAL.has(p);
  } else if (mode === 'team' || mode === 'omc-teams') {
    raw = s.current_phase ?? s.phase ?? s.stage;
    terminal = (p) => TEAM_TERMINAL.has(p);
  } else if (mode === 'autopilot') {
    raw = s.phase ?? s.current_phase;
    terminal = (p) => p === 'complete';
  } else return null;
  return terminal(lowered(raw)) ? (raw as string) : null;
}
