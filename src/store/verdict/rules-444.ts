/**
 * OMC 4.4.4's wired Stop hook (`scripts/persistent-mode.cjs`; hooks.json runs it through
 * `run.cjs`), restated: state only in `<cwd>/.omc/state/sessions/<S>/` (no fallback when the
 * session id is valid), no cancel-signal check, no tombstones, no awaiting-confirmation, no
 * team modes; ultrawork and ultraqa enforced. Its staleness reads `last_checked_at` and
 * `started_at` of any type (an unparseable one makes the state never stale). Checked against
 * the real hook on generated trees (test/interop/verdict-differential.test.ts).
 *
 * It reads `stop_hook_active` nowhere (it blocks a second Stop in one turn too; Claude Code's own
 * block cap ends such a turn), and of the payload only a context-limit reason and a user abort.
 *
 * Assumed: a valid session id, no swarm marker; stop reasons omc-top cannot see are listed in `unless`.
 */
import path from 'node:path';
import { dateMs, get, gt, le, lt, or, plusOne } from './js-coerce.js';
import { payloadEscape, unobservedEscapes } from './payload.js';
import { settleModes } from './rules-555.js';
import type { HookContext, HookTree, ModeVerdict, SessionVerdict } from './types.js';

const STALE_MS = 2 * 60 * 60 * 1000;

function stale(s: unknown, now: number, at: (t: number) => void): boolean {
  if (!s) return true;
  const lc = get(s, 'last_checked_at') ? dateMs(get(s, 'last_checked_at')) : 0;
  const st = get(s, 'started_at') ? dateMs(get(s, 'started_at')) : 0;
  const newest = Math.max(lc, st);
  if (newest === 0) return true;
  at(newest + STALE_MS + 1);
  // NaN (an unparseable timestamp) compares false: never stale, exactly as in the hook.
  return now - newest > STALE_MS;
}

const norm = (p: string) => path.resolve(p).replace(/[/\\]+$/, '');

