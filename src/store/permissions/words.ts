/**
 * The words for what became of an answer, shared by every surface that answers (the TUI's flash line and log, the
 * `serve` page) and by the store's own refusals: one wording for one fact.
 */
import type { PermissionDecision } from './protocol.js';

/** The decision as the user chose it. */
export const DECISION_WORDS: Record<PermissionDecision, string> = {
  allow: 'allow',
  always: 'always allow this command',
  deny: 'deny',
};

/** What a decision the hook gave Claude means for the call. */
const EFFECT: Record<PermissionDecision, string> = {
  allow: 'Claude was told to go ahead with it',
  always: 'Claude was told to go ahead with it, and to allow it from now on',
  deny: 'Claude was told not to run it',
};

/**
 * The hook replied to Claude with this user's own answer. No mark in the words: every surface marks an observed
 * outcome once, in front (the flash line's ✓, the serve page's), and the word itself says allow or deny.
 */
export const toldClaude = (d: PermissionDecision) => `the hook told Claude: ${DECISION_WORDS[d]}`;

/**
 * Another answer reached the hook first (a second omc-top, or the `serve` page): which one, and what it means
 * for the call, so a user who pressed deny reads that the call went ahead anyway.
 */
export const answeredFirst = (d: PermissionDecision, told: boolean) =>
  `another omc-top answered first: ${DECISION_WORDS[d]}${told ? ` (${EFFECT[d]})` : ''}`;

/** An answer that never left omc-top's side: the hook saw Claude gone, or could not write the reply to it. */
export const lostWords = (why: string) => `the answer was lost: ${why}; the hook replied to nobody`;

/** Why the hook's reply did not leave it (the write to Claude's pipe failed: Claude's end was closed). */
export const notHandedWords = (why: string) => `the reply could not be written to Claude (${why})`;

/** A receipt read this soon after the hook wrote it, with Claude gone: gone "right after" the reply. */
export const RIGHT_AFTER_MS = 5_000;

/**
 * The hook wrote the reply whole to Claude (the receipt is written only after that), and the Claude that asked
 * is gone now (`why`: "pid N is not running"). Said as seen: handed over, never ✓, never "lost". "Right after" only
 * when the receipt was read within RIGHT_AFTER_MS of its writing; a receipt read later (a monitor suspended, busy)
 * says only that Claude has exited since: when, against the reply, was not seen.
 */
export const handedThenGone = (d: PermissionDecision, why: string, receiptAgeMs = 0) =>
  receiptAgeMs <= RIGHT_AFTER_MS
    ? `handed to Claude: ${DECISION_WORDS[d]}; Claude exited right after (${why}), so whether it acted on it is unknown`
    : `handed to Claude: ${DECISION_WORDS[d]}; Claude has exited since (${why}; the receipt is ${Math.round(receiptAgeMs / 1000)}s old), so whether it acted on it is unknown`;
