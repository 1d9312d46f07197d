/**
 * OMC's rules about mode state, restated from OMC 4.15.10 and 5.5.0
 * (src/hooks/mode-registry, scripts/persistent-mode.mjs, src/hud/omc-state.ts). Pure functions of (parsed file, now): the same
 * inputs always give the same status, which is what the tests pin.
 */

import { MODE_TABLE, firstString, modeSpec } from './modes.js';
import { num, type Obj, obj, str } from '../../io/json.js';
import { terminalPhaseOf } from '../verdict/terminal-phase.js';
import type { RulesVersion } from '../verdict/types.js';

/** OMC's session id allow-list (worktree-paths.ts: SESSION_ID_REGEX). */
export const SESSION_ID_RE = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,255}$/;
export function isValidSessionId(id: string): boolean {
  return SESSION_ID_RE.test(id) && !id.includes('..') && !id.includes('/') && !id.includes('\\');
}

/**
 * fsx drops a leading byte-order mark; OMC's readers do not (readFileSync +
 * JSON.parse on the raw text), so they fail on such a file and treat it as
 * absent. Showing its values would claim OMC sees state it does not: the file
 * is unreadable, for omc-top as for OMC.
 */
export const BOM_MESSAGE = "starts with a byte-order mark: OMC's JSON.parse rejects it, so OMC ignores this file";

export const STALE_MS = 2 * 60 * 60 * 1000; // STALE_STATE_THRESHOLD_MS
export const AWAITING_CONFIRMATION_TTL_MS = 120_000;
export const TOMBSTONE_TTL_MS = 24 * 60 * 60 * 1000;
export const CANCEL_TTL_MS = 30_000;
export const CANCEL_SKEW_MS = 5_000;

/**
 * Stop-hook priority order (5.5.0 persistent-mode.mjs main), then the rest, from
 * the mode table. Display order inside a session follows it, so the mode that
 * holds the agent comes first.
 */
export const MODE_ORDER: readonly string[] = MODE_TABLE.map((m) => m.mode);
export const KNOWN_MODES = new Set<string>(MODE_ORDER);

/** ultrawork and ultraqa are retired in 5.5.0: still on disk, never enforced there. */
export const RETIRED_IN_55 = new Set(MODE_TABLE.filter((m) => m.retiredIn === '5.5.0').map((m) => m.mode));

/** OMC's cancel signal, in a session directory or in state/ (the session-less state). */
export const SIGNAL_FILE = 'cancel-signal-state.json';

/** `<name>-state.json` files that are not modes. */
export const NON_MODE_STATE_FILES = new Set([
  'cancel-signal',
  'skill-active',
  'hud',
  'mission',
  'subagent-tracking',
  'ralph-verification',
  'last-tool-error',
  'scheduled-wakeup',
  'schedule-wakeup',
  'wakeup',
]);

/**
 * A mode's status, from the verdict engine (what the Stop hook will do with it). `paused`: its gate
 * holds, but at the next Stop the hook lets the agent stop for a reason outside the mode (a cancel
 * signal in force, stop_hook_active in an open turn, a running background task).
 */
/**
 * `unreadable`: omc-top could not read the file (permission, I/O) although it is there, so what the Stop hook (run as
 * the file's owner) does with it is unknown; never judged as if the file were absent.
 */
export type ModeStatus = 'enforced' | 'paused' | 'not-enforced' | 'pending' | 'stale' | 'finished' | 'unreadable';

/** OMC's registry view of a file (state_list_active), before any Stop-hook rule. */
export type RegistryStatus = 'active' | 'pending' | 'stale' | 'finished' | 'tombstoned';

/**
 * The last moment of year 9999. A time from a file beyond it is not a time: 1e308 is a finite
 * number, but `new Date(1e308).toISOString()` throws, and so would every view and --json that
 * formats it (a deadline derived from it, e.g. +30 s, must stay a valid date too).
 */
export const MAX_TIME_MS = 253_402_300_799_999;

/** Parses an ISO string or epoch-ms number; null when unusable. */
export function timeMs(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v <= MAX_TIME_MS ? v : null;
  if (typeof v !== 'string' || v.trim() === '') return null;
  const t = Date.parse(v);
  return Number.isFinite(t) && Math.abs(t) <= MAX_TIME_MS ? t : null;
}

/** ISO text of an epoch-ms time from a file, or null when it is not a date (never throws). */
export function isoOrNull(ms: number | null | undefined): string | null {
  return typeof ms === 'number' && Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS
    ? new Date(ms).toISOString()
    : null;
}

export interface Progress {
  iteration: number | null;
  max: number | null;
  phase: string | null;
  /** Secondary facts, e.g. "fix 1/3", "tasks 4/9", "reinforced 2/20". */
  extras: string[];
}

const firstNum = (s: Obj, fields: readonly string[]): number | null => {
  for (let i = 0; i < fields.length; i++) {
    const v = num(s[fields[i]!]);
    if (v !== null) return v;
  }
  return null;
};

