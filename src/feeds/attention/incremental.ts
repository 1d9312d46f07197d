/**
 * The attention facts kept up to date by what changed, for the live monitor.
 * `factsOf` + `diffFacts` (engine.ts) re-walk every session on every picture:
 * at 10,000 sessions that is ~50,000 facts per change. Here a session's facts
 * are recomputed only when its SessionView object is new (the sessions domain
 * keeps an unchanged session's view identical) or when whether omc-top
 * cancelled it flipped; every other kind is recollected only when its input
 * changed, as before. The result is the same facts and the same transitions
 * (in KINDS order; within a kind, changes before disappearances) as the full
 * recomputation: test/attention/incremental.property.test.ts checks it over
 * random change sequences.
 */
import { deltaSince, type SessionView, type SessionsSnapshot } from '../../store/sessions/model.js';
import type { Facts, NeedItem, Transition } from './engine.js';
import { KINDS, sessionName, signalIsOurs, type AttentionInput, type Fact, type TransitionKind } from './kinds.js';

const SESSION_KINDS = KINDS.filter((k) => k.perSession !== undefined);
const OTHER_KINDS = KINDS.filter((k) => k.perSession === undefined);
const KIND_ORDER = new Map(KINDS.map((k, i) => [k.kind, i]));

/**
 * What is kept per session: its view and whether omc-top cancelled it. Its facts are a pure function of the two
 * (KINDS' perSession), so they are recomputed when needed (the session changed or went, or facts() is asked)
 * instead of being held: holding every fact of every session, twice indexed, was ~2 KB a session, the largest
 * share of omc-top's heap at 10,000 sessions.
 */
interface SessionEntry {
  view: SessionView;
  ours: boolean;
  seen: number;
}

const perSessionOf = (k: TransitionKind) => k.perSession as NonNullable<TransitionKind['perSession']>;
/** One session's facts, one list per SESSION_KINDS entry. */
const sessionFacts = (view: SessionView, ours: boolean): [string, Fact][][] =>
  SESSION_KINDS.map((k) => perSessionOf(k)(view, ours));

interface KindChanges {
  changed: Transition[];
  gone: Transition[];
}

const needKey = (kind: string, key: string) => `${kind}\u0000${key}`;
/** The needs' order: by kind (KINDS order); within a kind, as they came (the sort is stable). */
const needOrder = (a: NeedItem, b: NeedItem) => (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0);

export class IncrementalFacts {
  /** The facts of the kinds that are not per session (teams, problems, …); session kinds live in `sessions`. */
  private readonly byKind = new Map<string, Map<string, Fact>>(OTHER_KINDS.map((k) => [k.kind, new Map()]));
  private readonly sessions = new Map<string, SessionEntry>();
  /** Sessions whose in-force cancel signal names omc-top as its writer. */
  private readonly signalOurs = new Set<string>();
  private ours: ReadonlySet<string> = new Set();
  private readonly needs = new Map<string, NeedItem>();
  private needList: NeedItem[] | null = [];
  private last: AttentionInput | null = null;
  /** The sessions snapshot the entries were last brought up to date with (its delta applies to the next). */
  private sessionsSeen: SessionsSnapshot | null = null;
  private generation = 0;

  /**
   * The current facts, in KINDS order (the session kinds rebuilt from the sessions kept: this is for
   * `watch --snapshot` and tests, not for every change). Read them at once, do not keep them across updates.
   */
  facts(): Facts {
    const session = SESSION_KINDS.map(() => new Map<string, Fact>());
    for (const e of this.sessions.values())
      sessionFacts(e.view, e.ours).forEach((list, i) => {
        for (const [key, fact] of list) session[i]?.set(key, fact);
      });
    const byKind = new Map<string, Map<string, Fact>>();
    for (const k of KINDS) {
      const i = SESSION_KINDS.indexOf(k);
      byKind.set(k.kind, i === -1 ? (this.byKind.get(k.kind) as Map<string, Fact>) : (session[i] as Map<string, Fact>));
    }
    return { byKind, ours: this.ours };
  }

  /** The facts that need the user, in KINDS order. */
  needsYou(): readonly NeedItem[] {
    this.needList ??= [...this.needs.values()].sort(needOrder);
    this.needListOwned = false;
    this.needEdits = 0;
    return this.needList;
  }

  needCount(): number {
    return this.needs.size;
  }

  /**
   * `needList` kept in order as needs come, change and go, instead of sorted again: thousands can need the user
   * (every loop that will stop), and a stale-line crossing or a loop writing at its max is one need. A list
   * handed out by needsYou() is never changed: the first edit after copies it (a memcpy), later ones edit the
   * copy. Past a few dozen edits, sorting once is cheaper.
   */
  private needListOwned = false;
  private needEdits = 0;

  private editNeeds(): NeedItem[] | null {
    if (!this.needList || ++this.needEdits > 64) {
      this.needList = null;
      return null;
    }
    if (!this.needListOwned) {
      this.needList = this.needList.slice();
      this.needListOwned = true;
    }
    return this.needList as NeedItem[];
  }

