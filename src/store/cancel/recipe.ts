/**
 * Which files OMC's own cancel touches for a mode (OMC's skills/cancel/SKILL.md
 * and state_clear in src/tools/state-tools.ts, 4.15.10 and 5.5.0), as data: the linked modes
 * that go with a mode, and the per-mode runtime artifacts state_clear removes.
 */
import { hasNamedWorkflowMarkers } from './hook-rules.js';

/** `<mode>-stop-breaker.json`, `<mode>-last-steer-at`, `<mode>-continue-steer.lock` (state_clear's runtime artifacts). */
export function runtimeArtifactNames(mode: string): string[] {
  return [`${mode}-stop-breaker.json`, `${mode}-last-steer-at`, `${mode}-continue-steer.lock`];
}

const yes = (v: unknown) => v === true || v === 'true';

/**
 * Modes that go with `mode` when it is cancelled. The links are one-way, as in
 * OMC's cancel: a loop takes the helpers it started, never its parent.
 * - ralph takes its ultrawork (ralph `linked_ultrawork`, or ultrawork `linked_to_ralph`).
 *   Retired in 5.5, but OMC 4.x still enforces a linked ultrawork, so it goes too.
 * - team takes its ralph (team `linked_ralph`, or ralph `linked_team`): the
 *   cancel skill clears linked ralph after team.
 * - autopilot takes ralph and (retired) ultraqa, plus the nested ralplan of a
 *   named run (cancelAutopilot; the 5.5 cancel skill's autopilot step).
 *
 * @param states every mode state of the session, by mode
 */
export function dependentsOf(mode: string, states: ReadonlyMap<string, Record<string, unknown>>): string[] {
  const own = states.get(mode) ?? {};
  const out: string[] = [];
  const add = (m: string) => {
    if (m !== mode && !out.includes(m)) out.push(m);
  };
  if (mode === 'ralph' && (yes(own.linked_ultrawork) || yes(states.get('ultrawork')?.linked_to_ralph)))
    add('ultrawork');
  if (mode === 'team' && (yes(own.linked_ralph) || yes(states.get('ralph')?.linked_team))) add('ralph');
  if (mode === 'autopilot') {
    add('ralph');
    add('ultraqa');
    if (hasNamedWorkflowMarkers(own)) add('ralplan');
  }
  return out;
}
