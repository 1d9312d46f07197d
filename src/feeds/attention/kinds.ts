/**
 * The table of transition kinds. Each kind turns one store snapshot into a
 * map of keyed facts; the engine (engine.ts) diffs two such maps. A fact's
 * `value` is what is compared (a change of value is a transition); its
 * `need` is the condition that needs the user while the fact holds (needs.ts),
 * and its `news` what is worth telling when the fact newly appears (a loop
 * finished): news is never counted. New facts are one more entry in KINDS.
 */
import { SIGNAL_SOURCE } from '../../store/cancel/signal.js';
import type { TrackerSnapshot } from '../../store/cancel/tracker.js';
import type { CancelRecordsSnapshot } from '../../store/cancel/cancel-records.js';
import type { ClaudeSessionView, ClaudeSnapshot } from '../../store/claude/model.js';
import { askingProcess } from '../../store/claude/asker.js';
import { waitingProcess } from '../../store/claude/life.js';
import { sessionKey, type ModeView, type SessionsSnapshot, type SessionView } from '../../store/sessions/model.js';
import { HARD_MAX_NEWS, HARD_MAX_RULE, RALPH_EXTENDS_AT_MAX, RALPH_EXTENSION } from '../../store/verdict/types.js';
import type { TeamsSnapshot } from '../../store/teams/model.js';
import type { Problem } from '../../store/types.js';
import type { PermissionRequestView } from '../../store/permissions/model.js';
import type { GraphSnapshot } from '../../store/graph/model.js';
import type { PlanHold } from '../../store/cost/plan-hold.js';
import {
  agentNeeds,
  gateNeed,
  permissionNeed,
  recordNeed,
  teamNeeds,
  unreadableDirNeed,
  unreadableNeed,
  type NeedItem,
} from './needs.js';

/** One consistent picture of the store: the same snapshots the screen shows. */
export interface AttentionInput {
  sessions: SessionsSnapshot;
  teams: TeamsSnapshot;
  cancels: TrackerSnapshot;
  /** The cancels any omc-top made on this root (their record in omc-top's state directory). */
  cancelRecords: CancelRecordsSnapshot;
  problems: readonly Problem[];
  /** The Claude Code process behind each session (by session id). */
  claude: ClaudeSnapshot;
  /** Permission prompts the hook handed over, that omc-top can answer (absent: none read). */
  permissions?: readonly PermissionRequestView[];
  /** OMC graph runs and the human gates they wait on (absent: none read). */
  graph?: GraphSnapshot;
  /** The plan's rate limit and OMC's wait daemon (store/cost/plan-hold.ts); absent or null: nothing holds a loop. */
  planHold?: PlanHold | null;
}

export interface Fact {
  /** Compared between snapshots; a different value is a transition. */
  value: string;
  session: string | null;
  mode: string | null;
  team: string | null;
  worker: string | null;
  path: string | null;
  /** The condition that needs the user while this fact holds, or null. */
  need: NeedItem | null;
  /** `need`'s short phrase (the `needs` of `watch --json`), or null. */
  needs: string | null;
  /** What is worth telling when this fact newly appears (never counted), or null. */
  news: string | null;
  /** Extra numbers a script may want (iteration / max). */
  iteration?: number | null;
  max?: number | null;
}

export interface TransitionKind {
  kind: string;
  /** The parts of the input `collect` looks at: an unchanged part means the kind's facts are reused. */
  reads: readonly (keyof AttentionInput)[];
  collect(input: AttentionInput): Map<string, Fact>;
  /**
   * For kinds whose facts come one session at a time: that session's facts, given whether omc-top
   * cancelled it. `collect` is then every session's `perSession` in snapshot order, and the
   * attention monitor re-runs it only for the sessions that changed (incremental.ts).
   */
  perSession?(
    s: SessionView,
    ours: boolean,
    claude: ClaudeSessionView | undefined,
    hold: PlanHold | null,
  ): [string, Fact][];
  /** The news in a fact's disappearance (an active loop's file removed by someone else), or null. */
  gone?(fact: Fact, oursNow: ReadonlySet<string>): string | null;
  /** The news in a change of value that only the two facts together tell (a max raised by OMC), or null. */
  step?(old: Fact, fact: Fact): string | null;
}

const base = (over: Partial<Fact> & { value: string }): Fact => ({
  session: null,
  mode: null,
  team: null,
  worker: null,
  path: null,
  need: null,
  needs: null,
  news: null,
  ...over,
});

const withNeed = (need: NeedItem | null) => ({ need, needs: need?.reason ?? null });

