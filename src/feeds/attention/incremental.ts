/**
 * The attention facts kept up to date by what changed, for the live monitor.
 * `factsOf` + `diffFacts` (engine.ts) re-walk every session on every picture:
 * at 10,000 sessions that is ~50,000 facts per change. Here a session's facts
 * are recomputed only when its SessionView object is new (the sessions domain
 * keeps an unchanged session's view identical), when its Claude view is new
 * (the Claude domain keeps those identical too) or when whether omc-top
 * cancelled it flipped; every other kind is recollected only when its input
 * changed, as before. The result is the same facts and the same transitions
 * (in KINDS order; within a kind, changes before disappearances) as the full
 * recomputation: test/attention/incremental.property.test.ts checks it over
 * random change sequences.
 */
import type { ClaudeSessionView } from '../../store/claude/model.js';
import { deltaSince, type SessionView, type SessionsDelta, type SessionsSnapshot } from '../../store/sessions/model.js';
import { changeOf, type Facts, type Transition } from './engine.js';
import { walkFacts } from './fact-walk.js';
import { KINDS, sessionName, signalIsOurs, type AttentionInput, type Fact, type TransitionKind } from './kinds.js';
import { byAge, type NeedItem } from './needs.js';
import type { PlanHold } from '../../store/cost/plan-hold.js';

const SESSION_KINDS = KINDS.filter((k) => k.perSession !== undefined);
const OTHER_KINDS = KINDS.filter((k) => k.perSession === undefined);

/**
 * What is kept per session: its view and whether omc-top cancelled it. Its facts are a pure function of the two
 * (KINDS' perSession), so they are recomputed when needed (the session changed or went, or facts() is asked)
 * instead of being held: holding every fact of every session, twice indexed, was ~2 KB a session, the largest
 * share of omc-top's heap at 10,000 sessions.
 */
interface SessionEntry {
  view: SessionView;
  ours: boolean;
  claude: ClaudeSessionView | undefined;
  /** The plan's hold as of this entry's facts (the same object for every session: the input's). */
  hold: PlanHold | null;
  seen: number;
}

const perSessionOf = (k: TransitionKind) => k.perSession as NonNullable<TransitionKind['perSession']>;
/** One session's facts, one list per SESSION_KINDS entry. */
const sessionFacts = (e: Pick<SessionEntry, 'view' | 'ours' | 'claude' | 'hold'>): [string, Fact][][] =>
  SESSION_KINDS.map((k) => perSessionOf(k)(e.view, e.ours, e.claude, e.hold));

interface KindChanges {
  changed: Transition[];
  gone: Transition[];
}

const needKey = (kind: string, key: string) => `${kind}\u0000${key}`;

export class IncrementalFacts {
  /** The facts of the kinds that are not per session (teams, problems, …); session kinds live in `sessions`. */
  private readonly byKind = new Map<string, Map<string, Fact>>(OTHER_KINDS.map((k) => [k.kind, new Map()]));
  private readonly sessions = new Map<string, SessionEntry>();
  /** Sessions whose entry has a Claude view: a Claude-only change looks at these and the new views, not at all. */
  private readonly withClaude = new Set<string>();
  /** Sessions whose in-force cancel signal names omc-top as its writer. */
  private readonly signalOurs = new Set<string>();
  private ours: ReadonlySet<string> = new Set();
  private readonly needs = new Map<string, NeedItem>();
  private needList: NeedItem[] | null = [];
  private last: AttentionInput | null = null;
  private generation = 0;
  /** The sessions snapshot the facts were last brought up to (its delta says what changed since). */
  private sessionsSeen: SessionsSnapshot | null = null;

  /**
   * The current facts, in KINDS order (the session kinds rebuilt from the sessions kept: this is for
   * `watch --snapshot` and tests, not for every change). Read them at once, do not keep them across updates.
   */
  facts(): Facts {
    const session = SESSION_KINDS.map(() => new Map<string, Fact>());
    for (const e of this.sessions.values())
      sessionFacts(e).forEach((list, i) => {
        for (const [key, fact] of list) session[i]?.set(key, fact);
      });
    const byKind = new Map<string, Map<string, Fact>>();
    for (const k of KINDS) {
      const i = SESSION_KINDS.indexOf(k);
      byKind.set(k.kind, i === -1 ? (this.byKind.get(k.kind) as Map<string, Fact>) : (session[i] as Map<string, Fact>));
    }
    return { byKind, ours: this.ours };
  }

  /** Every condition that needs the user now (acknowledged or not), oldest first. */
  needsYou(): readonly NeedItem[] {
    this.needList ??= [...this.needs.values()].sort(byAge);
    return this.needList;
  }

  needCount(): number {
    return this.needs.size;
  }

