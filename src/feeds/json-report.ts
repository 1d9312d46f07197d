/**
 * The --json document. The field names in the issue are fixed; extra fields
 * are additive. Everything here is already sanitised by the domains.
 */
import type { SessionsSnapshot } from '../store/sessions/model.js';
import type { Problem } from '../store/types.js';
import { omcJson, type OmcJsonInput } from './omc-json.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface JsonReportInput {
  root: string;
  rootRule: string;
  notices: string[];
  sessions: SessionsSnapshot;
  extraProblems?: readonly Problem[];
  /** Which OMC runs the hooks (detectOmcInstall), and whose rules the statuses use. */
  omc?: OmcJsonInput;
  /** ralph story progress per session (null = session-less legacy state). */
  storiesFor?: (sessionId: string | null) => unknown;
  /** Other slices add their own top-level keys (e.g. "teams"). */
  extra?: Record<string, unknown>;
}

export function buildJsonReport(input: JsonReportInput): Record<string, unknown> {
  const problems = [...input.sessions.problems, ...(input.extraProblems ?? [])];
  return {
    root: input.root,
    root_rule: input.rootRule,
    notices: input.notices,
    generated_at: iso(input.sessions.derivedAt),
    omc_version: input.omc ? omcJson(input.omc) : null,
    sessions: input.sessions.sessions.map((s) => ({
      id: s.id,
      kind: s.kind,
      status: s.status,
      started_at: iso(s.startedMs),
      updated_at: iso(s.updatedMs),
      ended: s.ended,
      // What the Stop hook does at this session's next Stop (null for session-less state).
      verdict: s.verdict,
      // What omc-top could not read of what that verdict depends on (then status "unreadable", decision "unknown").
      unreadable: s.unreadable ?? [],
      // The OMC that runs this session's hooks and where it was found (its Claude process's --plugin-dir, or the project's).
      omc: s.omc ?? null,
      cancel: s.cancel && {
        path: s.cancel.path,
        mode: s.cancel.mode,
        source: s.cancel.source,
        requested_at: iso(s.cancel.requestedMs),
        expires_at: iso(s.cancel.expiresMs),
        in_force: s.cancel.inForce,
        until: iso(s.cancel.untilMs),
        targeted: s.cancel.targeted,
        reason: s.cancel.reason,
      },
      modes: s.modes.map((m) => ({
        mode: m.mode,
        // OMC's registry rule (state_list_active), as documented; `enforced` is the Stop hook's.
        active: m.active,
        enforced: m.enforced,
        status: m.status,
        verdict: m.verdict,
        iteration: m.iteration,
        max_iterations: m.max,
        phase: m.phase,
        updated_at: iso(m.updatedMs),
        path: m.path,
        started_at: iso(m.startedMs),
        owner: m.owner,
        stranded: m.stranded,
        linked: m.linked,
        retired_in_omc_5_5: m.retired,
        reason: m.reason,
        extras: m.extras,
        // The read's failure, else a field of the wrong type: what the row marks ⚠.
        problem: m.problem ?? m.fieldProblem,
        // per ralph mode, {passed,total,current} | null
        ...(m.mode === 'ralph' && input.storiesFor
          ? { stories: input.storiesFor(s.kind === 'legacy' ? null : s.id) }
          : {}),
      })),
    })),
    problems: problems.map((p) => ({ path: p.path, message: p.message, severity: p.severity })),
    // Directories above the sessions omc-top may not list (`state`, `state/sessions`): their sessions are unknown.
    unreadable_dirs: input.sessions.unreadableDirs ?? [],
    ...(input.extra ?? {}),
  };
}
