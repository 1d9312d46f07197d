/**
 * The transition engine: pure functions over consecutive store snapshots.
 * `factsOf` flattens one snapshot through the KINDS table; `diffFacts`
 * compares two flattenings into transitions; `needsYou` is the set of facts
 * that currently need the user. Nothing here reads a file or a clock.
 */
import { KINDS, sessionsCancelledByUs, type AttentionInput, type Fact } from './kinds.js';

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
  /** Set when this transition newly needs the user (a notification is due). */
  needs: string | null;
}

export interface NeedItem {
  kind: string;
  key: string;
  reason: string;
  fact: Fact;
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

/**
 * Every change between two flattenings, in KINDS order. A transition needs
 * the user only when its new fact needs them for a reason the old one did not
 * (so a loop stays "finished" without re-notifying on every write).
 */
export function diffFacts(prev: Facts, next: Facts): Transition[] {
  const out: Transition[] = [];
  for (const k of KINDS) {
    const kind = k.kind;
    const nextMap = next.byKind.get(kind) ?? new Map<string, Fact>();
    const prevMap = prev.byKind.get(kind) ?? new Map<string, Fact>();
    if (prevMap === nextMap) continue; // reused by factsOf: nothing it reads changed
    for (const [key, fact] of nextMap) {
      const old = prevMap.get(key);
      if (old && old.value === fact.value) continue;
      const needs = fact.needs !== null && fact.needs !== old?.needs ? fact.needs : null;
      out.push({ kind, key, from: old?.value ?? null, to: fact.value, fact, needs });
    }
    for (const [key, fact] of prevMap) {
      if (nextMap.has(key)) continue;
      out.push({ kind, key, from: fact.value, to: null, fact, needs: k.gone?.(fact, next.ours) ?? null });
    }
  }
  return out;
}

export const EMPTY_FACTS: Facts = { byKind: new Map(), ours: new Set() };

export function needsYou(facts: Facts): NeedItem[] {
  const out: NeedItem[] = [];
  for (const [kind, map] of facts.byKind) {
    for (const [key, fact] of map) if (fact.needs !== null) out.push({ kind, key, reason: fact.needs, fact });
  }
  return out;
}

export { KINDS };
export type { AttentionInput, Fact };
