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
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

/**
 * OMC 4.4.4's hooks.json gives its keyword hook 5 s (Claude Code ends it after that), and the hook writes
 * ralph first and the ultrawork after it in that one run: the two `started_at` lie within this window.
 */
export const ONE_PROMPT_WINDOW_MS = 5_000;

/**
 * OMC 4.x's keyword hook answers a "ralph" prompt with two states: ralph, then an ultrawork with the
 * same prompt and session. 4.15 marks the pair (`linked_ultrawork`); 4.4.4 writes no link field, and
 * each file gets its own `new Date()` (1–3 ms apart, measured on the real hook), so the pair is known
 * by the prompt, the session and an ultrawork started in the same hook run, never before the ralph.
 * 4.4.4's hook otherwise enforces that ultrawork on its own (issue 27).
 */
export function startedTogether(
  ralph: Record<string, unknown>,
  ultrawork: Record<string, unknown> | undefined,
): boolean {
  if (!ultrawork) return false;
  const ralphAt = Date.parse(text(ralph.started_at) ?? '');
  const ultraworkAt = Date.parse(text(ultrawork.started_at) ?? '');
  const gap = ultraworkAt - ralphAt;
  const prompt = text(ralph.original_prompt) ?? text(ralph.prompt);
  return (
    Number.isFinite(gap) &&
    gap >= 0 &&
    gap <= ONE_PROMPT_WINDOW_MS &&
    prompt !== null &&
    prompt === (text(ultrawork.original_prompt) ?? text(ultrawork.prompt)) &&
    ralph.session_id === ultrawork.session_id
  );
}

/**
 * Modes that go with `mode` when it is cancelled. The links are one-way, as in
 * OMC's cancel: a loop takes the helpers it started, never its parent.
 * - ralph takes its ultrawork (ralph `linked_ultrawork`, ultrawork `linked_to_ralph`, or the two
 *   written together by one "ralph" prompt: 4.4.4 links them by nothing else). Retired in 5.5, but
 *   OMC 4.x still enforces that ultrawork, so it goes too.
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
  if (
    mode === 'ralph' &&
    (yes(own.linked_ultrawork) ||
      yes(states.get('ultrawork')?.linked_to_ralph) ||
      startedTogether(own, states.get('ultrawork')))
  )
    add('ultrawork');
  if (mode === 'team' && (yes(own.linked_ralph) || yes(states.get('ralph')?.linked_team))) add('ralph');
  if (mode === 'autopilot') {
    add('ralph');
    add('ultraqa');
    if (hasNamedWorkflowMarkers(own)) add('ralplan');
  }
  return out;
}
