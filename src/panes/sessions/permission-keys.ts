/**
 * The session detail's keys for a permission request its Claude is waiting on (handed over by the opt-in
 * PermissionRequest hook): y allows, n denies, A allows this exact command always. The same answer as the `!`
 * list's (input/answer-actions.ts): bound to the request shown, refused when stale. In the detail only, where the
 * request's lines are on screen: in the list, n and m stay the notepad and memory hotkeys.
 */
import path from 'node:path';
import type { Binding, Mode } from '../../kit/bindings.js';
import type { KeyContext } from '../../kit/pane.js';
import type { PermissionDecision } from '../../store/permissions/protocol.js';
import type { PermissionRequestView } from '../../store/permissions/model.js';
import type { SessionView } from '../../store/sessions/model.js';
import { answerPermissionRequest } from '../../input/answer-actions.js';
import { hookStatus } from '../../store/permissions/settings-hook.js';
import type { SessionsPaneState } from './reducer.js';
import { countWord } from '../../io/count-words.js';

type S = SessionsPaneState;
type Ctx = KeyContext<S>;

/** The oldest request the session's Claude waits on (Claude asks one at a time; a second would wait behind it). */
export function pendingRequest(ctx: Ctx, s: SessionView | undefined): PermissionRequestView | null {
  if (!s || s.kind !== 'session') return null;
  return ctx.store.permissions.getSnapshot().requests.find((r) => r.sessionId === s.id) ?? null;
}

const NONE = 'no permission request from this session waits here';

/**
 * Why nothing can be answered, as true of this project now: its hook is read when the key is pressed (a `hooks
 * install` in another terminal counts), so the hint to install it is given only where it is not installed.
 */
function nothingWaits(ctx: Ctx): string {
  const st = hookStatus({ cwd: ctx.store.projectDir ?? path.dirname(ctx.store.root) });
  if (!st.installed) return `${NONE} (omc-top hooks install hands them over)`;
  if (st.problem) return `${NONE}; omc-top's hook is installed but cannot hand one over: ${st.problem}`;
  return `${NONE}: its Claude asks nothing now (omc-top's hook is installed: a prompt shows here when it asks)`;
}

/**
 * Why y and A may not allow the request: lines of its command are scrolled out of the detail's window (`hidden`
 * counts them, given by the pane, which knows its layout and scroll). What you allow is what you read.
 */
export function subjectNotShown(hidden: number): string | null {
  return hidden > 0
    ? `not allowed from here: the command is not all on screen (${countWord(hidden, 'line')} of it scrolled out of view): scroll to read it whole, widen the terminal, or answer it in Claude's own prompt (n denies here)`
    : null;
}

export function permissionBindings(
  when: Mode<S>,
  current: (ctx: Ctx) => SessionView | undefined,
  /** How many lines of the request's command are not on screen now (the detail's layout and scroll). */
  hiddenLines: (ctx: Ctx, r: PermissionRequestView) => number,
): Binding<S>[] {
  const notShown = (ctx: Ctx, r: PermissionRequestView) => subjectNotShown(hiddenLines(ctx, r));
  const answer = (
    keys: string[],
    decision: PermissionDecision,
    hint: string,
    help: string,
    extra?: (r: PermissionRequestView, ctx: Ctx) => string | null,
    /** Offered for this request (the footer): y and A not where they refuse to allow, A not where always is not. */
    offers?: (r: PermissionRequestView, ctx: Ctx) => boolean,
  ): Binding<S> => ({
    keys,
    help,
    hint,
    when,
    // Not a write to .omc, but an answer file in omc-top's state dir that lets a tool run: --readonly answers nothing.
    writes: true,
    readonlyText: '--readonly: nothing is answered (nothing is written)',
    offered: (ctx) => {
      const r = pendingRequest(ctx, current(ctx));
      return r !== null && (offers?.(r, ctx) ?? true);
    },
    disabled: (ctx) => {
      const r = pendingRequest(ctx, current(ctx));
      return r ? (extra?.(r, ctx) ?? null) : nothingWaits(ctx);
    },
    run: (ctx) => {
      const r = pendingRequest(ctx, current(ctx));
      if (r) answerPermissionRequest(ctx.store, ctx.app, r, decision);
    },
  });
  return [
    answer(
      ['y'],
      'allow',
      'allow',
      "allow the tool call the session's Claude asks permission for (this once)",
      (r, ctx) => r.allowRefused ?? notShown(ctx, r),
      (r, ctx) => r.allowRefused === null && notShown(ctx, r) === null,
    ),
    answer(['n'], 'deny', 'deny', "deny the tool call the session's Claude asks permission for"),
    answer(
      ['A'],
      'always',
      'always',
      'allow it and always allow this exact Bash command (a rule for the session, or local settings as configured)',
      (r, ctx) => r.allowRefused ?? notShown(ctx, r) ?? r.alwaysRefused,
      (r, ctx) => r.allowRefused === null && notShown(ctx, r) === null && r.alwaysOffered,
    ),
  ];
}
