/**
 * The young-generation policy (terminal/young-gen.ts) with its V8 flag setter and size reading injected: held
 * at the start, room while any burst runs and until the young generation reaches its cap, held again when the
 * last burst ends, and always held while a code cache is taken (V8 stamps a cache with its flags).
 */
import { describe, expect, it } from 'vitest';
import { BURST_NEW_SPACE_BYTES, YoungGenPolicy } from '../../src/terminal/young-gen.js';
import { waitFor } from '../helpers/fixtures.js';

const HELD = '--semi-space-growth-factor=1';
const ROOMY = '--semi-space-growth-factor=2';

function rig(enabled = true) {
  const set: string[] = [];
  const size = { bytes: 2 * 1024 * 1024 };
  const policy = new YoungGenPolicy(
    (f) => set.push(f),
    enabled,
    () => size.bytes,
  );
  policy.hold();
  return { policy, set, size };
}

describe('young generation policy', () => {
  it('holds from the start, has room during a burst, and holds again when it ends', () => {
    const { policy, set } = rig();
    expect(set).toEqual([HELD]);
    const end = policy.roomy();
    expect(set).toEqual([HELD, ROOMY]);
    end();
    expect(set).toEqual([HELD, ROOMY, HELD]);
    end(); // a second call changes nothing
    expect(set).toEqual([HELD, ROOMY, HELD]);
  });

  it('overlapping bursts: room from the first start to the last end', () => {
    const { policy, set } = rig();
    const endA = policy.roomy();
    const endB = policy.roomy();
    endA();
    endA();
    expect(set).toEqual([HELD, ROOMY]);
    endB();
    expect(set).toEqual([HELD, ROOMY, HELD]);
  });

  it('holds again once the young generation reached the cap, while the burst still runs', async () => {
    const { policy, set, size } = rig();
    const end = policy.roomy();
    size.bytes = BURST_NEW_SPACE_BYTES;
    await waitFor(() => set.length === 3, { what: 'the cap seen' });
    expect(set).toEqual([HELD, ROOMY, HELD]);
    end();
    expect(set.at(-1)).toBe(HELD);
  });

  it('a burst that starts at the cap gets no room', () => {
    const { policy, set, size } = rig();
    size.bytes = BURST_NEW_SPACE_BYTES;
    policy.roomy()();
    expect(set.includes(ROOMY)).toBe(false);
  });

  it('a code cache is taken under the starting flag, and the burst gets its room back after', () => {
    const { policy, set } = rig();
    const end = policy.roomy();
    let during = '';
    policy.asStarted(() => (during = set.at(-1) ?? ''));
    expect(during).toBe(HELD);
    expect(set.at(-1)).toBe(ROOMY);
    end();
    let after = '';
    const before = set.length;
    policy.asStarted(() => (after = set.at(-1) ?? ''));
    expect(after).toBe(HELD);
    expect(set.length).toBe(before); // already held: nothing set
  });

  it('changes nothing when the user set their own semi-space flags', () => {
    const { policy, set } = rig(false);
    policy.roomy()();
    policy.asStarted(() => undefined);
    expect(set).toEqual([]);
  });

  it('an engine without the flag: no throw, and the policy goes on', () => {
    const policy = new YoungGenPolicy(
      () => {
        throw new Error('unknown flag');
      },
      true,
      () => 0,
    );
    policy.hold();
    expect(() => policy.roomy()()).not.toThrow();
  });
});
