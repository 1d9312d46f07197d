/**
 * A fleet project line's spend says what its rows' SPENT EST cells say: a project whose every session used a model
 * with no price reads `unpriced` (as each row does), not nothing; one with priced, unpriced and unreadable sessions
 * names each part; one with nothing priced names both the unpriced and the unreadable ones.
 */
import { describe, expect, it } from 'vitest';
import type { FleetGroup, FleetRow } from '../../src/fleet/model.js';
import { groupLine, rowCost } from '../../src/panes/fleet/layout.js';

type Spend = Pick<FleetRow, 'costUsd' | 'todayUsd' | 'unpricedModels' | 'costUnknown'>;

const PRICED: Spend = { costUsd: 0.2425, todayUsd: 0.2425, unpricedModels: 0, costUnknown: null };
const UNPRICED: Spend = { costUsd: null, todayUsd: null, unpricedModels: 1, costUnknown: null };
const PRICED_AND_UNPRICED: Spend = { costUsd: 0.5, todayUsd: 0.5, unpricedModels: 1, costUnknown: null };
const UNREADABLE: Spend = { costUsd: null, todayUsd: null, unpricedModels: 0, costUnknown: 'is not a regular file' };
const NOTHING_YET: Spend = { costUsd: null, todayUsd: null, unpricedModels: 0, costUnknown: null };

function row(key: string, spend: Spend): FleetRow {
  return {
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
    costPartial: false,
    ...spend,
    key,
    host: null,
    rootId: 'gamma',
    rootLabel: 'gamma',
  } as FleetRow;
}

const project = (...spends: Spend[]): FleetGroup => ({
  key: 'gamma',
  label: 'gamma',
  host: null,
  notes: [],
  tone: 'normal',
  detail: null,
  rows: spends.map((s, i) => row(`s${i}`, s)),
  needsYou: 0,
});

/** The project line at 120 columns, trimmed. */
const line = (g: FleetGroup) => groupLine(g, 120, false).trim();

describe("the fleet's project line says what its rows' spend cells say", () => {
  it('every session unpriced: "unpriced", as each row', () => {
    const g = project(UNPRICED);
    expect(g.rows.map(rowCost)).toEqual(['unpriced']);
    expect(line(g)).toBe('gamma  (1 session · spend unpriced)');
    expect(line(project(UNPRICED, UNPRICED))).toBe('gamma  (2 sessions · spend unpriced)');
  });

  it('nothing priced, some unpriced and some unreadable: both parts', () => {
    const g = project(UNPRICED, UNREADABLE);
    expect(g.rows.map(rowCost)).toEqual(['unpriced', '—']);
    expect(line(g)).toBe('gamma  (2 sessions · spend unpriced + 1 not priced)');
    expect(line(project(UNREADABLE))).toBe('gamma  (1 session · spend 1 not priced)');
  });

  it('priced with unpriced and unreadable sessions: each part once', () => {
    expect(line(project(PRICED, UNPRICED))).toBe('gamma  (2 sessions · $0.2425 est. + unpriced · today $0.2425)');
    expect(line(project(PRICED, UNPRICED, UNREADABLE))).toBe(
      'gamma  (3 sessions · $0.2425 est. + unpriced + 1 not priced · today $0.2425)',
    );
    expect(line(project(PRICED_AND_UNPRICED, UNPRICED))).toBe(
      'gamma  (2 sessions · $0.5000 est. + unpriced · today $0.5000)',
    );
    expect(line(project(PRICED))).toBe('gamma  (1 session · $0.2425 est. · today $0.2425)');
  });

  it('a project with nothing read yet says no spend', () => {
    expect(line(project(NOTHING_YET))).toBe('gamma  (1 session)');
  });
});
