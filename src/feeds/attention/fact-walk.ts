/**
 * One session's facts of one kind, from `before` to `after`, walked as Maps of them would be (a Map keeps a key
 * where it first stood and the last fact given for it: collect() and diffFacts agree on that rule). A start at
 * 2,000 sessions walks ~12,000 such pairs, almost all of one to three facts: building two Maps per pair was a
 * visible share of what a start allocates before `live`, so small lists are walked as lists.
 */
import type { Fact } from './kinds.js';

type Entry = [string, Fact];

/** Up to this many facts on each side are compared as lists (quadratic, but over a handful); more, as Maps. */
const SMALL_FACTS = 8;

/** `[...new Map(facts)]`, and the list itself when no key repeats (the usual case). */
function lastOfEachKey(facts: Entry[]): Entry[] {
  for (let i = 1; i < facts.length; i++)
    for (let j = 0; j < i; j++) if (facts[i]![0] === facts[j]![0]) return [...new Map(facts)];
  return facts;
}

/** The fact under `key` in a list whose keys do not repeat. */
function factOf(facts: Entry[], key: string): Fact | undefined {
  for (let i = 0; i < facts.length; i++) if (facts[i]![0] === key) return facts[i]![1];
  return undefined;
}

/** Where a walk's changes go; `kind` and `changes` are handed back as given (no closure made per walk). */
export interface FactSink<K, C> {
  setFact(kind: K, key: string, old: Fact | undefined, fact: Fact, changes: C): void;
  dropFact(kind: K, key: string, fact: Fact, changes: C): void;
}

/**
 * Calls `setFact` for every fact of `after` (with the fact of `before` it replaces, if any), then `dropFact` for
 * every fact of `before` whose key `after` lacks: each in the order a Map of them iterates.
 */
export function walkFacts<K, C>(before: Entry[], after: Entry[], sink: FactSink<K, C>, kind: K, changes: C): void {
  if (before.length <= 1 && after.length <= 1) {
    // Indexed, not `const [b, a] = [...]`: that builds an array and walks it with an iterator, per kind and session.
    const b = before[0];
    const a = after[0];
    if (a) sink.setFact(kind, a[0], b && b[0] === a[0] ? b[1] : undefined, a[1], changes);
    if (b && b[0] !== a?.[0]) sink.dropFact(kind, b[0], b[1], changes);
    return;
  }
  if (before.length <= SMALL_FACTS && after.length <= SMALL_FACTS) {
    const was = lastOfEachKey(before);
    const now = lastOfEachKey(after);
    // Indexed, not `for (const [key, fact] of …)`: see "Cold loops" in docs/ARCHITECTURE.md.
    for (let i = 0; i < now.length; i++) {
      const e = now[i]!;
      sink.setFact(kind, e[0], factOf(was, e[0]), e[1], changes);
    }
    for (let i = 0; i < was.length; i++) {
      const e = was[i]!;
      if (factOf(now, e[0]) === undefined) sink.dropFact(kind, e[0], e[1], changes);
    }
    return;
  }
  const was = new Map(before);
  const now = new Map(after);
  for (const [key, fact] of now) sink.setFact(kind, key, was.get(key), fact, changes);
  for (const [key, fact] of was) if (!now.has(key)) sink.dropFact(kind, key, fact, changes);
}
