/**
 * The fleet's group order: a group with a row that needs the user first, then by its best row, local before
 * remote, then by name. Whether a group has such a row is read once per group object: the fleet keeps a group
 * whose rows did not change, so sorting again after a change in another project reads none of its rows.
 */
import { describe, expect, it } from 'vitest';
import { sortGroups, type FleetGroup, type FleetRow } from '../../src/fleet/model.js';

/** A row whose `needs` counts its reads into `reads`. */
function row(key: string, rank: number, needs: string | null, reads: { n: number }): FleetRow {
  const r = {
    session: key,
    status: 'enforced',
    cancelUntilMs: null,
    modes: '',
    prompt: '',
    updatedMs: 0,
    rank,
    process: null,
    processWhy: null,
    key,
    host: null,
    rootId: key,
    rootLabel: key,
  } as Omit<FleetRow, 'needs'>;
  return Object.defineProperty(r, 'needs', {
    get: () => {
      reads.n++;
      return needs;
    },
    enumerable: true,
  }) as FleetRow;
}

function group(key: string, rows: FleetRow[], host: string | null = null): FleetGroup {
  return { key, label: key, host, notes: [], tone: 'normal', detail: null, rows, needsYou: 0 };
}

describe('sortGroups', () => {
  it('puts a group that needs the user first, then the best row, local before remote, then the name', () => {
    const reads = { n: 0 };
    const calm = group('a-calm', [row('a1', 0, null, reads)]);
    const needy = group('z-needy', [row('z1', 5, 'permission asked', reads), row('z2', 1, null, reads)]);
    const worse = group('b-worse', [row('b1', 3, null, reads)]);
    const remote = group('a-remote', [row('r1', 0, null, reads)], 'box1');
    const order = sortGroups([worse, remote, calm, needy]).map((g) => g.key);
    expect(order).toEqual(['z-needy', 'a-calm', 'a-remote', 'b-worse']);
  });

  it('reads the rows of a group it has seen before no more', () => {
    const reads = { n: 0 };
    const many = Array.from({ length: 200 }, (_, i) => row(`k${i}`, 1, null, reads));
    const kept = group('kept', many);
    sortGroups([kept, group('other', [row('o1', 0, null, reads)])]);
    expect(reads.n).toBeGreaterThanOrEqual(200);
    reads.n = 0;
    // Another project changed: its group is a new object, this one is the same.
    const changed = group('other', [row('o1', 0, 'an answer is waiting', reads)]);
    expect(sortGroups([kept, changed]).map((g) => g.key)).toEqual(['other', 'kept']);
    expect(reads.n).toBeLessThanOrEqual(1);
  });
});
