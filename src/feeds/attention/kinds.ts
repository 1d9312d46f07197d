/**
 * The table of transition kinds. Each kind turns one store snapshot into a
 * map of keyed facts; the engine (engine.ts) diffs two such maps. A fact's
 * `value` is what is compared (a change of value is a transition) and its
 * `needs` is the reason it needs the user, or null. New facts (the verdict
 * engine's enforced / not enforced, the process cell's busy / waiting / gone)
 * are one more entry in KINDS.
 */
import { SIGNAL_SOURCE } from '../../store/cancel/signal.js';
import type { TrackerSnapshot } from '../../store/cancel/tracker.js';
import type { SessionsSnapshot, SessionView } from '../../store/sessions/model.js';
import type { TeamsSnapshot } from '../../store/teams/model.js';
import type { Problem } from '../../store/types.js';

/** One consistent picture of the store: the same snapshots the screen shows. */
export interface AttentionInput {
  sessions: SessionsSnapshot;
  teams: TeamsSnapshot;
  cancels: TrackerSnapshot;
  problems: readonly Problem[];
}

export interface Fact {
  /** Compared between snapshots; a different value is a transition. */
  value: string;
  session: string | null;
  mode: string | null;
  team: string | null;
  worker: string | null;
  path: string | null;
  /** Why this fact needs the user (one short phrase), or null. */
  needs: string | null;
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
  perSession?(s: SessionView, ours: boolean): [string, Fact][];
  /** Why a fact's disappearance needs the user (e.g. an active loop's file removed), or null. */
  gone?(fact: Fact, oursNow: ReadonlySet<string>): string | null;
}

const base = (over: Partial<Fact> & { value: string }): Fact => ({
  session: null,
  mode: null,
  team: null,
  worker: null,
  path: null,
  needs: null,
  ...over,
});

export const sessionName = (s: SessionView) => (s.kind === 'legacy' ? 'legacy' : s.id);

/** Sessions omc-top itself cancelled: their removals are not news (the tracker's verdict is). */
export function sessionsCancelledByUs(input: AttentionInput): Set<string> {
  const out = new Set([...input.cancels.entries.keys()].map((k) => (k === ':legacy' ? 'legacy' : k)));
  // The signal is written before any file is removed, so a removal the watcher reports before the
  // tracker has the cancel is still known to be ours by the signal's source.
  for (const s of input.sessions.sessions) {
    if (signalIsOurs(s)) out.add(sessionName(s));
  }
  return out;
}

/** Does this session's cancel signal say omc-top wrote it? (The per-session half of sessionsCancelledByUs.) */
export const signalIsOurs = (s: SessionView): boolean =>
  s.cancel?.inForce === true && s.cancel.source === SIGNAL_SOURCE;

/** A session kind: `collect` is `perSession` over every session, so both paths give the same facts. */
function sessionKind(
  kind: string,
  readsCancels: boolean,
  perSession: (s: SessionView, ours: boolean) => [string, Fact][],
  gone?: TransitionKind['gone'],
): TransitionKind {
  return {
    kind,
    reads: readsCancels ? ['sessions', 'cancels'] : ['sessions'],
    perSession,
    collect(input) {
      const out = new Map<string, Fact>();
      const ours = readsCancels ? sessionsCancelledByUs(input) : new Set<string>();
      for (const s of input.sessions.sessions)
        for (const [k, f] of perSession(s, ours.has(sessionName(s)))) out.set(k, f);
      return out;
    },
    ...(gone ? { gone } : {}),
  };
}

const maxReached = (iteration: number | null, max: number | null) =>
  iteration !== null && max !== null && max > 0 && iteration >= max;

export const KINDS: readonly TransitionKind[] = [
  sessionKind('session', false, (s) => {
    const id = sessionName(s);
    return [[id, base({ value: s.ended ? 'ended' : 'present', session: id, path: s.dir })]];
  }),
  sessionKind(
    'mode',
    true,
    (s, ours) => {
      const id = sessionName(s);
      return s.modes.map((m): [string, Fact] => [
        `${id}/${m.mode}`,
        base({
          value: m.active ? 'active' : 'inactive',
          session: id,
          mode: m.mode,
          path: m.path,
          needs: m.status === 'finished' && !ours ? 'loop finished' : null,
          iteration: m.iteration,
          max: m.max,
        }),
      ]);
    },
    (fact, oursNow) =>
      fact.value === 'active' && fact.session !== null && !oursNow.has(fact.session) ? 'loop stopped' : null,
  ),
  // The verdict engine's word: a loop the Stop hook no longer enforces will stop at the next Stop.
  sessionKind('mode-status', false, (s) => {
    const id = sessionName(s);
    return s.modes.map((m): [string, Fact] => {
      // A loop at its max is the iteration kind's news ("max iterations reached"): said once, not twice.
      const atMax = m.max !== null && m.iteration !== null && m.iteration >= m.max;
      const needs = m.status === 'not-enforced' && m.active && !atMax ? 'loop will stop' : null;
      return [`${id}/${m.mode}`, base({ value: m.status, session: id, mode: m.mode, path: m.path, needs })];
    });
  }),
  sessionKind('iteration', true, (s, ours) => {
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
          needs: maxReached(m.iteration, m.max) && !ours ? 'max iterations reached' : null,
        }),
      ]);
    }
    return out;
  }),
  sessionKind('cancel-signal', false, (s) => {
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
  {
    // The verdict on a cancel omc-top made: the one change of its own that is news.
    kind: 'cancel-verdict',
    reads: ['cancels'],
    collect(input) {
      const out = new Map<string, Fact>();
      for (const [key, e] of input.cancels.entries) {
        const session = key === ':legacy' ? 'legacy' : key;
        const needs =
          e.phase === 'cancelled'
            ? 'loop cancelled'
            : e.phase === 'not-taken'
              ? 'cancel did not take'
              : e.phase === 'pause-over'
                ? 'pause over'
                : null;
        out.set(key, base({ value: e.phase, session, mode: e.modes.join(',') || null, needs }));
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
        const stalled = t.stalled;
        const needs = t.phase === 'failed' ? 'team failed' : stalled ? 'stalled: no live worker' : null;
        out.set(
          t.key,
          base({
            value: stalled ? 'stalled' : t.phase,
            session: t.owner?.sessionId ?? null,
            team: t.name,
            path: t.dir,
            needs,
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
        for (const w of t.workers) {
          const dead = w.pidAlive === false && w.state !== 'done' && t.phase !== 'completed';
          out.set(
            `${t.key}/${w.name}`,
            base({
              value: dead ? 'dead' : w.state,
              session: t.owner?.sessionId ?? null,
              team: t.name,
              worker: w.name,
              path: t.dir,
              needs: dead ? 'dead worker' : null,
            }),
          );
        }
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
          base({
            value: p.severity,
            path: p.path,
            // Every file omc-top reports on is one OMC reads; one it cannot parse (even while omc-top
            // shows the last good value: a warning) is invisible to OMC's hooks. Info lines are not news.
            needs: p.severity === 'info' ? null : `problem: ${p.message}`,
          }),
        );
      }
      return out;
    },
  },
];
