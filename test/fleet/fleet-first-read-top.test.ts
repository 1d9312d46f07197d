/**
 * The fleet's first read: projects arrive one by one and sort among each other. Until the user moves, the cursor
 * stays on the top line, so the fleet opens at the top of its list and not scrolled into whichever project was
 * read first; once every root is read (or the user moves) the selection is an identity, as everywhere.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_FLEET, type FleetGroup, type FleetRow, type FleetSnapshot } from '../../src/fleet/model.js';
import { FleetUi, moveFleet, selectedLine } from '../../src/panes/fleet/reducer.js';

function group(label: string, n: number): FleetGroup {
  const rows = Array.from(
    { length: n },
    (_, i) =>
      ({
        session: `${label.padEnd(8, '0').slice(0, 8)}-0000-4000-8000-${String(i).padStart(12, '0')}`,
        status: 'enforced',
        cancelUntilMs: null,
        modes: 'ralph 3/10',
        prompt: '',
        updatedMs: 1_000_000 - i,
        rank: 1,
        process: null,
        processWhy: null,
        needs: null,
        key: `local|${label}|${i}`,
        host: null,
        rootId: label,
        rootLabel: label,
      }) as FleetRow,
  );
  return { key: `local|${label}`, label, host: null, notes: [], tone: 'normal', detail: null, rows, needsYou: 0 };
}

const snap = (groups: FleetGroup[], ready: boolean, version: number): FleetSnapshot => ({
  ...EMPTY_FLEET,
  version,
  groups,
  roots: 3,
  ready,
});

const headerOf = (s: FleetSnapshot, ui: FleetUi) => {
  const l = selectedLine(s, ui.getSnapshot(), 10);
  return l?.kind === 'group' ? l.group.label : l?.kind;
};

describe('the fleet opens at the top of its list', () => {
  it('projects read later that sort above the first do not scroll the list under the cursor', () => {
    const ui = new FleetUi();
    const ccc = group('ccc', 30);
    const first = snap([ccc], false, 1);
    ui.settle(first, 10);
    const aaa = group('aaa', 30);
    const bbb = group('bbb', 30);
    const more = snap([aaa, bbb, ccc], false, 2);
    ui.settle(more, 10);
    expect(headerOf(more, ui)).toBe('aaa');
    // Every root read: the top line is pinned as it is now, and a project arriving later does not move it.
    const all = snap([aaa, bbb, ccc], true, 3);
    ui.settle(all, 10);
    expect(headerOf(all, ui)).toBe('aaa');
    const later = snap([group('a00', 5), aaa, bbb, ccc], true, 4);
    ui.settle(later, 10);
    expect(headerOf(later, ui)).toBe('aaa');
  });

  it('a line the user picked during the read stays picked', () => {
    const ui = new FleetUi();
    const bbb = group('bbb', 3);
    const s1 = snap([bbb], false, 1);
    ui.settle(s1, 10);
    ui.update((s) => moveFleet(s, s1, 1, 10));
    const picked = selectedLine(s1, ui.getSnapshot(), 10);
    expect(picked?.kind).toBe('row');
    const s2 = snap([group('aaa', 3), bbb], false, 2);
    ui.settle(s2, 10);
    expect(selectedLine(s2, ui.getSnapshot(), 10)).toEqual(picked);
  });
});
