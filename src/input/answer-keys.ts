/**
 * The keys that answer an item in the `!` list, as a bindings table like every pane's: the router dispatches from
 * it, the footer and the `?` help are generated from it. y / n / A on a permission request (the answer file the
 * hook is waiting for), y / n on an OMC gate (asked first: a gate is a person's decision), Enter on a permission
 * request opens its session. Under --readonly nothing is answered.
 */
import { dispatch, footerHints, type Binding, type BindingContext } from '../kit/bindings.js';
import { isAnswerLine, type AnswerLine } from '../feeds/answers/items.js';
import type { InputEvent } from '../terminal/keys.js';
import { answerPermissionItem, decideGateItem } from './answer-actions.js';
import type { OmcStore } from '../store/store.js';
import type { AppActions } from '../kit/pane.js';
import type { PermissionDecision } from '../store/permissions/protocol.js';
import type { GateDecision } from '../store/graph/files.js';

/** What answering needs of the router's environment. */
export interface AnswerEnv {
  store: OmcStore;
  app: AppActions;
  /** Closes the list and opens the pane and item that show the file at `path` (relative to the .omc root). */
  open(path: string): void;
  /** Opens the list again (after a gate's dialog). */
  reopen(): void;
}

export interface AnswerContext extends BindingContext<AnswerLine | null> {
  env: AnswerEnv;
  /** Why the selected prompt's command may not be allowed: it is not all on screen (ui/inbox-layout.ts), or null. */
  subjectCut: string | null;
}

type B = Binding<AnswerLine | null, AnswerContext>;

const itemOf = (ctx: AnswerContext) => ctx.state?.answer ?? null;
const READONLY = '--readonly: nothing is answered (nothing is written)';

function answerKey(
  keys: string[],
  hint: string,
  help: string,
  perm: PermissionDecision | null,
  gate: GateDecision | null,
): B {
  return {
    keys,
    hint,
    help,
    writes: true,
    readonlyText: READONLY,
    // Offered only where it would answer: y and A are not, for a command they refuse to allow (longer than omc-top
    // shows, or not all on screen); the footer then offers n deny alone, and pressing y says why.
    offered: (ctx) => {
      const a = itemOf(ctx);
      return a?.kind === 'permission'
        ? perm !== null &&
            (perm !== 'always' || a.request.alwaysOffered) &&
            (perm === 'deny' || (a.request.allowRefused === null && ctx.subjectCut === null))
        : a?.kind === 'gate' && gate !== null && a.gate.decided === null;
    },
    disabled: (ctx) => {
      const a = itemOf(ctx);
      if (!a) return 'select a permission request or an OMC gate';
      if (a.kind === 'permission' && perm !== 'deny' && a.request.allowRefused) return a.request.allowRefused;
      // What you allow is what you read: a command the inbox could not show whole is not allowed from it.
      if (a.kind === 'permission' && perm !== 'deny' && ctx.subjectCut) return ctx.subjectCut;
      if (a.kind === 'permission' && perm === 'always' && a.request.alwaysRefused) return a.request.alwaysRefused;
      if (a.kind === 'gate' && gate === null) return 'y approves, n denies an OMC gate';
      // Decided (here or elsewhere), waiting for OMC to read it: a second decision is refused at once, no dialog.
      if (a.kind === 'gate' && a.gate.decided)
        return `already decided: ${a.gate.decided.decision}; the decision waits for OMC to read it`;
      return null;
    },
    run: (ctx) => {
      const a = itemOf(ctx);
      if (a?.kind === 'permission' && perm) answerPermissionItem(ctx.env.store, ctx.env.app, a, perm);
      else if (a?.kind === 'gate' && gate) decideGateItem(ctx.env.store, ctx.env.app, a, gate, ctx.env.reopen);
    },
  };
}

export const ANSWER_BINDINGS: readonly B[] = [
  answerKey(
    ['y'],
    'allow / approve',
    'permission request: allow it (this once) · OMC gate: approve it (asked first)',
    'allow',
    'approved',
  ),
  answerKey(
    ['n'],
    'deny',
    'permission request: deny it · OMC gate: deny it (asked first; the run then fails)',
    'deny',
    'denied',
  ),
  answerKey(['A'], 'always', 'permission request: allow it and always allow this exact Bash command', 'always', null),
  {
    keys: ['enter'],
    hint: 'open',
    help: "permission request: open its session's detail (y / n / A answer it there too)",
    offered: (ctx) => itemOf(ctx)?.kind === 'permission',
    disabled: (ctx) => (itemOf(ctx)?.kind === 'permission' ? null : 'y approves, n denies this gate (Esc closes)'),
    run: (ctx) => {
      const a = itemOf(ctx);
      if (a?.kind === 'permission') ctx.env.open(`state/sessions/${a.request.sessionId}/`);
    },
  },
];

export function answerContext(line: AnswerLine | null, env: AnswerEnv, subjectCut: string | null): AnswerContext {
  return { state: line, set: () => undefined, app: env.app, env, subjectCut };
}

/**
 * Dispatches a key on the selected answerable item; false when the key is not one of the table's. `subjectCut`: the
 * inbox layout's word on whether the prompt's command is all on screen.
 */
export function routeAnswerKey(ev: InputEvent, line: AnswerLine, env: AnswerEnv, subjectCut: string | null): boolean {
  return dispatch(ANSWER_BINDINGS, ev, answerContext(line, env, subjectCut));
}

/**
 * The footer's hints for the `!` list's selected line: the answering keys it offers, none for a file problem.
 * `subjectCut`: the inbox layout's word on whether the prompt's command is all on screen (y and A are not offered
 * when it is not).
 */
export function answerHints(
  sel: { path: string; message: string; severity: string } | null,
  store: OmcStore,
  app: AppActions,
  subjectCut: string | null,
): Array<[string, string]> {
  if (!sel || !isAnswerLine(sel)) return [];
  const ctx = answerContext(sel, { store, app, open: () => undefined, reopen: () => undefined }, subjectCut);
  return footerHints(ANSWER_BINDINGS, sel, app.readonly, ctx);
}

/** The `?` help's block for these keys. */
export const HELP_SECTIONS = [
  { title: 'The ! list: a permission request or an OMC gate selected', bindings: ANSWER_BINDINGS },
];
