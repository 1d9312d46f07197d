/**
 * The verdict engine: for one session, what the Stop hook of the OMC version that runs this
 * project's hooks will do at the next Stop, per mode and overall, and which cancel signals
 * pause it until when.
 */
import type { RulesVersion } from '../omc-install.js';
import { verdict444 } from './rules-444.js';
import { verdict555 } from './rules-555.js';
import type { HookContext, HookTree, SessionVerdict } from './types.js';

export type { CancelVerdict, Decision, HookContext, HookTree, ModeVerdict, SessionVerdict } from './types.js';

export function stopVerdict(tree: HookTree, ctx: HookContext & { rules: RulesVersion }): SessionVerdict {
  return ctx.rules === '4.4.4' ? verdict444(tree, ctx) : verdict555(tree, ctx);
}
