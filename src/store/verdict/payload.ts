/**
 * The Stop payload's own escapes: fields of the hook's stdin that make it let the agent stop before
 * it looks at any mode. Each book checks them in its hook's order (5.5.0 and 4.15: stop_hook_active,
 * a context-limit reason, ≥ 95 % context in the transcript tail, a user abort, an authentication
 * error, a scheduled wakeup; 4.4.4: a context-limit reason and a user abort only). The same
 * classifications as the hooks, restated: lower-cased reasons matched against the same words.
 *
 * omc-top sees the payload only as far as the transcript tells it: `stop_hook_active` (a block
 * earlier in the open turn) and the context use. Claude Code 2.1.332 sends no stop reason at all,
 * so the reason escapes are listed as what would change a block (`unless`), never assumed.
 */
import type { RulesVersion, StopFacts } from './types.js';

type Obj = Record<string, unknown>;

const CONTEXT = [
  'context_limit',
  'context_window',
  'context_exceeded',
  'context_full',
  'max_context',
  'token_limit',
  'max_tokens',
  'conversation_too_long',
  'input_too_long',
];
const ABORT_EXACT = ['aborted', 'abort', 'cancel', 'interrupt'];
const ABORT_PART = ['user_cancel', 'user_interrupt', 'ctrl_c', 'manual_stop'];
const AUTH = [
  'authentication_error',
  'authentication_failed',
  'auth_error',
  'unauthorized',
  'unauthorised',
  '401',
  '403',
  'forbidden',
  'invalid_token',
  'token_invalid',
  'token_expired',
  'expired_token',
  'oauth_expired',
  'oauth_token_expired',
  'invalid_grant',
  'insufficient_scope',
];
const WAKEUP = [
  'schedulewakeup',
  'schedule_wakeup',
  'scheduled_wakeup',
  'scheduled_task',
  'scheduled_resume',
  'loop_resume',
  'loop_wakeup',
];
export const CRITICAL_CONTEXT_PERCENT = 95;

const lower = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : '');
/** `a || b || ""` on payload fields, as the hooks read them. */
const firstTruthy = (p: Obj, keys: string[]): unknown => {
  for (const k of keys) if (p[k]) return p[k];
  return '';
};
/** The .mjs hooks' reason list: every non-blank string of these fields, spaces and hyphens as "_". */
const reasonsMjs = (p: Obj): string[] =>
  ['stop_reason', 'stopReason', 'end_turn_reason', 'endTurnReason', 'reason']
    .map((k) => p[k])
    .filter((v): v is string => typeof v === 'string' && v.trim().length > 0)
    .map((v) => v.toLowerCase().replace(/[\s-]+/g, '_'));

function contextLimit(p: Obj, rules: RulesVersion): boolean {
  if (rules === '4.4.4') {
    const reason = lower(firstTruthy(p, ['stop_reason', 'stopReason']));
    const endTurn = lower(firstTruthy(p, ['end_turn_reason', 'endTurnReason']));
    return CONTEXT.some((c) => reason.includes(c)) || (endTurn !== '' && CONTEXT.some((c) => endTurn.includes(c)));
  }
  return reasonsMjs(p).some((r) => CONTEXT.some((c) => r.includes(c)));
}

function userAbort(p: Obj): boolean {
  if (p.user_requested || p.userRequested) return true;
  const reason = lower(firstTruthy(p, ['stop_reason', 'stopReason']));
  return ABORT_EXACT.some((x) => reason === x) || ABORT_PART.some((x) => reason.includes(x));
}

function authError(p: Obj): boolean {
  const reason = lower(firstTruthy(p, ['stop_reason', 'stopReason']));
  const endTurn = lower(firstTruthy(p, ['end_turn_reason', 'endTurnReason']));
  return AUTH.some((a) => reason.includes(a) || endTurn.includes(a));
}

function wakeup(p: Obj): boolean {
  const tool = String(p.tool_name || p.toolName || '')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (WAKEUP.some((w) => tool.includes(w))) return true;
  return reasonsMjs(p).some((r) => WAKEUP.some((w) => r.includes(w)));
}

/**
 * The context use the .mjs hooks read off a transcript tail (its last 4 KiB): the last
 * `"context_window": N` and the last `"input_tokens": N`, as a rounded percentage; 0 when either
 * is missing (Claude Code 2.1.332's transcript lines carry no context_window).
 */
