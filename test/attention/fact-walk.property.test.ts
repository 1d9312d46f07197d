/**
 * walkFacts compares a session's facts of one kind as lists when there are a handful of them (no Map built): the
 * calls it makes must be the very ones, in the same order, as the walk over two Maps it replaced, repeated keys
 * included (a Map keeps a key where it first stood, with the last fact given for it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walkFacts, type FactSink } from '../../src/feeds/attention/fact-walk.js';
import type { Fact } from '../../src/feeds/attention/kinds.js';

type Entry = [string, Fact];
const fact = (value: string): Fact => ({ value, session: null, mode: null, team: null, worker: null }) as Fact;

/** The walk over two Maps (the code walkFacts replaced), as the reference. */
function mapWalk(before: Entry[], after: Entry[], out: string[]): void {
  const was = new Map(before);
  const now = new Map(after);
  for (const [key, f] of now) out.push(`set ${key} ${was.get(key)?.value ?? '-'} ${f.value}`);
  for (const [key, f] of was) if (!now.has(key)) out.push(`drop ${key} ${f.value}`);
}

const recorder: FactSink<string, string[]> = {
  setFact: (kind, key, old, f, out) => out.push(`set ${key} ${old?.value ?? '-'} ${f.value}`),
  dropFact: (kind, key, f, out) => out.push(`drop ${key} ${f.value}`),
};

const entries = (max: number) =>
  fc.array(
    fc
      .tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 9 }))
      .map(([k, v]): Entry => [k, fact(`${k}${v}`)]),
    { maxLength: max },
  );

describe('walkFacts', () => {
  it('makes the same calls in the same order as the walk over two Maps (fast-check)', () => {
    fc.assert(
      fc.property(entries(12), entries(12), (before, after) => {
        const want: string[] = [];
        mapWalk(before, after, want);
        const got: string[] = [];
        walkFacts(before, after, recorder, 'kind', got);
        expect(got).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('a key given twice: set once, where it first stood, with its last fact', () => {
    const got: string[] = [];
    walkFacts(
      [
        ['a', fact('a1')],
        ['b', fact('b1')],
      ],
      [
        ['b', fact('b2')],
        ['a', fact('a2')],
        ['b', fact('b3')],
      ],
      recorder,
      'k',
      got,
    );
    expect(got).toEqual(['set b b1 b3', 'set a a1 a2']);
  });
});
