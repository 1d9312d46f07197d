/**
 * What the fleet list costs per snapshot: a change in one project makes a new group object for that project and
 * keeps the others, so drawing the next snapshot must not pass over the kept groups' rows again. Two passes did:
 * the project line's spend (a sum over the group's rows, on every render of a visible group header) and the
 * list's lines and ids (4,000 entries at 20 projects × 200, copied for every snapshot). The lines and ids a
 * snapshot shows must still be the flat list's, in order.
 */
import { describe, expect, it } from 'vitest';
import {
  fleetLines,
  groupLines,
  lineId,
  type FleetGroup,
  type FleetLine,
  type FleetRow,
  type FleetSnapshot,
} from '../../src/fleet/model.js';
import { groupLine, groupSpend } from '../../src/panes/fleet/layout.js';
import { rowCounts, shownIds, shownLines } from '../../src/panes/fleet/reducer.js';

/** A row whose spend fields count their reads into `reads`. */
function row(key: string, usd: number | null, reads: { n: number }): FleetRow {
  const r = {
    session: key,
    status: 'enforced',
    cancelUntilMs: null,
    modes: 'ralph 1/10',
    prompt: '',
    updatedMs: 0,
    rank: 1,
    process: null,
    processWhy: null,
    needs: null,
    key,
    host: null,
    rootId: key,
    rootLabel: key,
  } as unknown as FleetRow;
  for (const [field, value] of [
    ['costUsd', usd],
    ['todayUsd', usd],
    ['unpricedModels', false],
    ['costPartial', false],
  ] as const)
    Object.defineProperty(r, field, {
      get: () => {
        reads.n++;
        return value;
      },
      enumerable: true,
    });
  return r;
}

function group(key: string, rows: FleetRow[], detail: string | null = null): FleetGroup {
  return { key, label: key, host: null, notes: [], tone: 'normal', detail, rows, needsYou: 0 };
}

function snapshot(groups: FleetGroup[], version: number): FleetSnapshot {
  return { version, groups, localClaude: 0, roots: groups.length, problems: [], ready: true };
}

const fleet = (projects: number, perProject: number, reads: { n: number }) =>
  Array.from({ length: projects }, (_, p) =>
    group(
      `p${p}`,
      Array.from({ length: perProject }, (_, i) => row(`p${p}|s${i}`, 0.5, reads)),
      p === 3 ? 'polling: over the inotify budget' : null,
    ),
  );

describe('the project line', () => {
  it('sums a group it has drawn before no more', () => {
    const reads = { n: 0 };
    const g = group(
      'kept',
      Array.from({ length: 200 }, (_, i) => row(`k${i}`, 0.25, reads)),
    );
    const first = groupLine(g, 120, false);
    expect(first).toContain('$50.00 est.');
    expect(reads.n).toBeGreaterThanOrEqual(200);
    reads.n = 0;
    // The next render (the selection moved, the clock ticked, another project changed): the same group object.
    expect(groupLine(g, 120, true)).toContain('$50.00 est.');
    expect(groupSpend(g)).toEqual({ usd: 50, today: 50, unpriced: false, reading: null, notPriced: 0, priced: true });
    expect(reads.n).toBe(0);
  });

  it('sums a new group object of the same project again', () => {
    const reads = { n: 0 };
    const before = group('p', [row('a', 1, reads)]);
    expect(groupSpend(before)?.usd).toBe(1);
    const after = group('p', [row('a', 1, reads), row('b', 2, reads)]);
    expect(groupSpend(after)?.usd).toBe(3);
  });
});

describe('the lines and ids a snapshot shows', () => {
  it('are the flat list, in order, however they are asked for', () => {
    const reads = { n: 0 };
    const snap = snapshot(fleet(5, 7, reads), 1);
    const flat = fleetLines(snap);
    const lines = shownLines(snap, '');
    const ids = shownIds(snap, '');
    expect(lines.length).toBe(flat.length);
    expect(ids.length).toBe(flat.length);
    expect(lines.slice(0, lines.length)).toEqual(flat);
    expect(lines.slice(9, 23)).toEqual(flat.slice(9, 23));
    for (let i = 0; i <= flat.length; i++) {
      expect(lines.at(i)).toBe(flat[i]);
      expect(ids.at(i)).toBe(i >= flat.length ? undefined : lineId(flat[i] as (typeof flat)[number]));
    }
    for (const [i, l] of flat.entries()) expect(ids.indexOf(lineId(l))).toBe(i);
    expect(ids.indexOf('no such line')).toBe(-1);
    expect(rowCounts(snap, '')).toEqual({ shown: 35, total: 35 });
    // A filter still narrows to the rows that match, under their group's header (which carries the rows shown).
    expect(shownLines(snap, 'p2|s3').slice(0, 9).map(lineId)).toEqual(['group:p2', 'p2|s3']);
  });

  it('are not walked again for the groups the next snapshot keeps', () => {
    const reads = { n: 0 };
    const groups = fleet(20, 200, reads);
    const first = snapshot(groups, 1);
    expect(shownIds(first, '').length).toBe(20 * 201 + 1);
    // Every kept group's lines (as the model keeps them per group object) say when they are walked.
    const walks = { n: 0 };
    for (const g of groups.slice(0, 19)) {
      const kept = groupLines(g);
      Object.defineProperty(kept, Symbol.iterator, {
        value: function* counted(this: FleetLine[]) {
          walks.n++;
          for (let i = 0; i < this.length; i++) yield this[i] as FleetLine;
        },
      });
    }
    // One project changed: a new group object for it, the other 19 kept.
    const next = snapshot([...groups.slice(0, 19), group('p19', [row('p19|s0', 1, reads)])], 2);
    const ids = shownIds(next, '');
    const lines = shownLines(next, '');
    expect(ids.length).toBe(19 * 201 + 1 + 2);
    expect(ids.at(ids.length - 1)).toBe('p19|s0');
    expect(ids.indexOf('p7|s150')).toBe(7 * 201 + 1 + 151); // p3 has a detail line
    expect(lines.at(ids.length - 1)).toEqual({ kind: 'row', group: next.groups[19], row: next.groups[19]?.rows[0] });
    expect(lines.slice(0, 3).map(lineId)).toEqual(['group:p0', 'p0|s0', 'p0|s1']);
    expect(rowCounts(next, '')).toEqual({ shown: 19 * 200 + 1, total: 19 * 200 + 1 });
    expect(walks.n).toBe(0);
    // A filter reads every row's text: that walk stays (it is what the filter is).
    shownLines(next, 'p7|s150');
    expect(walks.n).toBeGreaterThan(0);
  });
});
