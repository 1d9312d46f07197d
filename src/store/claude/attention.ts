/**
 * What needs the user, from the join of OMC's state and the Claude process:
 * an orphaned loop (OMC would enforce it, no live CLI has the session), a
 * permission prompt or question (with the call it is about and where the
 * session runs), or a CLI idle while its loop is active, with the reason the
 * facts support.
 */
import type { SessionView } from '../sessions/model.js';
import { datedHm, tmuxPlaceOf, waitingFact, waitingProcess, whereText } from './life.js';
import type { ProcessView, WaitingFact } from './model.js';
import type { TranscriptFacts } from './transcript-facts.js';
import { elsewhereText, paneTakenText } from './join-words.js';
import { shownPath } from '../../io/shown-path.js';

export type AttentionKind = 'orphaned-loop' | 'waiting-for-you' | 'idle-while-active';
export type IdleReason = 'block-cap' | 'one-iteration-per-turn' | 'hook-did-not-block';

export interface AttentionFact {
  kind: AttentionKind;
  reason: IdleReason | null;
  text: string;
  /**
   * One line for a notification: the session by the names a user finds it by (Claude's name, the tmux
   * window; the short id when neither is known), what it needs, and the key that acts.
   */
  notice: string;
  /** waiting-for-you: what is waited on and where (the same fact the claude snapshot carries). */
  waiting?: WaitingFact;
  /**
   * waiting-for-you: the process that waits (the one shown, or another of the session's: ProcessView.waitingPeer):
   * its name and tmux pane are the item's, and J goes there.
   */
  asker?: ProcessView;
  /** orphaned-loop: the directory its Claude runs in, when that Claude runs but its hooks read another `.omc`. */
  elsewhere?: string;
  /**
   * The registry names the tmux pane Claude runs (or ran) in, and no other live Claude runs there now: J can go there.
   */
  paneKnown?: boolean;
}

/** J reaches the process's pane: the registry names one, and (for an ended process) it is not another Claude's now. */
export const paneReachable = (proc: ProcessView | null): boolean => !!proc?.tmux && !proc.paneNow;

/**
 * The key that reaches a session needing you, from what is known: J when the registry names its tmux pane; else
 * a waiting Claude is answered in its terminal, and a loop whose Claude ended is resumed with r. `long`: the
 * detail's words; else a notice's. The one place the detail and the notices take this advice from.
 */
export function reachAdvice(kind: 'waiting-for-you' | 'orphaned-loop', paneKnown: boolean, long: boolean): string {
  if (kind === 'waiting-for-you')
    return long
      ? `answer it in its terminal${paneKnown ? ' (J jumps to its tmux pane)' : ''}`
      : paneKnown
        ? 'J jumps there'
        : 'answer it in its terminal';
  return long
    ? paneKnown
      ? 'J to its tmux pane to resume it'
      : 'r to resume it'
    : paneKnown
      ? 'J to its pane'
      : 'r resumes it';
}

/** "proj-87 (tmux main:2 claude)", else the session id's first 8 characters. */
export function sessionLabel(s: SessionView, proc: ProcessView | null): string {
  const id = s.id.length > 12 ? s.id.slice(0, 8) : s.id;
  const name = proc?.name ?? id;
  const place = tmuxPlaceOf(proc);
  return place ? `${name} (tmux ${place})` : name;
}

/** What a waiting process asks, in a notification's words. */
function asks(w: WaitingFact): string {
  const call = w.call ? `${w.call.name}${w.call.arg ? ` ${w.call.arg}` : ''}` : null;
  const more = w.more > 0 ? ` (+${w.more} more)` : '';
  if (w.for === 'permission prompt') return call ? `asks permission: ${call}${more}` : 'asks permission';
  if (w.for === 'input needed') return w.call?.arg ? `asks: ${w.call.arg}` : 'asks a question';
  return call ? `waits (${w.for}): ${call}${more}` : `waits (${w.for})`;
}

/** A mode OMC's Stop hook would keep enforcing (held now, or only paused at this Stop). */
export function activeLoop(s: SessionView) {
  return s.modes.find((m) => m.enforced || m.status === 'paused') ?? null;
}

