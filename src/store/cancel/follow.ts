/**
 * Every cancel recorded on this root settles, whoever made it. A cancel's record (cancel-records.ts) is settled by the
 * process that followed it: a monitor's tracker (tracker.ts). A cancel nobody follows (`omc-top cancel` without
 * `--wait`, a monitor that quit before its window ended) would otherwise never get a settled word: so every live,
 * writing omc-top on the root (the monitor, `watch --json`, `serve`, the fleet's projects) follows each unsettled
 * record it did not make, from the disk and the session's Claude process as it sees them itself, and records the
 * settlement under the record's lock; the first to settle wins (CancelRecordFile.settle), and every process says
 * that word (settled.ts).
 *
 * A ✓ is a stop this process saw while it followed the cancel in flight. A record first seen already past its
 * flight (its word in flight is over: the window ended, or Claude's stop is already on disk) was followed by nobody
 * here: it settles as what the disk says, `not taken` when a mode it ended is active, else `ended`, dated when its
 * flight ended by the disk; never `stopped` or `cancelled`, which say what was seen.
 *
 * The process that made a cancel and follows it (the record's `followedBy`) settles it itself while it runs: the
 * others follow it too, but write only once that process is gone.
 *
 * At rest (no unsettled record) it holds no timer and follows only the record file; while a record is in flight it
 * follows the sessions and the Claude processes, and holds one timer, at the nearest window's end (or a few seconds
 * on, while a settled cancel waits for its maker to record it).
 */
import type { Clock, Subscribable } from '../types.js';
import { sessionKey, type SessionView, type SessionsSnapshot } from '../sessions/model.js';
import type { CancelFollower, CancelRecord, CancelRecordsSnapshot, CancelSettlement } from './cancel-records.js';
import { runningStartIdentity } from '../../io/process-start.js';
import { isLive } from '../permissions/liveness.js';
import { flightWord } from './in-flight.js';
import { claudeAtSignal, followClaude, inTurn, type AgentView, type AgentWatch, type ClaudeSide } from './tracker.js';

const NO_AGENT: AgentView = { status: 'none', pid: null, sinceMs: null, lastTurnEndMs: null };

/** A record as this process follows it: what it saw of Claude since it first looked. */
export interface Followed {
  /** Whether this process saw the cancel in flight (then a stop it sees is its own observation). */
  sawInFlight: boolean;
  claude: ClaudeSide;
}

/**
 * A mode the cancel ended is active on disk, the same run (the same reading as the word in flight, in-flight.ts): a
 * loop started after the cancel is a new one (the tracker and the attention engine read it so too), not "not taken".
 */
const loopActiveOf = (rec: CancelRecord, s: SessionView | undefined) =>
  (s?.modes ?? []).some((m) => m.active && rec.modes.includes(m.mode) && (m.startedMs ?? -Infinity) <= rec.requestedMs);

/**
 * One look at a recorded cancel: what this process follows of it now, and its settlement once its flight is over
 * (null while in flight). `was`: what it followed before (undefined at the first look).
 */
export function followRecord(
  rec: CancelRecord,
  s: SessionView | undefined,
  agent: AgentView,
  was: Followed | undefined,
  now: number,
  byPid: number,
): { followed: Followed; settled: CancelSettlement | null } {
  const claude = was ? followClaude(was.claude, agent, rec.requestedMs) : claudeAtSignal(agent, rec.requestedMs);
  const loopActive = loopActiveOf(rec, s);
  const flying = flightWord({ requestedMs: rec.requestedMs, expiresMs: rec.expiresMs, loopActive, claude }, now);
  const stop = claude.stoppedMs !== null && claude.seen !== null ? claude : null;
  // A stop while a mode it ended is active again inside the window: the window decides, as the tracker waits.
  const open = flying !== null || (stop !== null && loopActive && now < rec.expiresMs);
  const followed = { sawInFlight: (was?.sawInFlight ?? false) || open, claude };
  if (open) return { followed, settled: null };
  const at = (word: CancelSettlement['word'], atMs: number): CancelSettlement => ({
    word,
    atMs: Math.max(rec.requestedMs, atMs),
    stoppedMs: null,
    seen: null,
    byPid,
  });
  // Nobody here saw it in flight: what the disk says, dated when its flight ended there (never later than now).
  if (!followed.sawInFlight)
    return {
      followed,
      settled: at(loopActive ? 'not-taken' : 'ended', Math.min(now, Math.max(rec.expiresMs, stop?.stoppedMs ?? 0))),
    };
  if (stop && !loopActive)
    return { followed, settled: { ...at('stopped', now), stoppedMs: stop.stoppedMs, seen: stop.seen } };
  if (loopActive) return { followed, settled: at('not-taken', now) };
  // Not in a turn at the cancel (idle, exited, gone): nothing was running to stop. Else its stop was not observed.
  const seen = claude.atCancel !== 'none' && claude.atCancel !== 'unknown' && claude.turnUnsure !== true;
  return { followed, settled: at(seen && !inTurn(claude.atCancel) ? 'cancelled' : 'ended', now) };
}

