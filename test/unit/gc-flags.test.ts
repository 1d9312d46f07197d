import { describe, expect, it } from 'vitest';
import { applyGcFlags, gcFlagsFor } from '../../src/terminal/gc-flags.js';

const applied = (userArgs: string[]) => {
  const set: string[] = [];
  applyGcFlags(userArgs, (flag) => set.push(flag));
  return set;
};

describe('the V8 flags set at start', () => {
  it('holds the young generation and asks for one memory-reducing collection when the user set none', () => {
    expect(applied(['', '--enable-source-maps'])).toEqual([
      '--semi-space-growth-factor=1',
      '--memory-reducer-single-gc',
    ]);
  });

  it('is the same set at every start with the same command line (the code cache is stamped with the flags)', () => {
    expect(gcFlagsFor(['--max-old-space-size=512'])).toEqual(gcFlagsFor(['--max-old-space-size=512']));
  });

  it("leaves the memory reducer alone when the user set a memory-reducer flag, in NODE_OPTIONS or node's argv", () => {
    expect(applied(['--no-memory-reducer'])).toEqual(['--semi-space-growth-factor=1']);
    expect(applied(['--memory_reducer_for_small_heaps', '--inspect'])).toEqual(['--semi-space-growth-factor=1']);
  });

  it('leaves the young generation alone when the user set a semi-space flag', () => {
    expect(applied(['--max-semi-space-size=64'])).toEqual(['--memory-reducer-single-gc']);
    expect(applied(['--max-semi-space-size=64 --no-memory-reducer'])).toEqual([]);
  });

  it('goes on with the next flag when the engine rejects one', () => {
    const tried: string[] = [];
    applyGcFlags([], (flag) => {
      tried.push(flag);
      if (flag.includes('semi-space')) throw new Error('unknown flag');
    });
    expect(tried).toEqual(['--semi-space-growth-factor=1', '--memory-reducer-single-gc']);
  });
});