/**
 * "pid 7 is gone" / "pid 7 exited at Dec 6 2026 14:02" / "exited at Dec 6 2026 14:02" (by the transcript's own exit
 * figures): dated, as this text is kept and compared with no clock (a bare time, read the next day, looks like that day's).
 */
function endOfProcess(proc: ProcessView | null, facts: TranscriptFacts | null): string | null {
  // Running, but its hooks read another .omc: nothing will continue or end this root's loop.
  const away = elsewhereText(proc);
  if (away) return away;
  if (proc?.status === 'gone') return `its Claude process (pid ${proc.pid}) is gone`;
  if (proc?.status === 'exited')
    return `its Claude process (pid ${proc.pid}) exited${proc.since !== null ? ` at ${datedHm(proc.since)}` : ''}`;
  if ((!proc || proc.status === 'unknown') && facts?.exit)
    return `its Claude process exited${facts.exit.endMs !== null ? ` at ${datedHm(facts.exit.endMs)}` : ''} (Claude Code's exit figures end its transcript)`;
  return null;
}

export function attentionFor(s: SessionView, proc: ProcessView | null, facts: TranscriptFacts | null): AttentionFact[] {
  const out: AttentionFact[] = [];
  const loop = activeLoop(s);
  // The process that waits on a prompt: the one shown, or another of the session's (two terminals on one session).
  const asker = waitingProcess(proc);
  const waiting = waitingFact(asker, facts);
  const label = sessionLabel(s, proc);
  if (waiting && asker) {
    const where = whereText(asker);
    out.push({
      kind: 'waiting-for-you',
      reason: null,
      text: `Claude is waiting for you: ${waiting.text}${where ? ` (${where})` : ''}`,
      notice: `${sessionLabel(s, asker)} ${asks(waiting)} · ${reachAdvice('waiting-for-you', paneReachable(asker), false)}`,
      waiting,
      asker,
      paneKnown: paneReachable(asker),
    });
  }
  const ended = loop ? endOfProcess(proc, facts) : null;
  if (loop && ended) {
    const where = whereText(proc);
    // Its pane runs another Claude now: J would land in that one's prompt, so the item says r (on every surface).
    const taken = proc?.elsewhere ? null : paneTakenText(proc);
    out.push({
      kind: 'orphaned-loop',
      reason: null,
      text: `orphaned ${loop.mode}: ${ended}${where ? ` (${where})` : ''}${taken ? `; ${taken}` : ''}; cancel cleans it up`,
      ...(proc?.elsewhere ? { elsewhere: proc.elsewhere } : {}),
      // A Claude running elsewhere is ended there and resumed here (the detail says so): no key reaches it from here.
      notice: `${label}: ${loop.mode} orphaned, its Claude ${proc?.elsewhere ? `runs from ${shownPath(proc.elsewhere)}` : proc?.status === 'gone' ? 'is gone' : 'exited'} · c cleans up${proc?.elsewhere ? '' : `, ${reachAdvice('orphaned-loop', paneReachable(proc), false)}`}`,
      paneKnown: paneReachable(proc),
    });
  }
  // Idle elsewhere is not this loop's idle: its Stop hook never ran here (the orphan above says so). One need per
  // session, the prompt first: while another of its Claudes waits on a prompt, the one shown being idle is not it.
  if (loop && proc?.status === 'idle' && !proc.elsewhere && !waiting) {
    let reason: IdleReason = 'hook-did-not-block';
    let text = `Claude is idle while ${loop.mode} is active: the Stop hook did not block this turn`;
    if (facts?.blockCapOverride) {
      reason = 'block-cap';
      text = `Claude Code overrode the Stop hook after its block cap (8 by default, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP); ${loop.mode} stays active`;
    } else if (facts && facts.turnBlocks > 0) {
      reason = 'one-iteration-per-turn';
      text = `${loop.mode} advances once per prompt: OMC's Stop hook does not block again while stop_hook_active is true`;
    }
    out.push({
      kind: 'idle-while-active',
      reason,
      text,
      notice: `${label}: Claude idle while ${loop.mode} is active · ${reason === 'one-iteration-per-turn' ? 'a prompt runs the next iteration' : 'Enter shows why'}, c ends it`,
    });
  }
  return out;
}
