import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { lazyObject } from '../../src/io/lazy-object.js';

describe('lazyObject', () => {
  it('builds nothing until first used, then once', () => {
    let builds = 0;
    const o = lazyObject(() => {
      builds++;
      return { a: 1, f() {} };
    });
    expect(builds).toBe(0);
    expect(o.a).toBe(1);
    expect('f' in o).toBe(true);
    expect(Object.keys(o)).toEqual(['a', 'f']);
    expect(builds).toBe(1);
  });

  it('a zod schema through it parses, composes and reports as the schema itself', () => {
    const direct = z.strictObject({ n: z.number().int(), tag: z.enum(['a', 'b']).optional() });
    const inner = lazyObject(() => z.strictObject({ n: z.number().int(), tag: z.enum(['a', 'b']).optional() }));
    const outer = lazyObject(() => z.object({ items: z.array(inner).max(2), opt: inner.optional() }));
    for (const v of [{ n: 1 }, { n: 1.5 }, { n: 2, tag: 'b' }, { n: 2, extra: true }, null, 'x'])
      expect(inner.safeParse(v)).toEqual(direct.safeParse(v));
    expect(outer.safeParse({ items: [{ n: 1 }, { n: 2 }] }).success).toBe(true);
    expect(outer.safeParse({ items: [{ n: 1 }, { n: 2 }, { n: 3 }] }).success).toBe(false);
    expect(outer.safeParse({ items: [], opt: { n: 'x' } }).success).toBe(false);
    expect(inner instanceof z.ZodObject).toBe(true);
  });

  it("zod's mini build takes it in its functions and unions", () => {
    const a = lazyObject(() => zm.strictObject({ kind: zm.literal('a'), n: zm.int() }));
    const b = lazyObject(() => zm.strictObject({ kind: zm.literal('b') }));
    const u = lazyObject(() => zm.discriminatedUnion('kind', [a, b]));
    expect(zm.safeParse(u, { kind: 'a', n: 3 }).success).toBe(true);
    expect(zm.safeParse(u, { kind: 'b' }).success).toBe(true);
    expect(zm.safeParse(u, { kind: 'a', n: 'x' }).success).toBe(false);
    expect(zm.safeParse(u, { kind: 'c' }).success).toBe(false);
  });
});