/** Per-mode progress (omc-contract.md §2.6 recommendation): fields from the mode table, extras per mode. */
export function modeProgress(mode: string, s: Obj): Progress {
  const t = modeSpec(mode);
  const phase = firstString(s, t.phase);
  const extras: string[] = [];
  if (mode === 'merge-readiness') {
    const q = Array.isArray(s.questions) ? s.questions.length : null;
    const a = Array.isArray(s.answers) ? s.answers.length : null;
    return { iteration: a, max: q, phase, extras };
  }
  // Absent (not of a wrong type) from an active loop's file: what its Stop hook reads instead (ralph `iteration || 1`),
  // else unknown (a file not read, or one that says nothing of the loop, tells no iteration).
  const iterationMissing = s.active === true && t.iteration.every((k) => s[k] === undefined || s[k] === null);
  const iteration = firstNum(s, t.iteration) ?? (iterationMissing ? t.defaultIteration : null);
  // OMC's hooks read a missing (falsy) max as their default (ralph `max_iterations || 100`);
  // a max of the wrong type is not a number to them either, so it stays unknown.
  const maxMissing = t.max.every((k) => !s[k]);
  const max = firstNum(s, t.max) ?? (iteration !== null && maxMissing ? t.defaultMax : null);
  if (mode === 'ultraqa') {
    const goal = str(s.goal_type);
    if (goal) extras.push(`goal ${goal}`);
  } else if (mode === 'autopilot') {
    const exec = obj(s.execution);
    const done = num(exec?.tasks_completed);
    const total = num(exec?.tasks_total);
    if (done !== null && total !== null && total > 0) extras.push(`tasks ${done}/${total}`);
    const r = num(s.reinforcement_count);
    if (r) extras.push(`reinforced ${r}/20`);
    const wf = obj(s.workflow);
    if (wf && str(wf.workflowName)) extras.push(`workflow ${String(wf.workflowName)}`);
  } else if (mode === 'team' || mode === 'omc-teams') {
    const fix = obj(s.fix_loop);
    const fa = num(fix?.attempt) ?? num(s.fix_loop_count);
    const fm = num(fix?.max_attempts) ?? num(s.max_fix_loops);
    if (fa !== null && fm !== null) extras.push(`fix ${fa}/${fm}`);
    const name = str(s.team_name) ?? str(s.teamName);
    if (name) extras.push(`team ${name}`);
  }
  return { iteration, max, phase, extras };
}

/** Owner = _meta.sessionId || session_id (mode-state-io.ts: getStateSessionOwner). */
export function stateOwner(s: Obj): string | null {
  const meta = obj(s._meta);
  return str(meta?.sessionId) ?? str(s.session_id);
}

/** Modes a state says it is linked to (the mode table's link fields). */
export function linkedModes(s: Obj, mode?: string): string[] {
  const specs = mode === undefined ? MODE_TABLE : [modeSpec(mode)];
  const out: string[] = [];
  // Indexed loops here and below: these run once per session file at start, mostly before V8 optimises them, and
  // a for...of there allocates an iterator and a result object per step (see "Cold loops" in docs/ARCHITECTURE.md).
  for (let i = 0; i < specs.length; i++) {
    const links = specs[i]!.links;
    for (let j = 0; j < links.length; j++) {
      const l = links[j]!;
      if ((s[l.field] === true || s[l.field] === 'true') && !out.includes(l.mode)) out.push(l.mode);
    }
  }
  return out;
}

/** The later of two times, either of which may be unknown. */
const newer = (a: number | null, b: number | null): number | null => (a === null ? b : b === null || a >= b ? a : b);

/** Newest of the timestamps the Stop hook trusts (it ignores _meta). */
export function freshnessMs(s: Obj): number | null {
  // Field by field, not looped over a list of names: see "Cold loops" in docs/ARCHITECTURE.md.
  let best = timeMs(s.last_checked_at);
  best = newer(best, timeMs(s.updated_at));
  return newer(best, timeMs(s.started_at));
}

/** Best "last changed" time for the age column: any timestamp OMC writes, then file mtime. */
export function lastUpdateMs(s: Obj, mtimeMs: number | null): number | null {
  const meta = obj(s._meta);
  let best = freshnessMs(s);
  best = newer(best, timeMs(meta?.updatedAt));
  best = newer(best, timeMs(meta?.written_at));
  return best ?? mtimeMs;
}

export interface StatusVerdict {
  status: RegistryStatus;
  /** `active === true` and not tombstoned: what OMC's mode registry / state_list_active say. */
  registryActive: boolean;
  /**
   * Why, in words (the detail's registry line, --json's `reason`): what the registry and the file say, never what
   * the Stop hook does. That is the verdict's (`verdict.rule` / `detail`), which may read the same file by another
   * book's rules: a reason that spoke for the hook too would give one mode two reasons.
   */
  reason: string;
  /** When this verdict can next change on its own (time passing), epoch ms, or null. */
  nextChangeAt: number | null;
}

