/**
 * The verdict engine: for one session, what the Stop hook of the OMC version that runs this
 * project's hooks will do at the next Stop, per mode and overall, and which cancel signals
 * pause it until when.
 */
import { verdict415 } from './rules-415.js';
import { verdict444 } from './rules-444.js';
import { verdict555 } from './rules-555.js';
import type { HookContext, HookTree, SessionVerdict } from './types.js';

export { GLOBAL_PREFIX, RULE_BOOKS, STOP_HOOK_OFF_RULE } from './types.js';
export { GOALS_REL } from './rules-555.js';
export type {
  CancelVerdict,
  Decision,
  HardMax,
  HookContext,
  HookGap,
  HookTree,
  ModeVerdict,
  RulesVersion,
  SessionVerdict,
  StopFacts,
} from './types.js';

export function stopVerdict(tree: HookTree, ctx: HookContext): SessionVerdict {
  switch (ctx.rules) {
    case '4.4.4':
      return verdict444(tree, ctx);
    case '4.15.10':
      return verdict415(tree, ctx);
    default:
      return verdict555(tree, ctx);
  }
}
