/**
 * A phase is terminal only for the modes whose Stop hook ends there: OMC 5.5.0 and 4.15 end an autopilot only at
 * "complete" (its `phase`, else `current_phase`, trimmed, any case), a team at complete/completed/failed/…, an
 * ultragoal at its own list; 4.4.4 an autopilot only at `phase` exactly "complete". An autopilot at "completed" or
 * "failed" is listed active by OMC and blocked by its hook (`[AUTOPILOT - Phase: completed]`), so omc-top's
 * registry reason (`--json` modes[].reason, the detail's "OMC registry:" line) must not call that phase terminal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  hookProject,
  jsonReport,
  HOOK_VERSIONS,
  hookStop,
  removeHookProjects,
  writeModeState,
} from './stop-hook-live.js';

const SID = '9d9d9d9d-1111-4222-8333-444455556666';
afterEach(removeHookProjects);

function project(mode: string, fields: Record<string, unknown>) {
  const w = hookProject('phase');
  writeModeState(w, SID, mode, fields);
  return w;
}

const CASES: Array<{ mode: string; fields: Record<string, unknown> }> = [
  { mode: 'autopilot', fields: { current_phase: 'completed' } },
  { mode: 'autopilot', fields: { current_phase: 'failed' } },
  { mode: 'autopilot', fields: { current_phase: 'done' } },
  { mode: 'autopilot', fields: { current_phase: 'complete' } },
  { mode: 'autopilot', fields: { phase: 'complete' } },
  { mode: 'autopilot', fields: { phase: ' Complete ' } },
  { mode: 'ralph', fields: { current_phase: 'complete', iteration: 2, max_iterations: 100 } },
  { mode: 'team', fields: { current_phase: 'completed' } },
  { mode: 'team', fields: { current_phase: 'team-exec' } },
  { mode: 'ultragoal', fields: { current_phase: 'failed' } },
];

describe.each(HOOK_VERSIONS)("terminal phases: omc-top's --json vs OMC %s's real Stop hook", (version) => {
  it.each(CASES)('$mode $fields', (c) => {
    const w = project(c.mode, c.fields);
    const hook = hookStop('terminal-phase', `${c.mode} ${JSON.stringify(c.fields)}`, {
      version,
      cwd: w.cwd,
      home: w.home,
      sessionId: SID,
      now: w.now,
    });
    const s = jsonReport({ version, cwd: w.cwd, home: w.home, now: w.now }).sessions.find((x) => x.id === SID);
    const v = s?.verdict;
    expect({ decision: v?.decision, mode: v?.decision === 'block' ? v.mode : null }).toEqual({
      decision: hook.decision,
      mode: hook.mode,
    });
    const row = s?.modes.find((m) => m.mode === c.mode);
    expect(row?.active).toBe(true);
    if (hook.decision === 'block') {
      // Held by the hook: the registry line says it is active, never that its phase ended it.
      expect(row?.reason).toBe('active and fresh');
      expect(row?.status).toBe('enforced');
    } else if (row?.verdict.rule === 'terminal') {
      // Ended by its phase in the hook's own rules: the registry line says which.
      expect(row.reason).toMatch(/^phase ".*" is terminal$/);
    }
  });
});