export function verdict444(tree: HookTree, ctx: HookContext): SessionVerdict {
  const { sessionId: sid, now, cwd } = ctx;
  let next: number | null = null;
  const at = (t: number) => {
    if (Number.isFinite(t) && t > now && (next === null || t < next)) next = t;
  };
  const modes: ModeVerdict[] = [];
  const rel = (file: string) => `state/sessions/${sid}/${file}`;
  const read = (file: string) => tree.read(rel(file)) || null;

  type Gate = { enforced: boolean; rule: string; detail: string; endsHook?: boolean };
  let decided: { mode: string; gate: Gate } | null = null;
  const gate = (mode: string, state: unknown, g: Gate) => {
    if (!state) return;
    modes.push({
      mode,
      path: rel(`${mode}-state.json`),
      enforced: g.enforced,
      gateHolds: g.enforced,
      pausedBy: null,
      rule: g.rule,
      detail: g.detail,
    });
    if (!decided && (g.enforced || g.endsHook)) decided = { mode, gate: g };
  };
  /** The checks every 4.4.4 mode starts with: active, not stale, session_id === S. */
  const common = (s: unknown): Gate | null => {
    if (!get(s, 'active')) return { enforced: false, rule: 'inactive', detail: 'not active' };
    if (stale(s, now, at))
      return {
        enforced: false,
        rule: 'stale',
        detail: 'no last_checked_at / started_at in the last 2 h: 4.4.4 treats it as stale',
      };
    if (get(s, 'session_id') !== sid)
      return get(s, 'session_id')
        ? {
            enforced: false,
            rule: 'other-session',
            detail: 'its session_id names another session: the Stop hook ignores it here',
          }
        : { enforced: false, rule: 'no-session-id', detail: 'written without session_id: the Stop hook ignores it' };
    return null;
  };
  const reinforce = (s: unknown, cap: number): Gate =>
    le(plusOne(get(s, 'reinforcement_count')), cap)
      ? { enforced: true, rule: 'reinforce', detail: 'the Stop hook reinforces it' }
      : { enforced: false, rule: 'reinforced-max', detail: `reinforced ${cap}/${cap}: the hook lets it stop` };

  const ralph = read('ralph-state.json');
  gate(
    'ralph',
    ralph,
    common(ralph) ??
      (lt(or(get(ralph, 'iteration'), 1), or(get(ralph, 'max_iterations'), 100))
        ? { enforced: true, rule: 'iteration', detail: 'the Stop hook continues the loop' }
        : {
            enforced: false,
            rule: 'max-iterations',
            detail: 'at its max iterations: 4.4.4 lets it stop (it does not extend)',
          }),
  );
  const ap = read('autopilot-state.json');
  gate(
    'autopilot',
    ap,
    common(ap) ??
      (or(get(ap, 'phase'), 'unknown') === 'complete'
        ? { enforced: false, rule: 'terminal', detail: 'phase complete' }
        : reinforce(ap, 20)),
  );
  const up = read('ultrapilot-state.json');
  let upGate: Gate | null = common(up);
  if (!upGate && up) {
    const workers = or(get(up, 'workers'), []);
    if (!Array.isArray(workers))
      upGate = {
        enforced: false,
        rule: 'hook-error',
        detail: 'workers is not a list: the hook fails and lets it stop',
        endsHook: true,
      };
    else if (workers.filter((w) => get(w, 'status') !== 'complete' && get(w, 'status') !== 'failed').length === 0)
      upGate = { enforced: false, rule: 'terminal', detail: 'no worker left running' };
    else upGate = reinforce(up, 20);
  }
  if (upGate) gate('ultrapilot', up, upGate);
  const pipe = read('pipeline-state.json');
  gate(
    'pipeline',
    pipe,
    common(pipe) ??
      (lt(or(get(pipe, 'current_stage'), 0), or(get(get(pipe, 'stages'), 'length'), 0))
        ? reinforce(pipe, 15)
        : { enforced: false, rule: 'terminal', detail: 'past its last stage' }),
  );
  const qa = read('ultraqa-state.json');
  gate(
    'ultraqa',
    qa,
    common(qa) ??
      (lt(or(get(qa, 'cycle'), 1), or(get(qa, 'max_cycles'), 10)) && !get(qa, 'all_passing')
        ? { enforced: true, rule: 'cycle', detail: 'the Stop hook starts the next QA cycle' }
        : { enforced: false, rule: 'terminal', detail: 'all passing or at its max cycles' }),
  );
  const uw = read('ultrawork-state.json');
  let uwGate = common(uw);
  if (!uwGate && uw) {
    const pp = get(uw, 'project_path');
    if (pp && norm(String(pp)) !== norm(cwd))
      uwGate = {
        enforced: false,
        rule: 'other-project',
        detail: "project_path is not the session's directory: ignored",
      };
    else if (gt(plusOne(get(uw, 'reinforcement_count')), or(get(uw, 'max_reinforcements'), 50)))
      uwGate = {
        enforced: false,
        rule: 'reinforced-max',
        detail: `reinforced ${String(or(get(uw, 'max_reinforcements'), 50))} times: the hook lets it stop`,
        endsHook: true,
      };
    else uwGate = { enforced: true, rule: 'reinforce', detail: 'the Stop hook reinforces it' };
  }
  if (uwGate) gate('ultrawork', uw, uwGate);

  const d = decided as { mode: string; gate: Gate } | null;
  // The payload is checked before any state is read: a context-limit stop or a user abort ends the hook.
  const escape = payloadEscape('4.4.4', ctx.stop);
  if (escape)
    return settleModes(
      {
        rules: '4.4.4',
        decision: 'stop',
        mode: null,
        rule: escape.rule,
        detail: escape.detail,
        modes,
        cancels: [],
        nextChangeAt: next,
        unless: [],
      },
      null,
    );
  const block = d?.gate.enforced === true;
  return settleModes(
    {
      rules: '4.4.4',
      decision: block ? 'block' : 'stop',
      mode: d ? d.mode : null,
      rule: d ? d.gate.rule : 'nothing-enforced',
      detail: d ? d.gate.detail : 'no mode the Stop hook enforces',
      modes,
      cancels: [],
      nextChangeAt: next,
      unless: block ? unobservedEscapes('4.4.4', ctx.stop) : [],
    },
    d && !block ? { mode: d.mode, rule: d.gate.rule } : null,
  );
}