/**
 * A session's key in the attention model: the sessions domain's own key, so the session-less state (LEGACY_KEY, a
 * key no session id can be) and a session directory named `legacy` are two sessions here too, as they are for the
 * cancel tracker and on the rows.
 */
export const sessionName = (s: SessionView) => sessionKey(s);

/** Sessions omc-top itself cancelled: their removals are not news (the tracker's verdict is). */
export function sessionsCancelledByUs(input: AttentionInput): Set<string> {
  const out = new Set(input.cancels.entries.keys());
  // The signal is written before any file is removed, so a removal the watcher reports before the
  // tracker has the cancel is still known to be ours by the signal's source.
  for (const s of input.sessions.sessions) {
    if (signalIsOurs(s)) out.add(sessionName(s));
  }
  return out;
}

/**
 * An omc-top cancel signal naming this mode sits in the session, in force or not: the loop's end is that cancel,
 * not a finish. The autopilot's own form is bound to the state it cancelled, so once the cancel set the state
 * inactive it no longer matches (not "in force"), and another omc-top announced the cancelled run as finished.
 * Read from the files alone (no clock), so the incremental and the full pass agree.
 */
/**
 * An omc-top signal naming this mode, written since the loop started: its end is that cancel, not a finish. A signal
 * older than the loop (a cancel of an earlier run, left on disk) says nothing of how this run ended.
 */
const endedByOurSignal = (s: SessionView, m: ModeView): boolean =>
  s.cancel !== null &&
  s.cancel.source === SIGNAL_SOURCE &&
  s.cancel.mode === m.mode &&
  (m.startedMs === null || s.cancel.requestedMs === null || s.cancel.requestedMs >= m.startedMs);

/** Does this session's cancel signal say omc-top wrote it? (The per-session half of sessionsCancelledByUs.) */
export const signalIsOurs = (s: SessionView): boolean =>
  s.cancel?.inForce === true && s.cancel.source === SIGNAL_SOURCE;

/** A session kind: `collect` is `perSession` over every session, so both paths give the same facts. */
function sessionKind(
  kind: string,
  reads: { cancels?: boolean; claude?: boolean },
  perSession: (
    s: SessionView,
    ours: boolean,
    claude: ClaudeSessionView | undefined,
    hold: PlanHold | null,
  ) => [string, Fact][],
  gone?: TransitionKind['gone'],
): TransitionKind {
  return {
    kind,
    reads: [
      'sessions',
      ...(reads.cancels ? (['cancels'] as const) : []),
      // The Claude process behind a session, and the plan's limit that may hold its loop.
      ...(reads.claude ? (['claude', 'planHold'] as const) : []),
    ],
    perSession,
    collect(input) {
      const out = new Map<string, Fact>();
      const ours = reads.cancels ? sessionsCancelledByUs(input) : new Set<string>();
      const by = input.claude.bySession;
      const hold = input.planHold ?? null;
      for (const s of input.sessions.sessions)
        for (const [k, f] of perSession(s, ours.has(sessionName(s)), by.get(s.id), hold)) out.set(k, f);
      return out;
    },
    ...(gone ? { gone } : {}),
  };
}

const maxReached = (iteration: number | null, max: number | null) =>
  iteration !== null && max !== null && max > 0 && iteration >= max;

/** The book judging the session (the verdict's, else the OMC found for it) extends ralph at its max: no end there. */
const extendsAtMax = (s: SessionView, m: ModeView): boolean =>
  m.mode === 'ralph' && RALPH_EXTENDS_AT_MAX.includes(s.verdict?.rules ?? s.omc?.rules ?? '');

/**
 * Reaching the max, in the words of the book that judges the session: an end under 4.4, an extension under 5.5 —
 * unless OMC's hard max is reached too, where its hook switches the loop off instead (the verdict's `hard-max`).
 */
const maxNews = (s: SessionView, m: ModeView): string | null =>
  !maxReached(m.iteration, m.max)
    ? null
    : m.verdict.rule === HARD_MAX_RULE
      ? HARD_MAX_NEWS
      : extendsAtMax(s, m)
        ? `max reached, OMC extends it (+${RALPH_EXTENSION})`
        : 'max iterations reached';