export interface RecordFollowerOptions {
  records: Subscribable<CancelRecordsSnapshot> & {
    settle(key: string, requestedMs: number, settled: CancelSettlement): Promise<string | null>;
  };
  sessions: Subscribable<SessionsSnapshot>;
  agent: AgentWatch;
  /** Whether this process's own tracker follows that cancel (it records its own verdict). */
  ownCancel(key: string, requestedMs: number): boolean;
  clock: Clock;
  pid?: number;
  /** Whether the process that follows a cancel still runs (default: its pid and start identity). */
  runs?: (f: CancelFollower) => boolean;
}

const stillRuns = (f: CancelFollower) => isLive(runningStartIdentity, f.pid, f.start);

/**
 * How long a settled cancel is left to the process that made it, while it runs, before this one looks again (its
 * maker settles at once; one that quit or hangs leaves it to the others).
 */
const MAKER_GRACE_MS = 10_000;

const idOf = (r: Pick<CancelRecord, 'key' | 'requestedMs'>) => `${r.key}@${r.requestedMs}`;

export class RecordFollower {
  private readonly followed = new Map<string, Followed>();
  private readonly settling = new Set<string>();
  private stopRecords: (() => void) | null = null;
  private stopInputs: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private queued = false;

  constructor(private readonly o: RecordFollowerOptions) {}

  start(): void {
    if (this.stopRecords) return;
    this.stopRecords = this.o.records.subscribe(this.schedule);
    this.evaluate();
  }

  dispose(): void {
    this.stopRecords?.();
    this.stopRecords = null;
    this.follow(false);
    this.arm(Infinity, 0);
    this.followed.clear();
  }

  /** Coalesces a burst of changes into one look (a cell's listeners run once per macrotask already). */
  private readonly schedule = (): void => {
    if (this.queued || !this.stopRecords) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      if (this.stopRecords) this.evaluate();
    });
  };

  /** One look at every unsettled record this process did not make. Also after a jump of the wall clock. */
  evaluate(): void {
    if (!this.stopRecords) return;
    const now = this.o.clock();
    const pending = [...this.o.records.getSnapshot().records.values()].filter(
      (r) =>
        (r.settled ?? null) === null &&
        (r.failed ?? null) === null &&
        !this.settling.has(idOf(r)) &&
        !this.o.ownCancel(r.key, r.requestedMs),
    );
    const ids = new Set(pending.map(idOf));
    for (const id of this.followed.keys()) if (!ids.has(id)) this.followed.delete(id);
    const views = pending.length === 0 ? new Map<string, SessionView>() : this.viewsOf(pending);
    let nextEnd = Infinity;
    let makerDue = false;
    for (const rec of pending) {
      const s = views.get(rec.key);
      const agent = s?.kind === 'legacy' ? NO_AGENT : (this.o.agent.view(rec.key) ?? NO_AGENT);
      const id = idOf(rec);
      const r = followRecord(rec, s, agent, this.followed.get(id), now, this.o.pid ?? process.pid);
      // The process that made it follows it to its end while it runs: its verdict is the one recorded.
      const maker = rec.followedBy ?? null;
      if (r.settled && (maker === null || !(this.o.runs ?? stillRuns)(maker))) {
        this.followed.delete(id);
        this.record(rec, r.settled);
        continue;
      }
      this.followed.set(id, r.followed);
      if (rec.expiresMs > now) nextEnd = Math.min(nextEnd, rec.expiresMs);
      else if (r.settled) makerDue = true;
    }
    this.follow(this.followed.size > 0);
    // Settled but left to its maker, which still runs: looked at again after a while, in case it ends first.
    this.arm(makerDue ? Math.min(nextEnd, now + MAKER_GRACE_MS) : nextEnd, now);
  }

  private viewsOf(records: readonly CancelRecord[]): Map<string, SessionView> {
    const keys = new Set(records.map((r) => r.key));
    const out = new Map<string, SessionView>();
    for (const s of this.o.sessions.getSnapshot().sessions) if (keys.has(sessionKey(s))) out.set(sessionKey(s), s);
    return out;
  }

  private record(rec: CancelRecord, settled: CancelSettlement): void {
    const id = idOf(rec);
    this.settling.add(id);
    // Not written: the record file's problem line says so; this process says the word from its own copy meanwhile.
    void this.o.records.settle(rec.key, rec.requestedMs, settled).finally(() => this.settling.delete(id));
  }

  /** The sessions and the Claude processes are followed only while a record is in flight. */
  private follow(on: boolean): void {
    if (on && this.stopInputs.length === 0)
      this.stopInputs = [this.o.sessions.subscribe(this.schedule), this.o.agent.subscribe(this.schedule)];
    if (!on) {
      for (const stop of this.stopInputs) stop();
      this.stopInputs = [];
    }
  }

  /** One timer, at the nearest window's end (Claude's stop and the disk's changes come by subscription). */
  private arm(at: number, now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (at === Infinity || !this.stopRecords) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.evaluate();
      },
      Math.min(Math.max(0, at - now) + 5, 2 ** 31 - 1),
    );
    this.timer.unref?.();
  }
}
