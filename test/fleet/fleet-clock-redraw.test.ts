/**
 * When an idle fleet redraws on its own: only when a row on screen would read differently (an age turns over, a
 * cancel counts down). Rows hours old wait for the minute grid, seconds-old rows turn over together on the 5 s
 * grid, a countdown moves each second, and rows scrolled off screen or hidden under the help never wake it.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_FLEET, type FleetRow, type FleetSnapshot } from '../../src/fleet/model.js';
import { initFleetUi } from '../../src/panes/fleet/reducer.js';
import { nextClockChangeMs } from '../../src/panes/fleet/view.js';
import { rowLine } from '../../src/panes/fleet/layout.js';

const NOW = Date.UTC(2026, 11, 2, 14, 0, 7, 300);

function row(i: number, updatedMs: number | null, extra: Partial<FleetRow> = {}): FleetRow {
  return {
    session: `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`,
    status: 'active',
    cancelUntilMs: null,
    modes: 'ralph 3/10',
    prompt: '',
    updatedMs,
    rank: 1,
    process: null,
    processWhy: null,
    needs: null,
    key: `local|r|${i}`,
    host: null,
    rootId: 'r',
    rootLabel: 'proj',
    ...extra,
  } as FleetRow;
}

function snapOf(rows: FleetRow[]): FleetSnapshot {
  const group = {
    key: 'local|g',
    label: 'proj',
    host: null,
    notes: [],
    tone: 'normal' as const,
    detail: null,
    rows,
    needsYou: 0,
  };
  return { ...EMPTY_FLEET, version: 1, groups: [group], roots: 1, ready: true };
}

/** The text of every row at `now` (the cells that move with the clock among them). */
const texts = (rows: FleetRow[], now: number) => rows.map((r) => rowLine(r, now, 120, false)).join('\n');

describe('the fleet redraws when a row on screen would read differently', () => {
  it('old rows: on the minute grids, not every few seconds', () => {
    const rows = [row(1, NOW - 3 * 3_600_000 - 5_000), row(2, NOW - 26 * 60_000)];
    const wait = nextClockChangeMs(snapOf(rows), initFleetUi(), 30, NOW);
    expect(wait).toBeGreaterThan(5_000);
    expect(wait).toBeLessThanOrEqual(90_000);
    // The ages turn over on the wall clock's half-minute grid (an age is never a whole unit behind): a row reads
    // differently when it comes.
    expect(texts(rows, NOW + wait)).not.toBe(texts(rows, NOW));
  });

  it('seconds-old rows turn over together on the 5 s wall grid', () => {
    const rows = [row(1, NOW - 1_100), row(2, NOW - 3_700), row(3, NOW - 12_900)];
    expect(nextClockChangeMs(snapOf(rows), initFleetUi(), 30, NOW)).toBe(5_000 - (NOW % 5_000));
  });

  it('a cancel countdown moves each second', () => {
    const rows = [row(1, NOW - 3 * 3_600_000, { status: 'cancelling', cancelUntilMs: NOW + 12_250 })];
    const wait = nextClockChangeMs(snapOf(rows), initFleetUi(), 30, NOW);
    expect(wait).toBe(250);
    expect(texts(rows, NOW + wait)).not.toBe(texts(rows, NOW));
  });

  it('rows off screen, the help and an empty fleet never wake it', () => {
    const old = Array.from({ length: 60 }, (_, i) => row(i, NOW - 5 * 3_600_000));
    // The young row sorts last: below a 24-line screen.
    const rows = [...old, row(99, NOW - 2_000)];
    const ui = initFleetUi();
    expect(nextClockChangeMs(snapOf(rows), ui, 24, NOW)).toBeGreaterThan(5_000);
    expect(nextClockChangeMs(snapOf(rows), { ...ui, help: { scroll: 0 } }, 24, NOW)).toBe(Infinity);
    expect(nextClockChangeMs(EMPTY_FLEET, ui, 24, NOW)).toBe(Infinity);
  });
});
