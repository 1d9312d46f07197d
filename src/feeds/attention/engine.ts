/**
 * The transition engine: pure functions over consecutive store snapshots.
 * `factsOf` flattens one snapshot through the KINDS table; `diffFacts`
 * compares two flattenings into transitions; `needsYou` is the set of
 * conditions that currently need the user (acknowledged or not: the
 * attention view, view.ts, splits them). Nothing here reads a file or a clock.
 */
import { KINDS, sessionsCancelledByUs, type AttentionInput, type Fact, type TransitionKind } from './kinds.js';
import { byAge, type NeedItem } from './needs.js';

export interface Facts {
  /** kind → key → fact. */
  byKind: ReadonlyMap<string, ReadonlyMap<string, Fact>>;
  /** Sessions with a cancel omc-top made (their removals are its own doing). */
  ours: ReadonlySet<string>;
}

export interface Transition {
  kind: string;
  key: string;
  /** null: the fact appeared. */
  from: string | null;
  /** null: the fact is gone. */
  to: string | null;
  fact: Fact;
  /** Set when this transition raises a new occurrence of a condition that needs the user (its short reason). */
  needs: string | null;
  /** Set when this transition is news (something happened; never counted). */
  news: string | null;
}

/**
 * With `reuse` (the previous input and its facts), a kind whose inputs are the
 * same objects keeps its facts: a team heartbeat does not re-walk 2,000 sessions.
 */
export function factsOf(input: AttentionInput, reuse?: { input: AttentionInput; facts: Facts }): Facts {
  const byKind = new Map<string, ReadonlyMap<string, Fact>>();
  for (const k of KINDS) {
    const kept =
      reuse && k.reads.every((r) => reuse.input[r] === input[r]) ? reuse.facts.byKind.get(k.kind) : undefined;
    byKind.set(k.kind, kept ?? k.collect(input));
  }
  return { byKind, ours: sessionsCancelledByUs(input) };
}

/** The transition from `old` (undefined: the fact appeared) to `fact`, or null when nothing changed. */
export function changeOf(
  kind: string,
  key: string,
  old: Fact | undefined,
  fact: Fact,
  step?: TransitionKind['step'],
): Transition | null {
  const needId = fact.need?.id ?? null;
  if (old && old.value === fact.value && (old.need?.id ?? null) === needId) return null;
  // A condition is raised once per occurrence; news once per appearance of the state it tells of.
  const needs = needId !== null && needId !== (old?.need?.id ?? null) ? fact.needs : null;
  const stepNews = old && step && old.value !== fact.value ? step(old, fact) : null;
  const news = fact.news !== null && fact.news !== old?.news ? fact.news : stepNews;
  // Only the need went (a cancelled orphan's Claude is gone before and after): no line says "gone → gone". What
  // ended it has its own transition (the loop's mode, the process's status), and the needs list drops it anyway.
  if (old && old.value === fact.value && needs === null && news === null) return null;
  return { kind, key, from: old?.value ?? null, to: fact.value, fact, needs, news };
}

/**
 * Every change between two flattenings, in KINDS order (within a kind, changes before disappearances).
 */
export function diffFacts(prev: Facts, next: Facts): Transition[] {
  const out: Transition[] = [];
  for (const k of KINDS) {
    const kind = k.kind;
    const nextMap = next.byKind.get(kind) ?? new Map<string, Fact>();
    const prevMap = prev.byKind.get(kind) ?? new Map<string, Fact>();
    if (prevMap === nextMap) continue; // reused by factsOf: nothing it reads changed
    for (const [key, fact] of nextMap) {
      const t = changeOf(kind, key, prevMap.get(key), fact, k.step);
      if (t) out.push(t);
    }
    for (const [key, fact] of prevMap) {
      if (nextMap.has(key)) continue;
      out.push({ kind, key, from: fact.value, to: null, fact, needs: null, news: k.gone?.(fact, next.ours) ?? null });
    }
  }
  return out;
}

export const EMPTY_FACTS: Facts = { byKind: new Map(), ours: new Set() };

/** Every condition that needs the user now, oldest first. */
export function needsYou(facts: Facts): NeedItem[] {
  const out: NeedItem[] = [];
  for (const map of facts.byKind.values()) for (const fact of map.values()) if (fact.need) out.push(fact.need);
  return out.sort(byAge);
}

export { KINDS };
export type { AttentionInput, Fact, NeedItem };
