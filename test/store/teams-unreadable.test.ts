/**
 * A team worker's heartbeat omc-top may not read (OMC writes 0600; another user's omc-top, or a disk error): whether
 * that worker is alive is unknown, so a team none of whose workers is known alive is not "stalled: no live worker"
 * (the item that tells the user to clean it up) but unknown, with the files named: the row, --json, the attention
 * item and watch --json's fact say so. Real OMC fixture (test/store/teams-stalled.test.ts: the same team, readable,
 * is stalled 14 h on with its pids gone); the refusal is the kernel's error injected (test/helpers/read-faults.ts).
 */
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { OmcStore } from '../../src/store/store.js';
import { teamLines, workerLine } from '../../src/panes/teams/rows.js';
import { teamNeeds } from '../../src/feeds/attention/needs.js';
import { factsOf } from '../../src/feeds/attention/engine.js';
import { teamsReport } from '../../src/store/teams/report.js';
import { EMPTY_CANCEL_RECORDS } from '../../src/store/cancel/cancel-records.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT } from '../helpers/fixtures.js';
import { refuseReads, type ReadFault } from '../helpers/read-faults.js';

const LATER = READERS_CAPTURED_AT + 14 * 3_600_000;
const WORKERS = path.join(FIXTURE_TREE, 'state/team/fix-ts-errors/workers');
const beat = (w: string) => `state/team/fix-ts-errors/workers/${w}/heartbeat.json`;

let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

function storeAt(now: number, alive: boolean | null): OmcStore {
  const store = new OmcStore({
    root: FIXTURE_TREE,
    watch: 'none',
    clock: () => now,
    teams: { pidAlive: () => alive, heartbeatStaleMs: 180_000 },
  });
  store.start();
  return store;
}

describe('a team whose workers omc-top may not read the heartbeats of', () => {
  it('is not "stalled" but unknown, with the files named, on the row, in --json and as the attention item', async () => {
    // Read as they are, 14 h on with every pid gone: stalled (what the refusal must not pass for).
    const seen = storeAt(LATER, false);
    expect(seen.teams.getSnapshot().teams[0]?.stalled).toBe(true);
    await seen.close();

    fault = refuseReads('EACCES', (abs) => abs.startsWith(WORKERS) && abs.endsWith('heartbeat.json'));
    const store = storeAt(LATER, false);
    const snap = store.teams.getSnapshot();
    const t = snap.teams[0]!;
    expect(t.stalled).toBe(false);
    expect([...(t.unreadable ?? [])].sort()).toEqual(['worker-1', 'worker-2', 'worker-3'].map(beat));
    const text = teamLines(t, LATER, 120, 180_000, false).join('\n');
    expect(text).not.toContain('stalled: no live worker');
    expect(text).toContain('live workers unknown (unreadable)');
    expect(workerLine(t.workers[0]!, LATER, 120, 180_000, false)).toContain('⚠ heartbeat unreadable');
    // --json: the files, and each worker's liveness unknown (null), not dead.
    const js = teamsReport(snap, LATER)[0] as { unreadable: string[]; workers: { alive: unknown; flag: unknown }[] };
    expect(js.unreadable.length).toBe(3);
    expect(js.workers.map((w) => [w.alive, w.flag])).toEqual([
      [null, 'unreadable'],
      [null, 'unreadable'],
      [null, 'unreadable'],
    ]);
    // One item for the team, not "stalled", not a dead worker each.
    const items = teamNeeds(t);
    expect(items.map((i) => [i.kind, i.reason, i.worker])).toEqual([['unreadable', 'unreadable loop state', null]]);
    expect(items[0]!.text).toMatch(
      /^omc-top cannot read state\/team\/fix-ts-errors\/workers\/worker-\d\/heartbeat\.json/,
    );
    expect(items[0]!.text).toContain('(and 2 more): permission denied');
    expect(items[0]!.text).toContain('whether team fix-ts-errors has a live worker is unknown');
    const facts = factsOf({
      sessions: store.sessions.getSnapshot(),
      teams: snap,
      cancels: { version: 0, entries: new Map() },
      cancelRecords: EMPTY_CANCEL_RECORDS,
      problems: [],
      claude: store.claude.getSnapshot(),
    });
    expect(facts.byKind.get('team')?.get(t.key)?.value).toBe('unreadable');
    for (const w of t.workers) expect(facts.byKind.get('worker')?.get(`${t.key}/${w.name}`)?.value).not.toBe('dead');
    await store.close();
  });

  it('one live worker known is enough: the team is not stalled and nothing is unknown', async () => {
    fault = refuseReads('EACCES', (abs) => abs === path.join(FIXTURE_TREE, beat('worker-1')));
    const store = storeAt(LATER, true);
    const t = store.teams.getSnapshot().teams[0]!;
    expect(t).toMatchObject({ stalled: false, unreadable: [] });
    expect(teamNeeds(t)).toEqual([]);
    await store.close();
  });
});
