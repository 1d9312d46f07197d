/**
 * Which files under the .omc root belong to the sessions domain, and to which
 * session: the path rules, nothing else.
 */
import { LEGACY_KEY } from './model.js';
import { NON_MODE_STATE_FILES } from './omc-rules.js';

export type FileScope = 'session' | 'state' | 'root' | 'ended';

export const STATE_FILE_RE = /^([a-z0-9][a-z0-9_-]*)-state\.json$/;
export const ENDED_RE = /^([a-zA-Z0-9][a-zA-Z0-9_-]{0,255})\.json$/;
/** Internal key for session-less state; ":" cannot occur in a session id, so it never collides. */
export const LEGACY = LEGACY_KEY;
export const STRUCTURAL = new Set(['', 'state', 'state/sessions', 'sessions']);

/** Where a tracked file sits: its session key, its name, and which kind of place holds it. */
export interface FilePlace {
  key: string;
  file: string;
  scope: FileScope;
}

/** Which session a file belongs to, or null when we do not track it. */
export function keyOf(rel: string): FilePlace | null {
  const parts = rel.split('/');
  if (parts.length === 4 && parts[0] === 'state' && parts[1] === 'sessions') {
    return { key: parts[2] as string, file: parts[3] as string, scope: 'session' };
  }
  if (parts.length === 2 && parts[0] === 'state') return { key: LEGACY, file: parts[1] as string, scope: 'state' };
  if (parts.length === 1) return { key: LEGACY, file: parts[0] as string, scope: 'root' };
  if (parts.length === 2 && parts[0] === 'sessions') {
    const m = ENDED_RE.exec(parts[1] as string);
    return m ? { key: m[1] as string, file: parts[1] as string, scope: 'ended' } : null;
  }
  return null;
}

/** The files we read, by scope. Everything else (HUD caches, mission board, locks, temps) is ignored. */
/**
 * Files that are not modes but that 5.5.0's Stop hook reads before any mode (pending async
 * work: a running background task, subagent or scheduled wakeup lets the agent stop). Tracked
 * only for the verdict; never shown as modes or problem lines.
 */
const HOOK_INPUTS: Record<'session' | 'state', ReadonlySet<string>> = {
  session: new Set([
    'hud-state.json',
    'scheduled-wakeup-state.json',
    'schedule-wakeup-state.json',
    'wakeup-state.json',
  ]),
  state: new Set([
    'subagent-tracking.json',
    'scheduled-wakeup-state.json',
    'schedule-wakeup-state.json',
    'wakeup-state.json',
  ]),
};

export function isHookInput(scope: FileScope, file: string): boolean {
  return (scope === 'session' || scope === 'state') && HOOK_INPUTS[scope].has(file);
}

export function isTrackedFile(scope: FileScope, file: string): boolean {
  if (scope === 'ended') return true;
  if (isHookInput(scope, file)) return true;
  if (scope === 'session' && file === 'session-started.json') return true;
  const m = STATE_FILE_RE.exec(file);
  if (!m) return false;
  const name = m[1] as string;
  if (name === 'cancel-signal' || name === 'skill-active') return scope !== 'root';
  if (NON_MODE_STATE_FILES.has(name)) return false;
  return true;
}

/** State files read per session directory (OMC has about a dozen modes); see FileRecords.read(). */
export const MAX_FILES_PER_SESSION = 64;

/** Known OMC mode files and session files before anything else, so a crowded directory still shows them. */
export function entryRank(file: string, modeOrder: readonly string[]): number {
  if (file === 'session-started.json' || file === 'cancel-signal-state.json') return -1;
  const m = STATE_FILE_RE.exec(file);
  if (!m) return Number.MAX_SAFE_INTEGER;
  const i = modeOrder.indexOf(m[1] as string);
  return i === -1 ? modeOrder.length : i;
}