export const KINDS: readonly TransitionKind[] = [
  sessionKind('session', {}, (s) => {
    const id = sessionName(s);
    // Unreadable: a file or the directory its verdict depends on could not be read here (its loops are unknown).
    const value = s.status === 'unreadable' ? 'unreadable' : s.ended ? 'ended' : 'present';
    return [[id, base({ value, session: id, path: s.dir, ...withNeed(unreadableNeed(s)) })]];
  }),
  // Before the mode kinds: a cancel writes its signal before it removes a file, so when one picture holds both,
  // the signal's line (the cause) comes before the loop's removal.
  sessionKind('cancel-signal', {}, (s) => {
    if (!s.cancel) return [];
    const id = sessionName(s);
    return [
      [
        id,
        base({
          value: s.cancel.inForce ? 'in-force' : 'expired',
          session: id,
          mode: s.cancel.mode,
          path: s.cancel.path,
        }),
      ],
    ];
  }),
  sessionKind(
    'mode',
    { cancels: true },
    (s, ours) => {
      const id = sessionName(s);
      return s.modes.map((m): [string, Fact] => [
        `${id}/${m.mode}`,
        base({
          // A file omc-top cannot read: whether OMC's registry lists it is not known here.
          value: m.status === 'unreadable' ? 'unknown' : m.active ? 'active' : 'inactive',
          session: id,
          mode: m.mode,
          path: m.path,
          news: m.status === 'finished' && !ours && !endedByOurSignal(s, m) ? 'loop finished' : null,
          iteration: m.iteration,
          max: m.max,
        }),
      ]);
    },
    (fact, oursNow) =>
      fact.value === 'active' && fact.session !== null && !oursNow.has(fact.session) ? 'loop stopped' : null,
  ),
  // The verdict engine's word (enforced, not enforced, stale, …): a transition for scripts, neither news nor a need.
  sessionKind('mode-status', {}, (s) => {
    const id = sessionName(s);
    return s.modes.map((m): [string, Fact] => [
      `${id}/${m.mode}`,
      base({ value: m.status, session: id, mode: m.mode, path: m.path }),
    ]);
  }),
  sessionKind('iteration', { cancels: true }, (s, ours) => {
    const id = sessionName(s);
    const out: [string, Fact][] = [];
    for (const m of s.modes) {
      if (m.iteration === null) continue;
      out.push([
        `${id}/${m.mode}`,
        base({
          value: String(m.iteration),
          session: id,
          mode: m.mode,
          path: m.path,
          iteration: m.iteration,
          max: m.max,
          // A loop no longer active (finished, cancelled, stopped) reaches no max: its news is the mode's own.
          news: ours || !m.active ? null : maxNews(s, m),
        }),
      ]);
    }
    return out;
  }),
  // ralph's max under a book whose hook raises it at the max (5.5): the raise itself is news (the loop goes on).
  {
    ...sessionKind('max', { cancels: true }, (s) => {
      const id = sessionName(s);
      const out: [string, Fact][] = [];
      for (const m of s.modes) {
        if (m.max === null || !extendsAtMax(s, m)) continue;
        const fact = base({ value: String(m.max), session: id, mode: m.mode, path: m.path });
        out.push([`${id}/${m.mode}`, { ...fact, iteration: m.iteration, max: m.max }]);
      }
      return out;
    }),
    // The hook's raise: the max grows while the iteration stands at (or past) the old one. A user's edit of the
    // max below the iteration is not it.
    step: (old, fact) =>
      old.max != null && fact.max != null && fact.max > old.max && fact.iteration != null && fact.iteration >= old.max
        ? 'max extended by OMC'
        : null,
  },
  // The Claude Code process behind the session: waiting for you, an orphaned loop, idle while its loop waits.
  sessionKind('agent', { claude: true }, (s, _ours, c, hold) => {
    if (s.kind === 'legacy' || !c) return [];
    // One fact per session; the most pressing condition is its need (a waiting prompt before an idle loop).
    const need = agentNeeds(s, c, hold)[0] ?? null;
    const p = c.process;
    if (!p && !need) return [];
    const id = sessionName(s);
    // The session waits while any of its Claudes does (lifeOf's rule: another terminal's prompt counts).
    const value = p ? (waitingProcess(p) ? 'waiting' : p.status) : 'ended';
    return [[id, base({ value, session: id, mode: need?.mode ?? null, path: s.dir, ...withNeed(need) })]];
  }),
  {
    // The verdict on a cancel omc-top made. The user's own action is never news to them; a cancel that did
    // not take, while the loop still runs, needs them. The need comes from the record every omc-top reads and
    // the disk (recordNeed), never from this process's tracker alone, so every process counts it; the value is
    // the tracker's phase where this process follows the cancel, else "not-taken" while the need holds.
    kind: 'cancel-verdict',
    reads: ['cancels', 'cancelRecords', 'sessions'],
    collect(input) {
      const out = new Map<string, Fact>();
      const needs = new Map<string, NeedItem>();
      const records = input.cancelRecords.records;
      if (records.size > 0) {
        // One pass over the sessions, a set lookup each: the records are few, the sessions can be 10,000.
        for (const s of input.sessions.sessions) {
          const key = sessionName(s);
          const rec = records.get(key);
          const need = rec ? recordNeed(rec, s) : null;
          if (need) needs.set(key, need);
        }
      }
      for (const [key, e] of input.cancels.entries) {
        const need = e.pauseOnly ? null : (needs.get(key) ?? null);
        out.set(key, base({ value: e.phase, session: key, mode: e.modes.join(',') || null, ...withNeed(need) }));
      }
      for (const [key, need] of needs) {
        if (out.has(key)) continue;
        out.set(key, base({ value: 'not-taken', session: key, mode: need.mode, ...withNeed(need) }));
      }
      return out;
    },
  },
  {
    kind: 'team',
    reads: ['teams'],
    collect(input) {
      const out = new Map<string, Fact>();
      for (const t of input.teams.teams) {
        // The teams domain's rule (no live pid, every heartbeat past the threshold), as the Teams pane shows it.
        const need = teamNeeds(t).find((n) => n.worker === null) ?? null;
        out.set(
          t.key,
          base({
            value: t.stalled ? 'stalled' : t.unreadable?.length ? 'unreadable' : t.phase,
            session: t.owner?.sessionId ?? null,
            team: t.name,
            path: t.dir,
            ...withNeed(need),
          }),
        );
      }
      return out;
    },
  },
  {
    kind: 'worker',
    reads: ['teams'],
    collect(input) {
      const out = new Map<string, Fact>();
      for (const t of input.teams.teams) {
        // A stalled or failed team is one item (teamNeeds): its dead workers are not counted again.
        const needs = new Map(teamNeeds(t).map((n) => [n.worker, n]));
        for (const w of t.workers) {
          const dead = w.pidAlive === false && w.state !== 'done' && t.phase !== 'completed' && !w.unreadable;
          out.set(
            `${t.key}/${w.name}`,
            base({
              value: dead ? 'dead' : w.state,
              session: t.owner?.sessionId ?? null,
              team: t.name,
              worker: w.name,
              path: t.dir,
              ...withNeed(needs.get(w.name) ?? null),
            }),
          );
        }
      }
      return out;
    },
  },
  {
    // A permission prompt omc-top can answer, in a session whose own "waiting for you" does not count it already
    // (a Claude with no OMC loop has no session row): without this it shows only inside `!`, never in the count.
    kind: 'permission',
    reads: ['permissions', 'sessions', 'claude'],
    collect(input) {
      const out = new Map<string, Fact>();
      const requests = input.permissions ?? [];
      if (requests.length === 0) return out;
      const omc = new Map(input.sessions.sessions.filter((s) => s.kind !== 'legacy').map((s) => [s.id, s]));
      for (const r of requests) {
        const c = input.claude.bySession.get(r.sessionId);
        const s = omc.get(r.sessionId);
        if (s && agentNeeds(s, c).some((n) => n.kind === 'waiting')) continue;
        const asker = askingProcess(input.claude, r.sessionId, r.claudePid);
        out.set(r.id, base({ value: 'waiting', session: r.sessionId, ...withNeed(permissionNeed(r, asker)) }));
      }
      return out;
    },
  },
  {
    // An OMC graph run waiting on a human gate: a decision only a person can give (gateNeed says while when).
    kind: 'gate',
    reads: ['graph'],
    collect(input) {
      const out = new Map<string, Fact>();
      for (const run of input.graph?.runs ?? []) {
        for (const g of run.gates) {
          const need = gateNeed(g, run);
          const value = g.decided ? 'decided' : need ? 'waiting' : 'not-waited-on';
          out.set(`${g.runId}/${g.activationId}`, base({ value, path: g.pendingRel, ...withNeed(need) }));
        }
      }
      return out;
    },
  },
  {
    // A directory above the sessions omc-top may not list: its sessions are unknown (the session kind says the same
    // of one session's directory), and the user must act.
    kind: 'unreadable-dir',
    reads: ['sessions'],
    collect(input) {
      const out = new Map<string, Fact>();
      const dirs = input.sessions.unreadableDirs ?? [];
      for (const dir of dirs) {
        const why = input.sessions.problems.find((p) => p.path === dir)?.message ?? null;
        out.set(dir, base({ value: 'unreadable', path: dir, ...withNeed(unreadableDirNeed(dir, why)) }));
      }
      return out;
    },
  },
  {
    kind: 'problem',
    reads: ['problems'],
    collect(input) {
      const out = new Map<string, Fact>();
      for (const p of input.problems) {
        out.set(
          `${p.path}\u0000${p.message}`,
          // A file problem is a line of its own (the problem lines, the inbox's problems section), not counted.
          base({ value: p.severity, path: p.path }),
        );
      }
      return out;
    },
  },
];
