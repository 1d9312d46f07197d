/**
 * What a Stop hook of a given OMC version will do at the next Stop of one
 * session, and why: the verdict engine's output. Statuses, `--json` and
 * cancel read these, never the raw files.
 */
import type { RulesVersion } from '../omc-install.js';

/** What the hook prints: `{"decision":"block",…}` or `{"continue":true,…}`. */
export type Decision = 'block' | 'stop';

/**
 * The hook's view of the .omc tree a session's hooks use: a file as the hook's
 * `readJsonFile` sees it (the parsed value; null when missing, unreadable or not JSON).
 */
export interface HookTree {
  read(rel: string): unknown;
  /**
   * 5.5.0 looks for a session's state in *other* session directories (state/sessions/<d>/<file>
   * whose top-level session_id is the session): the first such copy, or null.
   */
  findOwnedCopy(file: string, sessionId: string): { rel: string; value: unknown } | null;
}

export interface HookContext {
  rules: RulesVersion;
  sessionId: string;
  /** The directory the hook runs in (the session's cwd): project_path is compared with it. */
  cwd: string;
  now: number;
}

export interface ModeVerdict {
  mode: string;
  /** The file the hook loaded, relative to the .omc root. */
  path: string;
  /** This mode's own gate would hold the agent (block) at the next Stop. */
  enforced: boolean;
  /** A short, stable rule id (tests and --json), e.g. "no-session-id", "reinforced-max". */
  rule: string;
  /** The rule in words, for the status and detail. */
  detail: string;
}

export interface CancelVerdict {
  path: string;
  inForce: boolean;
  /** While in force: when it stops pausing the hook (epoch ms). */
  until: number | null;
  reason: string;
}

export interface SessionVerdict {
  rules: RulesVersion;
  decision: Decision;
  /** The mode whose gate decided a block, or null. */
  mode: string | null;
  /** Why the hook ends the way it does (the deciding mode's rule, a cancel, pending async work…). */
  rule: string;
  detail: string;
  /** Every mode the hook looked at, in its order. */
  modes: ModeVerdict[];
  /** Each cancel signal the hook checked, in its order. */
  cancels: CancelVerdict[];
  /** When the verdict can next change with no file changing (a threshold passes), or null. */
  nextChangeAt: number | null;
}