  /** A new need goes last among its equals (a map puts a new key last, the sort is stable). */
  private insertNeed(item: NeedItem): void {
    const list = this.editNeeds();
    if (!list) return;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (needOrder(list[mid] as NeedItem, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, item);
  }

  /** `had` replaced by `item` in its place, or taken out (`item` null). */
  private replaceNeed(had: NeedItem, item: NeedItem | null): void {
    const list = this.editNeeds();
    if (!list) return;
    const at = list.indexOf(had);
    if (at === -1) this.needList = null;
    else if (item) list[at] = item;
    else list.splice(at, 1);
  }

  /** Applies a new picture; returns its transitions from the previous one. */
  update(input: AttentionInput): Transition[] {
    const last = this.last;
    this.last = input;
    const changes = new Map<string, KindChanges>(KINDS.map((k) => [k.kind, { changed: [], gone: [] }]));
    if (!last || last.sessions !== input.sessions || last.cancels !== input.cancels)
      this.updateSessions(input, changes);
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
    // The sessions snapshot says what changed since the one we saw: a change costs that change, not a pass over
    // every session (`seen` is only kept up to date by the pass, and only the pass reads it).
    const delta = deltaSince(this.sessionsSeen, input.sessions);
    this.sessionsSeen = input.sessions;
    const changedViews: SessionView[] = [];
    const removed: string[] = [];
    if (delta) {
      for (const s of delta.changed) if (this.sessions.get(sessionName(s))?.view !== s) changedViews.push(s);
      for (const s of delta.removed) if (this.sessions.has(sessionName(s))) removed.push(sessionName(s));
    } else {
      let seen = 0;
      for (const s of input.sessions.sessions) {
        const id = sessionName(s);
        const e = this.sessions.get(id);
        seen += 1;
        if (e) e.seen = gen;
        if (e?.view === s) continue;
        changedViews.push(s);
      }
      // Every listed session is in the map once its facts are set below, so only a size mismatch means removals.
      if (this.sessions.size + changedViews.filter((s) => !this.sessions.has(sessionName(s))).length !== seen) {
        for (const [id, e] of this.sessions) if (e.seen !== gen) removed.push(id);
      }
    }
    for (const s of changedViews) {
      const id = sessionName(s);
      if (signalIsOurs(s)) this.signalOurs.add(id);
      else this.signalOurs.delete(id);
    }
    for (const id of removed) this.signalOurs.delete(id);

    const oldOurs = this.ours;
    const ours = new Set([...input.cancels.entries.keys()].map((k) => (k === ':legacy' ? 'legacy' : k)));
    for (const id of this.signalOurs) ours.add(id);
    this.ours = ours;

    // Removals first: their facts go, judged by the new `ours`.
    for (const id of removed) {
      const e = this.sessions.get(id) as SessionEntry;
      this.sessions.delete(id);
      const before = sessionFacts(e.view, e.ours);
      SESSION_KINDS.forEach((k, i) => this.applySession(k, before[i] ?? [], [], changes.get(k.kind) as KindChanges));
    }
    const redo = new Map<string, SessionView>();
    for (const s of changedViews) redo.set(sessionName(s), s);
    // A session whose "cancelled by omc-top" flipped re-derives its needs, view unchanged or not.
    for (const id of ours)
      if (!oldOurs.has(id) && this.sessions.has(id) && !redo.has(id)) redo.set(id, this.sessions.get(id)!.view);
    for (const id of oldOurs)
      if (!ours.has(id) && this.sessions.has(id) && !redo.has(id)) redo.set(id, this.sessions.get(id)!.view);
    for (const [id, s] of redo) {
      const prev = this.sessions.get(id);
      const isOurs = ours.has(id);
      const before = prev ? sessionFacts(prev.view, prev.ours) : null;
      const after = sessionFacts(s, isOurs);
      SESSION_KINDS.forEach((k, i) =>
        this.applySession(k, before?.[i] ?? [], after[i] ?? [], changes.get(k.kind) as KindChanges),
      );
      this.sessions.set(id, { view: s, ours: isOurs, seen: gen });
    }
  }

  /** One session's facts of one kind, from `before` to `after`: the same rule as diffFacts. */
  private applySession(k: TransitionKind, before: [string, Fact][], after: [string, Fact][], c: KindChanges): void {
    // Most kinds give a session one fact (or none): no map to build for those.
    if (before.length <= 1 && after.length <= 1) {
      const [b, a] = [before[0], after[0]];
      if (a) this.setFact(k, a[0], b && b[0] === a[0] ? b[1] : undefined, a[1], c);
      if (b && b[0] !== a?.[0]) this.dropFact(k, b[0], b[1], c);
      return;
    }
    // As a map of the kind would hold them (the last fact of a key wins: collect() and diffFacts agree).
    const was = new Map(before);
    const now = new Map(after);
    for (const [key, fact] of now) this.setFact(k, key, was.get(key), fact, c);
    for (const [key, fact] of was) if (!now.has(key)) this.dropFact(k, key, fact, c);
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

  /** `fact` replaces `old` (undefined: new) under `key`: a transition when its value changed. */
  private setFact(k: TransitionKind, key: string, old: Fact | undefined, fact: Fact, c: KindChanges): void {
    this.setNeed(k.kind, key, fact);
    if (old && old.value === fact.value) return;
    const needs = fact.needs !== null && fact.needs !== old?.needs ? fact.needs : null;
    c.changed.push({ kind: k.kind, key, from: old?.value ?? null, to: fact.value, fact, needs });
  }

  private dropFact(k: TransitionKind, key: string, fact: Fact, c: KindChanges): void {
    this.setNeed(k.kind, key, null);
    c.gone.push({ kind: k.kind, key, from: fact.value, to: null, fact, needs: k.gone?.(fact, this.ours) ?? null });
  }

  private setNeed(kind: string, key: string, fact: Fact | null): void {
    const nk = needKey(kind, key);
    const had = this.needs.get(nk);
    if (fact?.needs) {
      if (had?.fact === fact) return;
      const item = { kind, key, reason: fact.needs, fact };
      this.needs.set(nk, item);
      // The same need with a new fact keeps its place (a map keeps a key's place, the sort is stable).
      if (!had) this.insertNeed(item);
      else if (needOrder(had, item) === 0) this.replaceNeed(had, item);
      else this.needList = null;
    } else if (had) {
      this.needs.delete(nk);
      this.replaceNeed(had, null);
    }
  }
}
