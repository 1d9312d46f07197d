/**
 * What a Stop hook of a given OMC version will do at the next Stop of one
 * session, and why: the verdict engine's output. Statuses, `--json` and
 * cancel read these, never the raw files.
 */
/** The Stop-hook rule books the engine has, newest first (see src/store/omc-books.ts for which versions each judges). */
export const RULE_BOOKS = ['5.5.0', '4.15.10', '4.4.4'] as const;
export type RulesVersion = (typeof RULE_BOOKS)[number];

/**
 * The books whose Stop hook, finding ralph at its max, raises the max by RALPH_EXTENSION and keeps the loop going
 * (5.5.0's and 4.15's hook: rule `extend`); 4.4.4's lets the agent stop there (rule `max-iterations`).
 */
export const RALPH_EXTENDS_AT_MAX: readonly string[] = ['5.5.0', '4.15.10'] satisfies readonly RulesVersion[];
/** How much those hooks add to ralph's max_iterations each time. */
export const RALPH_EXTENSION = 10;
/** The rule of a ralph at its max whose max has reached OMC's hard max (HardMax): one last block, then off. */
export const HARD_MAX_RULE = 'hard-max';
/** Its news (feeds/attention), a notification reason of its own. */
export const HARD_MAX_NEWS = 'max reached, OMC switches it off (hard max)';

/** What the hook prints: `{"decision":"block",…}` or `{"continue":true,…}`. */
export type Decision = 'block' | 'stop';

/**
 * The hook's view of the .omc tree a session's hooks use: a file as the hook's
 * `readJsonFile` sees it (the parsed value; null when missing, unreadable or not JSON).
 */
export interface HookTree {
  /**
   * A file relative to the .omc root, or under the user's global `~/.omc/` when `rel` starts with
   * GLOBAL_PREFIX (5.5.0 and 4.15 fall back to `~/.omc/state/<file>` for a state the session owns).
   */
  read(rel: string): unknown;
  /**
   * 5.5.0 looks for a session's state in *other* session directories (state/sessions/<d>/<file>
   * whose top-level session_id is the session): the first such copy, or null.
   */
  findOwnedCopy(file: string, sessionId: string): { rel: string; value: unknown } | null;
}

/** `~/.omc/…` in a HookTree path: the user's global OMC directory, not the project's root. */
export const GLOBAL_PREFIX = '~/.omc/';

/**
 * What omc-top knows of the payload Claude Code will give the next Stop hook. Claude Code 2.1.332
 * sends `stop_hook_active` (true on every Stop after a block in the same turn) and no stop reason;
 * the transcript tells the first, nothing tells the reasons. Unknown fields are judged as a normal
 * end of turn, and the verdict lists what would change it (`unless`).
 */
export interface StopFacts {
  /** This turn's Stop hook already blocked once, so the next Stop carries stop_hook_active: true. */
  stopHookActive?: boolean | null;
  /** The context use the hook reads off the transcript's last 4 KiB (`"context_window"` / `"input_tokens"`). */
  transcriptPercent?: number | null;
  /** A whole Stop payload as a hook would get it (the differential tests: every field is then known). */
  payload?: Record<string, unknown> | null;
}

export interface HookContext {
  rules: RulesVersion;
  sessionId: string;
  /** The directory the hook runs in (the session's cwd): project_path is compared with it. */
  cwd: string;
  now: number;
  stop?: StopFacts;
  /**
   * 4.15's cancel-signal check takes an exclusive lock that needs `flock` (/usr/bin/flock or /bin/flock):
   * without it no signal is honoured. Default: present.
   */
  flock?: boolean;
  /** The hard max for ralph (5.5.0 and 4.15); default none. */
  hardMax?: HardMax;
  /**
   * The hooks' environment switches the persistent-mode hook off (`DISABLE_OMC`, `OMC_SKIP_HOOKS`): why, in words
   * ("DISABLE_OMC=1 from the project's .claude/settings.json"), else null. 5.5.0 and 4.15 then let every stop
   * through; 4.4.4's `.cjs` hook never looks (STOP_HOOK_OFF_RULE).
   */
  hooksOff?: string | null;
  /**
   * Checks of the book's hook that the version judged by it does not have yet (BookChoice.lacks: 4.9.2 judged by the
   * 4.15.10 book has no stop_hook_active escape), so the verdict does not take them either. Default: none.
   */
  lacks?: readonly HookGap[];
}

/**
 * A check of a book's Stop hook that earlier releases it judges lack: `stop-hook-active` (the escape when the hook
 * already blocked this turn; 4.15 from 4.14.5 on), `hook-switch` (DISABLE_OMC / OMC_SKIP_HOOKS; from 4.15.3 on).
 */
export type HookGap = 'stop-hook-active' | 'hook-switch';

/** The rule of a verdict whose Stop hook the hooks' environment switched off (HookContext.hooksOff). */
export const STOP_HOOK_OFF_RULE = 'hooks-disabled';

/**
 * The hard iteration limit OMC's Stop hook applies to ralph (its security config, or OMC_SECURITY=strict): at its
 * max, when the max has reached it, the hook blocks once more and switches ralph off instead of extending it.
 */
export interface HardMax {
  /** The limit as the hook compares it (`max_iterations >= value`); 0 or less: none. */
  value: number;
  /** Where it comes from, in words ("security.hardMaxIterations in ~/.config/claude-omc/config.jsonc"). */
  source: string;
  /** A config file the hook reads that omc-top could not, in words (the limit may be other than `value`), or null. */
  unknown: string | null;
  /**
   * `OMC_SECURITY` in the environment of the session's Claude is not known (no Claude of the session runs, or its
   * environment cannot be read here): with it strict the hard max would be `at`, which matters only for a max that
   * has reached it. Absent: known.
   */
  envUnknown?: { at: number; words: string };
}

export interface ModeVerdict {
  mode: string;
  /** The file the hook loaded, relative to the .omc root. */
  path: string;
  /**
   * The hook holds the agent for this mode at the next Stop (in its turn: an earlier mode may block
   * first). False when the gate holds but the hook lets the agent stop anyway (`pausedBy`).
   */
  enforced: boolean;
  /** The mode's own gate holds (what `enforced` was before any session-wide escape). */
  gateHolds: boolean;
  /**
   * Why the hook lets the agent stop although the gate holds: a session-wide rule that passes
   * (cancel-signal, stop-hook-active, payload-escape, async-work), or `not-reached` (an earlier
   * mode ends the hook first). null otherwise.
   */
  pausedBy: string | null;
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
  /**
   * For a block: what the Stop payload could carry that omc-top cannot see and that would make this
   * version's hook let the agent stop instead (a context-limit or user-abort stop reason…). Empty for a stop.
   */
  unless: readonly string[];
}
