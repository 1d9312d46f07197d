/**
 * The one word a session's row says while a cancel omc-top made is in flight, on every surface: the monitor's row
 * and detail, a second monitor's, `--json` (`status_text`, `cancel_in_flight`), `watch --json --rows` and the fleet
 * (the row's `cancelFlight`), and the serve page. The monitor that made the cancel decides it from its tracker; every
 * other process from the cancel's record in the state directory (cancel-records.ts) and what it sees itself of the
 * loop on disk and of the session's Claude process. Both go through `flightWord`, so at the same moment they say the
 * same word:
 *
 * - `stopping 47s` (counting up from the cancel): the loop is ended on disk and Claude was in its turn at the cancel
 *   and has not been seen to stop (its turn ends when OMC's Stop hook lets it);
 * - `ended 23s` (counting down the signal's 30 s window): the loop is ended on disk and Claude was not in a turn,
 *   or none can be seen (its stop is then not observed: no ✓);
 * - `cancel 23s` (counting down): the signal is written and the loop is active on disk again or still.
 *
 * Nothing once Claude is seen to stop or the window is over with nothing in a turn: the cancel is settled, and its
 * word is the one the watching process recorded (settled.ts), said by every process for five minutes. A pause is
 * never recorded: its word is the store's (`paused`, `pause 12s`), read from the disk by every process alike.
 */
import type { ClaudeSessionView } from '../claude/model.js';
import { agentViewOf } from '../claude/agent-watch.js';
import type { SessionView } from '../sessions/model.js';
import type { CancelRecord } from './cancel-records.js';
import { settledHides } from './settled.js';
import { claudeAtSignal, inTurn, type AgentView, type ClaudeSide, type TrackedCancel } from './tracker.js';

export const FLIGHT_WORDS = ['stopping', 'ended', 'cancel'] as const;
export type FlightWordName = (typeof FLIGHT_WORDS)[number];

/** A cancel in flight as a row says it: `stopping` counts up from `sinceMs`, the others down to `untilMs`. */
export interface FlightWord {
  word: FlightWordName;
  /** When the cancel was written (epoch ms), for `stopping`; else null. */
  sinceMs: number | null;
  /** When the signal's window ends (epoch ms), for `ended` and `cancel`; else null. */
  untilMs: number | null;
}

/** What decides the word: the cancel's moment and window, the loop on disk, Claude as seen since the cancel. */
export interface Flight {
  requestedMs: number;
  expiresMs: number;
  /** A mode the cancel ended is active on disk (again, or still). */
  loopActive: boolean;
  claude: ClaudeSide;
}

export function flightWord(f: Flight, now: number): FlightWord | null {
  // Claude seen to stop: settled ("stopped ✓" where it was seen, the loop's own word elsewhere).
  if (f.claude.stoppedMs !== null) return null;
  // Claude's stop takes as long as its turn does: counted up from the cancel, past the window too. Only while the
  // disk still shows the turn of the cancel (tracker.ts turnSinceCancel): every process can then say it.
  if (!f.loopActive && inTurn(f.claude.atCancel) && f.claude.turnUnsure !== true)
    return { word: 'stopping', sinceMs: f.requestedMs, untilMs: null };
  if (now >= f.expiresMs) return null;
  return { word: f.loopActive ? 'cancel' : 'ended', sinceMs: null, untilMs: f.expiresMs };
}

/** "stopping 47s", "stopping 3m", "ended 23s". */
export function flightText(w: FlightWord, now: number): string {
  if (w.sinceMs !== null) {
    const s = Math.max(0, Math.floor((now - w.sinceMs) / 1000));
    return `${w.word} ${s < 120 ? `${s}s` : `${Math.floor(s / 60)}m`}`;
  }
  return `${w.word} ${Math.max(0, Math.ceil(((w.untilMs ?? now) - now) / 1000))}s`;
}

/** The word's meaning in a sentence (the detail view, after the word). */
export function flightWhy(w: FlightWord): string {
  switch (w.word) {
    case 'stopping':
      return "omc-top's cancel ended the loop on disk; Claude was in its turn at the cancel and is not seen to stop yet";
    case 'ended':
      return "omc-top's cancel ended the loop on disk; the signal's window is watched for anything re-arming it";
    default:
      return "omc-top's cancel signal is in force and the loop is active on disk: not ended yet";
  }
}

