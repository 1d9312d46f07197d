/**
 * OMC 4.15's wired Stop hook (`scripts/persistent-mode.mjs` at 4.15.10, the same file from 4.15.6
 * on), restated. It is 5.5.0's cascade (rules-555.ts) with three differences, each run against the
 * real 4.15.10 hook (test/fixtures/omc-4.15.10/, test/interop/verdict-415.test.ts):
 * - ultraqa is enforced, after omc-teams: active, fresh, this session's, this project's (no
 *   tombstone, no awaiting confirmation); `(cycle || 1) < (max_cycles || 10)` and not `all_passing`
 *   → block, else the hook goes on to ultrawork;
 * - ultrawork is enforced, last: active, not tombstoned, not another session's, not awaiting
 *   confirmation (2 min), fresh, this session's, this project's; `(reinforcement_count || 0) + 1`
 *   over `(max_reinforcements || 50)` → the hook lets the agent stop, else block;
 * - cancel signals are honoured only where `flock` exists (/usr/bin/flock or /bin/flock): the
 *   check takes an exclusive lock on the autopilot state, which 4.15's lock helper can take only
 *   with flock. Without it (stock macOS) no signal ever pauses the hook.
 *
 * This book also judges 4.6.1–4.15.5, whose hooks are earlier revisions of these rules: see
 * omc-books.ts for the differences known there.
 */
import { get, gt, lt, or, plusOne } from './js-coerce.js';
import { mjsCascade, type CascadeApi } from './rules-555.js';
import type { HookContext, HookTree, SessionVerdict } from './types.js';

function tailGates415(api: CascadeApi): void {
  const qa = api.load('ultraqa-state.json');
  const c = api.common('ultraqa', qa, {});
  if (c) api.gate('ultraqa', qa, c);
  else {
    const cycle = or(get(qa.state, 'cycle'), 1);
    const max = or(get(qa.state, 'max_cycles'), 10);
    if (lt(cycle, max) && !get(qa.state, 'all_passing'))
      api.gate('ultraqa', qa, { enforced: true, rule: 'cycle', detail: 'the Stop hook starts the next QA cycle' });
    else api.gate('ultraqa', qa, { enforced: false, rule: 'terminal', detail: 'all passing or at its max cycles' });
  }

  const uw = api.load('ultrawork-state.json');
  const cw = api.common('ultrawork', uw, { tomb: true, await: true });
  if (cw) api.gate('ultrawork', uw, cw);
  else {
    const max = or(get(uw.state, 'max_reinforcements'), 50);
    if (gt(plusOne(get(uw.state, 'reinforcement_count')), max))
      api.gate('ultrawork', uw, {
        enforced: false,
        rule: 'reinforced-max',
        detail: `reinforced ${String(max)} times: the hook lets it stop`,
        endsHook: true,
      });
    else api.gate('ultrawork', uw, { enforced: true, rule: 'reinforce', detail: 'the Stop hook reinforces it' });
  }
}

const NO_FLOCK =
  "flock is not installed (/usr/bin/flock, /bin/flock): OMC 4.15's signal check cannot take its lock, so it honours no cancel signal";

export function verdict415(tree: HookTree, ctx: HookContext): SessionVerdict {
  return mjsCascade(tree, ctx, {
    rules: '4.15.10',
    tailGates: tailGates415,
    signalsHonoured: (c) => (c.flock === false ? { ok: false, why: NO_FLOCK } : { ok: true, why: '' }),
  });
}