  /**
   * Applies a new picture; returns its transitions from the previous one. `baseline`: the picture is only the
   * starting point (the monitor's first settled one, whose transitions are never news): its facts and needs are
   * kept as always, and no transition is built for any of them (one per fact at 2,000 sessions, just before
   * `live`, all dropped).
   */
  update(input: AttentionInput, baseline = false): Transition[] {
    this.quiet = baseline;
    try {
      return this.apply(input);
    } finally {
      this.quiet = false;
    }
  }

  /** Set during a baseline update: setFact and dropFact keep facts and needs but build no transitions. */
  private quiet = false;

  private apply(input: AttentionInput): Transition[] {
    const last = this.last;
    this.last = input;
    const changes = new Map<string, KindChanges>(KINDS.map((k) => [k.kind, { changed: [], gone: [] }]));
    if (!last || last.sessions !== input.sessions || last.cancels !== input.cancels)
      this.updateSessions(input, changes);
    else if (last.claude !== input.claude) this.updateClaude(input, changes);
    // The plan's limit began or ended, or the wait daemon listed other panes: the sessions with a Claude (few).
    if (last && (last.planHold ?? null) !== (input.planHold ?? null)) this.updateHold(input, changes);
    for (const k of OTHER_KINDS) {
      if (last && k.reads.every((r) => last[r] === input[r])) continue;
      this.replaceKind(k, k.collect(input), changes.get(k.kind) as KindChanges);
    }
    const out: Transition[] = [];
    for (const k of KINDS) {
      const c = changes.get(k.kind) as KindChanges;
      out.push(...c.changed, ...c.gone);
    }
    return out;
  }

  private updateSessions(input: AttentionInput, changes: Map<string, KindChanges>): void {
    const gen = ++this.generation;
    const claude = input.claude.bySession;
    // The sessions snapshot says what changed since the one seen here: a change costs that change, not a pass
    // over every session. Without a delta (a missed picture, the first one), the pass.
    const delta = deltaSince(this.sessionsSeen, input.sessions);
    this.sessionsSeen = input.sessions;
    const { changedViews, removed } = delta
      ? this.changedByDelta(delta, claude)
      : this.changedByPass(input.sessions.sessions, claude, gen);
    // Indexed loops and forEach over the per-session collections: see "Cold loops" in docs/ARCHITECTURE.md.
    for (let i = 0; i < changedViews.length; i++) {
      const s = changedViews[i]!;
      const id = sessionName(s);
      if (signalIsOurs(s)) this.signalOurs.add(id);
      else this.signalOurs.delete(id);
    }
    for (const id of removed) this.signalOurs.delete(id);

    const oldOurs = this.ours;
    const ours = new Set(input.cancels.entries.keys());
    for (const id of this.signalOurs) ours.add(id);
    this.ours = ours;

    // Removals first: their facts go, judged by the new `ours`.
    for (const id of removed) {
      const e = this.sessions.get(id) as SessionEntry;
      this.sessions.delete(id);
      this.withClaude.delete(id);
      const before = sessionFacts(e);
      SESSION_KINDS.forEach((k, i) => this.applySession(k, before[i] ?? [], [], changes.get(k.kind) as KindChanges));
    }
    const redo = new Map<string, SessionView>();
    for (let i = 0; i < changedViews.length; i++) redo.set(sessionName(changedViews[i]!), changedViews[i]!);
    // A session whose "cancelled by omc-top" flipped re-derives its needs, view unchanged or not.
    for (const id of ours)
      if (!oldOurs.has(id) && this.sessions.has(id) && !redo.has(id)) redo.set(id, this.sessions.get(id)!.view);
    for (const id of oldOurs)
      if (!ours.has(id) && this.sessions.has(id) && !redo.has(id)) redo.set(id, this.sessions.get(id)!.view);
    redo.forEach((s, id) =>
      this.resetSession(
        id,
        { view: s, ours: ours.has(id), claude: claude.get(s.id), hold: input.planHold ?? null, seen: gen },
        changes,
      ),
    );
  }

  /** The sessions the delta names, and those whose Claude view moved (sessions with one now or before). */
  private changedByDelta(
    delta: SessionsDelta,
    claude: ReadonlyMap<string, ClaudeSessionView>,
  ): { changedViews: SessionView[]; removed: string[] } {
    const changedViews: SessionView[] = [];
    const ids = new Set<string>();
    for (const s of delta.changed) {
      const id = sessionName(s);
      ids.add(id);
      const e = this.sessions.get(id);
      if (e?.view !== s || e.claude !== claude.get(s.id)) changedViews.push(s);
    }
    const removed: string[] = [];
    for (const s of delta.removed) {
      const id = sessionName(s);
      if (!ids.has(id) && this.sessions.has(id)) removed.push(id);
    }
    const gone = new Set(removed);
    const withClaude = new Set(this.withClaude);
    for (const sid of claude.keys()) if (this.sessions.has(sid)) withClaude.add(sid);
    for (const id of withClaude) {
      const e = this.sessions.get(id);
      if (!e || ids.has(id) || gone.has(id) || e.claude === claude.get(e.view.id)) continue;
      changedViews.push(e.view);
    }
    return { changedViews, removed };
  }