/** The word of the monitor's own cancel, from what its tracker observed (null: settled, or a pause). */
export function trackedFlight(t: TrackedCancel, now: number): FlightWord | null {
  if (t.final || t.pauseOnly) return null;
  const loopActive = t.phase === 'waiting';
  // Watched past its own signal while another writer's replacing one is in force (tracker.ts watchUntilMs).
  const expiresMs = Math.max(t.expiresMs, t.watchUntilMs ?? 0);
  return flightWord({ requestedMs: t.requestedMs, expiresMs, loopActive, claude: t.claude }, now);
}

/**
 * "stopping" / "ended" say the loop is over; while the session's Stop hook still blocks (a loop the cancel did not
 * end: on 4.4.4, an ultrawork another prompt started) the row says the store's word instead (settled.ts settledHides).
 */
const heldElsewhere = (w: FlightWord | null, s: Pick<SessionView, 'verdict'>): boolean =>
  w !== null && w.word !== 'cancel' && settledHides(s);

const NO_AGENT: AgentView = { status: 'none', pid: null, sinceMs: null, lastTurnEndMs: null };

/**
 * The word of a recorded cancel, from any process: the record says which modes were ended and when; the disk says
 * whether one is active again; the session's Claude process (its registry entry, its transcript) says whether it was
 * in a turn at the cancel and whether it stopped since. A cancel that failed half-way is not in flight (its
 * `cancel failed` is the attention item's, feeds/attention/needs.ts), nor one whose verdict is recorded (settled.ts).
 */
export function recordedFlight(
  rec: CancelRecord | undefined,
  s: SessionView,
  claude: ClaudeSessionView | undefined,
  now: number,
): FlightWord | null {
  if (!rec || (rec.failed ?? null) !== null || (rec.settled ?? null) !== null) return null;
  const loopActive = s.modes.some((m) => m.active && rec.modes.includes(m.mode));
  const agent = s.kind === 'legacy' || !claude ? NO_AGENT : agentViewOf(claude);
  // A turn whose status began after the cancel (a new prompt, or a prompt answered since) does not show what Claude
  // was doing at the cancel: "stopping" is said only for a turn seen to have begun before it (the record can be a
  // day old), by this process and the one that cancelled alike (claudeAtSignal marks it turnUnsure).
  const side = claudeAtSignal(agent, rec.requestedMs);
  const w = flightWord({ requestedMs: rec.requestedMs, expiresMs: rec.expiresMs, loopActive, claude: side }, now);
  return heldElsewhere(w, s) ? null : w;
}

/**
 * The row's word: the tracker's when this process made the cancel (none once the record holds a settlement another
 * process recorded first: settled.ts), else the record's.
 */
export function rowFlight(
  tracked: TrackedCancel | undefined,
  rec: CancelRecord | undefined,
  s: SessionView,
  claude: ClaudeSessionView | undefined,
  now: number,
): FlightWord | null {
  const requestedMs = Math.max(tracked?.requestedMs ?? 0, rec?.requestedMs ?? 0);
  const modes = tracked && tracked.requestedMs >= (rec?.requestedMs ?? 0) ? tracked.modes : (rec?.modes ?? []);
  // A loop the cancel ended, started anew since (a later started_at): the row says what the disk says, as it does
  // once the cancel is settled (settled.ts), not the old run's "ended" or "cancel" over the new one.
  if (s.modes.some((m) => m.active && modes.includes(m.mode) && (m.startedMs ?? -Infinity) > requestedMs)) return null;
  if (tracked && tracked.requestedMs >= (rec?.requestedMs ?? 0)) {
    if (rec?.requestedMs === tracked.requestedMs && (rec.settled ?? null) !== null) return null;
    const w = trackedFlight(tracked, now);
    return heldElsewhere(w, s) ? null : w;
  }
  return recordedFlight(rec, s, claude, now);
}
