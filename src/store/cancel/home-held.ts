/**
 * A loop the session's Stop hook would hold from the user's `~/.omc/state/<mode>-state.json` (OMC 4.15 and 5.5 fall
 * back to that copy for a state the session owns, research/omc-contract.md §1.5, omc-contract-5.5.md §1.5). omc-top
 * never writes outside the project's .omc, so such a copy outlives any cancel of it: the plan, `omc-top cancel` and
 * the dialog name it, and say what ends it, instead of calling the loop ended.
 */
import { hookLook } from './hook-look.js';
import { GLOBAL_PREFIX, RULE_BOOKS, stopVerdict, type HookTree, type RulesVersion } from '../verdict/index.js';

export interface HomeHeld {
  mode: string;
  /** `~/.omc/state/<mode>-state.json`, as the verdict names it. */
  rel: string;
}

/** Where the session's hooks run and whose ~/.omc they fall back to (home null: not read). */
export interface HookWhere {
  projectDir: string;
  home: string | null;
}

/** What a .omc file reads as once the cancel has done its step on it (removed, or set active:false). */
export type Undone = Map<string, 'remove' | 'deactivate'>;

function afterSteps(tree: HookTree, undone: Undone): HookTree {
  const read = (rel: string): unknown => {
    const step = undone.get(rel);
    if (step === 'remove') return null;
    const v = tree.read(rel);
    if (step === 'deactivate' && v && typeof v === 'object' && !Array.isArray(v)) return { ...v, active: false };
    return v;
  };
  return {
    read,
    findOwnedCopy(file, sessionId) {
      const c = tree.findOwnedCopy(file, sessionId);
      return c && undone.has(c.rel) ? (undone.get(c.rel) === 'remove' ? null : { rel: c.rel, value: read(c.rel) }) : c;
    },
  };
}

/**
 * The modes whose gate holds from a ~/.omc copy under any of `books` (every book when unknown), with `undone`'s files
 * as the cancel leaves them: a cancel signal in force does not count (it is over in 30 s; the copy is not).
 */
export function homeHeldModes(
  root: string,
  sessionId: string,
  where: HookWhere,
  books: readonly RulesVersion[] | null,
  now: number,
  undone: Undone = new Map(),
): HomeHeld[] {
  if (where.home === null) return [];
  const look = hookLook(root, sessionId, where);
  const tree = afterSteps(look.tree, undone);
  const out: HomeHeld[] = [];
  for (const rules of books ?? RULE_BOOKS) {
    const v = stopVerdict(tree, { rules, sessionId, cwd: look.cwd, now });
    for (const m of v.modes)
      if (m.gateHolds && m.path.startsWith(GLOBAL_PREFIX) && !out.some((o) => o.mode === m.mode))
        out.push({ mode: m.mode, rel: m.path });
  }
  return out;
}

/** What to do about it, the same words on every surface. */
export const HOME_REMEDY = "omc-top never changes files outside .omc: OMC's own /cancel ends it, or remove that file";

/** Why a plan leaves the copy, for its "left alone" line. */
export const homeLeftWhy = (h: HomeHeld): string =>
  `the copy in your home that OMC's hooks fall back to: it keeps ${h.mode} going once the cancel signal's 30 s are over; ${HOME_REMEDY}`;

/** Why a cancel did not take because of it; `untilMs` the end of the cancel signal's window. */
export const homeStillWhy = (h: HomeHeld, untilMs: number): string =>
  `the copy in your home that OMC's hooks fall back to holds ${h.mode} once the cancel signal's window is over (${new Date(untilMs).toISOString().slice(11, 19)} UTC); ${HOME_REMEDY}`;