  /** Every session, compared with what was seen: new or changed views (or Claude views), and the ones gone. */
  private changedByPass(
    sessions: readonly SessionView[],
    claude: ReadonlyMap<string, ClaudeSessionView>,
    gen: number,
  ): { changedViews: SessionView[]; removed: string[] } {
    const changedViews: SessionView[] = [];
    let seen = 0;
    for (const s of sessions) {
      const id = sessionName(s);
      const e = this.sessions.get(id);
      seen += 1;
      if (e) e.seen = gen;
      if (e?.view === s && e.claude === claude.get(s.id)) continue;
      changedViews.push(s);
    }
    const removed: string[] = [];
    // Every listed session is in the map once its facts are set below, so only a size mismatch means removals.
    if (this.sessions.size + changedViews.filter((s) => !this.sessions.has(sessionName(s))).length !== seen) {
      for (const [id, e] of this.sessions) if (e.seen !== gen) removed.push(id);
    }
    return { changedViews, removed };
  }

  /** Only the Claude views changed: the sessions that have one now or had one before. */
  private updateClaude(input: AttentionInput, changes: Map<string, KindChanges>): void {
    const claude = input.claude.bySession;
    const ids = new Set(this.withClaude);
    for (const sid of claude.keys()) if (this.sessions.has(sid)) ids.add(sid);
    for (const id of ids) {
      const e = this.sessions.get(id);
      if (!e || e.claude === claude.get(e.view.id)) continue;
      this.resetSession(id, { ...e, claude: claude.get(e.view.id), hold: input.planHold ?? null }, changes);
    }
  }

  /** Only the plan's hold changed (or also it): the sessions with a Claude that were judged by another. */
  private updateHold(input: AttentionInput, changes: Map<string, KindChanges>): void {
    const hold = input.planHold ?? null;
    for (const id of [...this.withClaude]) {
      const e = this.sessions.get(id);
      if (!e || e.hold === hold) continue;
      this.resetSession(id, { ...e, hold }, changes);
    }
  }

  /** Replaces a session's entry, with the transitions from its old facts to its new ones. */
  private resetSession(id: string, next: SessionEntry, changes: Map<string, KindChanges>): void {
    const prev = this.sessions.get(id);
    const before = prev ? sessionFacts(prev) : null;
    const after = sessionFacts(next);
    SESSION_KINDS.forEach((k, i) =>
      this.applySession(k, before?.[i] ?? [], after[i] ?? [], changes.get(k.kind) as KindChanges),
    );
    this.sessions.set(id, next);
    if (next.claude) this.withClaude.add(id);
    else this.withClaude.delete(id);
  }

  /** One session's facts of one kind, from `before` to `after`: the same rule as diffFacts. */
  private applySession(k: TransitionKind, before: [string, Fact][], after: [string, Fact][], c: KindChanges): void {
    walkFacts(before, after, this, k, c);
  }

  private replaceKind(k: TransitionKind, next: Map<string, Fact>, c: KindChanges): void {
    const map = this.byKind.get(k.kind) as Map<string, Fact>;
    for (const [key, fact] of next) {
      const old = map.get(key);
      map.set(key, fact);
      this.setFact(k, key, old, fact, c);
    }
    for (const [key, fact] of [...map]) {
      if (next.has(key)) continue;
      map.delete(key);
      this.dropFact(k, key, fact, c);
    }
  }

  /**
   * `fact` replaces `old` (undefined: new) under `key`: a transition when its value or its need changed. Public with
   * dropFact for walkFacts (fact-walk.ts), which calls them back without a closure made per walk.
   */
  setFact(k: TransitionKind, key: string, old: Fact | undefined, fact: Fact, c: KindChanges): void {
    this.setNeed(k.kind, key, fact);
    if (this.quiet) return;
    const t = changeOf(k.kind, key, old, fact, k.step);
    if (t) c.changed.push(t);
  }

  dropFact(k: TransitionKind, key: string, fact: Fact, c: KindChanges): void {
    this.setNeed(k.kind, key, null);
    if (this.quiet) return;
    c.gone.push({
      kind: k.kind,
      key,
      from: fact.value,
      to: null,
      fact,
      needs: null,
      news: k.gone?.(fact, this.ours) ?? null,
    });
  }

  private setNeed(kind: string, key: string, fact: Fact | null): void {
    const nk = needKey(kind, key);
    const had = this.needs.get(nk);
    if (fact?.need) {
      if (had === fact.need || had?.id === fact.need.id) {
        if (had !== fact.need) this.needs.set(nk, fact.need); // same occurrence, fresher words (the pending call)
        if (had !== fact.need) this.needList = null;
        return;
      }
      this.needs.set(nk, fact.need);
      this.needList = null;
    } else if (had) {
      this.needs.delete(nk);
      this.needList = null;
    }
  }
}