export function transcriptPercent(tail: string): number {
  const windows = tail.match(/"context_window"\s{0,5}:\s{0,5}(\d+)/g);
  const inputs = tail.match(/"input_tokens"\s{0,5}:\s{0,5}(\d+)/g);
  if (!windows || !inputs) return 0;
  const w = parseInt(/(\d+)/.exec(windows[windows.length - 1] as string)?.[1] ?? '', 10);
  const i = parseInt(/(\d+)/.exec(inputs[inputs.length - 1] as string)?.[1] ?? '', 10);
  if (!Number.isFinite(w) || w <= 0 || !Number.isFinite(i)) return 0;
  return Math.round((i / w) * 100);
}

export interface Escape {
  rule: string;
  detail: string;
}

/**
 * With nothing known of a session's Stop payload (most sessions: no transcript facts) the answer depends on the book
 * alone, and one publish judges every session by up to three books: worked out once per book.
 */
const NO_FACTS_ESCAPE = new Map<RulesVersion, Escape | null>();

/**
 * The first escape the book's hook takes on what is known of the payload, or null.
 * @param noStopHookActive the version judged lacks the book's stop_hook_active escape (HookGap `stop-hook-active`).
 */
export function payloadEscape(
  rules: RulesVersion,
  facts: StopFacts | undefined,
  noStopHookActive = false,
): Escape | null {
  if (facts !== undefined) return escapeOf(rules, facts, noStopHookActive);
  let e = NO_FACTS_ESCAPE.get(rules);
  if (e === undefined) NO_FACTS_ESCAPE.set(rules, (e = escapeOf(rules, undefined)));
  return e;
}

function escapeOf(rules: RulesVersion, facts: StopFacts | undefined, noStopHookActive = false): Escape | null {
  const p: Obj = facts?.payload ?? {};
  const mjs = rules !== '4.4.4';
  const active = facts?.payload ? p.stop_hook_active === true : facts?.stopHookActive === true;
  if (mjs && active && !noStopHookActive)
    return {
      rule: 'stop-hook-active',
      detail:
        'the Stop hook already blocked once this turn: Claude Code passes stop_hook_active, and this hook then lets the agent stop (the loop goes on at the next prompt)',
    };
  if (contextLimit(p, rules))
    return { rule: 'payload-escape', detail: 'a context-limit stop: the hook never blocks it' };
  if (mjs) {
    const pct = facts?.transcriptPercent ?? null;
    if (pct !== null && pct >= CRITICAL_CONTEXT_PERCENT)
      return {
        rule: 'payload-escape',
        detail: `the transcript shows ${pct} % context use: the hook lets the agent stop so Claude Code can compact`,
      };
  }
  if (userAbort(p)) return { rule: 'payload-escape', detail: 'a user abort: the hook lets the agent stop' };
  if (mjs && authError(p))
    return { rule: 'payload-escape', detail: 'an authentication error: the hook lets the agent stop' };
  if (mjs && wakeup(p)) return { rule: 'payload-escape', detail: 'a scheduled wakeup: the hook lets the agent stop' };
  return null;
}

/** The escapes of a session with no transcript facts, per book: one frozen list shared by every such verdict. */
const NO_FACTS_UNLESS = new Map<RulesVersion, readonly string[]>();

/** What the payload could still carry that would turn this book's block into a stop, in words. */
export function unobservedEscapes(
  rules: RulesVersion,
  facts: StopFacts | undefined,
  noStopHookActive = false,
): readonly string[] {
  if (facts !== undefined || noStopHookActive) return escapesOf(rules, facts, noStopHookActive);
  let u = NO_FACTS_UNLESS.get(rules);
  if (u === undefined) NO_FACTS_UNLESS.set(rules, (u = Object.freeze(escapesOf(rules, undefined))));
  return u;
}

function escapesOf(rules: RulesVersion, facts: StopFacts | undefined, noStopHookActive = false): string[] {
  if (facts?.payload) return [];
  const out: string[] = [];
  if (rules !== '4.4.4' && !noStopHookActive && (facts?.stopHookActive === undefined || facts.stopHookActive === null))
    out.push('stop_hook_active (a second Stop in one turn)');
  out.push(
    rules === '4.4.4'
      ? 'a context-limit or user-abort stop reason'
      : 'a context-limit, user-abort, authentication-error or scheduled-wakeup stop reason',
  );
  if (rules !== '4.4.4' && (facts?.transcriptPercent === undefined || facts.transcriptPercent === null))
    out.push('≥ 95 % context in the transcript');
  return out;
}