/**
 * @param tombstoneAt completed_at of the mode's workflow slot in skill-active-state.json, if any.
 * @param rules the book of the OMC whose hooks read the file: a phase is terminal only for the modes its Stop hook
 *   ends at that phase (verdict/terminal-phase.ts); an autopilot at "completed" is still held.
 */
export function modeStatus(
  mode: string,
  s: Obj,
  now: number,
  tombstoneAt: number | null,
  rules: RulesVersion,
): StatusVerdict {
  let next: number | null = null;
  const soonest = (t: number) => {
    if (t > now && (next === null || t < next)) next = t;
  };

  if (tombstoneAt !== null && now - tombstoneAt < TOMBSTONE_TTL_MS) {
    soonest(tombstoneAt + TOMBSTONE_TTL_MS);
    return {
      status: 'tombstoned',
      registryActive: false,
      reason:
        'workflow slot completed less than 24 h ago (skill-active-state.json tombstone): OMC treats the mode as inactive',
      nextChangeAt: next,
    };
  }
  if (s.active !== true) {
    const why =
      s.active === undefined
        ? 'no "active" field'
        : s.active === 'true'
          ? '"active" is the string "true": OMC\'s registry needs the boolean true (the Stop hook accepts it)'
          : `active is ${JSON.stringify(s.active)}`;
    return { status: 'finished', registryActive: false, reason: why, nextChangeAt: null };
  }
  const phase = terminalPhaseOf(mode, s, rules);
  if (str(s.completed_at) || phase !== null) {
    return {
      status: 'finished',
      registryActive: true,
      reason: phase !== null ? `phase "${phase}" is terminal` : 'completed_at is set',
      nextChangeAt: null,
    };
  }
  if (s.awaiting_confirmation) {
    const setAt = timeMs(s.awaiting_confirmation_set_at) ?? timeMs(s.started_at);
    if (setAt !== null && now - setAt < AWAITING_CONFIRMATION_TTL_MS) {
      soonest(setAt + AWAITING_CONFIRMATION_TTL_MS);
      return {
        status: 'pending',
        registryActive: true,
        reason: 'awaiting confirmation (set less than 2 min ago)',
        nextChangeAt: next,
      };
    }
  }
  const exemptFromStaleness = mode === 'autopilot' && s.workflow !== undefined;
  if (!exemptFromStaleness) {
    const fresh = freshnessMs(s);
    if (fresh === null) {
      return {
        status: 'stale',
        registryActive: true,
        reason: 'no started_at / updated_at / last_checked_at (_meta times are not counted)',
        nextChangeAt: null,
      };
    }
    if (now - fresh > STALE_MS) {
      return {
        status: 'stale',
        registryActive: true,
        reason: 'not touched for over 2 h',
        nextChangeAt: null,
      };
    }
    soonest(fresh + STALE_MS + 1);
  }
  return { status: 'active', registryActive: true, reason: 'active and fresh', nextChangeAt: next };
}

/** Stop-hook generic-signal rule: is `sig` a cancel in force at `now`? (persistent-mode.mjs: isSessionCancelInProgress) */
export interface CancelVerdict {
  wellFormed: boolean;
  inForce: boolean;
  /** true when the signal carries target_* keys or mode autopilot (only honoured via the digest rule). */
  targeted: boolean;
  requestedMs: number | null;
  expiresMs: number | null;
  reason: string;
}

export function genericCancelVerdict(sig: unknown, now: number): CancelVerdict {
  const s = obj(sig);
  const none = (reason: string, extra: Partial<CancelVerdict> = {}): CancelVerdict => ({
    wellFormed: false,
    inForce: false,
    targeted: false,
    requestedMs: null,
    expiresMs: null,
    reason,
    ...extra,
  });
  if (!s) return none('not a JSON object');
  if (s.active !== true) return none('"active" is not true: the Stop hook ignores it');
  const req = typeof s.requested_at === 'string' ? timeMs(s.requested_at) : null;
  if (req === null) return none('requested_at missing or unparseable');
  const parsedExp = timeMs(s.expires_at);
  const exp = typeof s.expires_at === 'string' && parsedExp !== null ? parsedExp : req + CANCEL_TTL_MS;
  const targeted = s.mode === 'autopilot' || 'target_state_sha256' in s || 'target_workflow_run_id' in s;
  const base = { wellFormed: true, targeted, requestedMs: req, expiresMs: exp };
  if (req > now + CANCEL_SKEW_MS)
    return { ...base, inForce: false, reason: 'requested_at is more than 5 s in the future' };
  if (now - req > CANCEL_TTL_MS) return { ...base, inForce: false, reason: 'expired (requested over 30 s ago)' };
  if (!(req < exp && exp <= req + CANCEL_TTL_MS))
    return { ...base, inForce: false, reason: 'expires_at is not within 30 s after requested_at' };
  if (exp <= now) return { ...base, inForce: false, reason: 'expired' };
  if (targeted) {
    return {
      ...base,
      inForce: false,
      reason:
        'targeted signal (mode autopilot or target_* keys): honoured only while the exact autopilot state digest matches',
    };
  }
  return { ...base, inForce: true, reason: 'in force: the Stop hook lets the agent stop' };
}
