/**
 * A cancel writes OMC's signal before it removes the loop's file, but the file watcher may report the removal
 * first, or alone in a batch. The picture after that removal must still hold the signal (so a loop another
 * omc-top process cancelled reads as cancelled by omc-top, not "stopped" as news), and its lines must tell cause before effect: the signal in force,
 * then the loop gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { diffFacts, factsOf } from '../../src/feeds/attention/engine.js';
import { attentionInput } from '../../src/feeds/attention/monitor.js';
import { autopilotSignal, SIGNAL_SOURCE } from '../../src/store/cancel/signal.js';
import { READERS_CAPTURED_AT, SESSION, writeOmcJson } from '../helpers/fixtures.js';

const tick = () => new Promise((r) => setImmediate(r));
const iso = (ms: number) => new Date(ms).toISOString();

describe('a cancel whose removal the watcher reports before its signal', () => {
  it('one picture: the signal in force, then ralph gone; no "loop stopped" news', async ({ project: p, newStore }) => {
    const now = READERS_CAPTURED_AT;
    const store = newStore({ root: p.root, watch: 'none', clock: () => now, teams: { pidAlive: () => null } });
    store.start();
    await tick();
    const before = factsOf(attentionInput(store));
    expect(before.byKind.get('mode')?.get(`${SESSION.ralph}/ralph`)?.value).toBe('active');

    const dir = path.join(p.root, 'state', 'sessions', SESSION.ralph);
    writeOmcJson(path.join(dir, 'cancel-signal-state.json'), {
      active: true,
      requested_at: iso(now - 1000),
      expires_at: iso(now + 29_000),
      mode: 'ralph',
      source: SIGNAL_SOURCE,
    });
    fs.rmSync(path.join(dir, 'ralph-state.json'));
    // Only the removal is reported.
    store.sessions.refresh([{ type: 'unlink', rel: `state/sessions/${SESSION.ralph}/ralph-state.json` }], 'trailing');
    await tick();
    const mine = diffFacts(before, factsOf(attentionInput(store))).filter((t) => t.key.startsWith(SESSION.ralph));
    expect(mine.map((t) => [t.kind, t.from, t.to])).toEqual([
      ['cancel-signal', null, 'in-force'],
      ['mode', 'active', null],
      ['mode-status', expect.anything(), null],
      ['iteration', expect.anything(), null],
      // ralph's max (OMC 5.5 assumed here, whose hook raises it): gone with its file.
      ['max', '10', null],
    ]);
    expect(mine.map((t) => t.news).filter(Boolean)).toEqual([]);
  });
});

describe('an autopilot cancelled by another omc-top', () => {
  it('its signal no longer matches the state the cancel set inactive: no "loop finished" news all the same', async ({
    project: p,
    newStore,
  }) => {
    const now = READERS_CAPTURED_AT;
    const store = newStore({ root: p.root, watch: 'none', clock: () => now, teams: { pidAlive: () => null } });
    store.start();
    await tick();
    const before = factsOf(attentionInput(store));
    const key = `${SESSION.autopilot}/autopilot`;
    expect(before.byKind.get('mode')?.get(key)?.value).toBe('active');

    // What `omc-top cancel` does to an autopilot: the signal bound to the state as it was, then the state set inactive.
    const dir = path.join(p.root, 'state', 'sessions', SESSION.autopilot);
    const file = path.join(dir, 'autopilot-state.json');
    const text = fs.readFileSync(file, 'utf8');
    writeOmcJson(path.join(dir, 'cancel-signal-state.json'), autopilotSignal(text, now - 1000));
    writeOmcJson(file, { ...(JSON.parse(text) as object), active: false });
    store.sessions.refresh(
      [
        { type: 'change', rel: `state/sessions/${SESSION.autopilot}/cancel-signal-state.json` },
        { type: 'change', rel: `state/sessions/${SESSION.autopilot}/autopilot-state.json` },
      ],
      'trailing',
    );
    await tick();
    const mine = diffFacts(before, factsOf(attentionInput(store))).filter((t) => t.key === key && t.kind === 'mode');
    expect(mine.map((t) => [t.from, t.to])).toEqual([['active', 'inactive']]);
    expect(mine[0]!.news).toBeNull();
  });
});

describe('an omc-top signal left from an earlier run of the mode', () => {
  it('does not hide the natural finish of a run started after it: "loop finished" news', async ({
    project: p,
    newStore,
  }) => {
    const now = READERS_CAPTURED_AT;
    const store = newStore({ root: p.root, watch: 'none', clock: () => now, teams: { pidAlive: () => null } });
    const dir = path.join(p.root, 'state', 'sessions', SESSION.autopilot);
    const file = path.join(dir, 'autopilot-state.json');
    const text = fs.readFileSync(file, 'utf8');
    const state = JSON.parse(text) as { started_at: string };
    // The earlier run's cancel: omc-top's signal, written a minute before this run started, still on disk.
    writeOmcJson(
      path.join(dir, 'cancel-signal-state.json'),
      autopilotSignal(text, Date.parse(state.started_at) - 60_000),
    );
    store.start();
    await tick();
    const before = factsOf(attentionInput(store));
    const key = `${SESSION.autopilot}/autopilot`;
    expect(before.byKind.get('mode')?.get(key)?.value).toBe('active');

    // This run ends by itself: OMC sets it inactive in its terminal phase.
    writeOmcJson(file, { ...state, active: false, phase: 'complete' });
    store.sessions.refresh(
      [{ type: 'change', rel: `state/sessions/${SESSION.autopilot}/autopilot-state.json` }],
      'trailing',
    );
    await tick();
    const mine = diffFacts(before, factsOf(attentionInput(store))).filter((t) => t.key === key && t.kind === 'mode');
    expect(mine.map((t) => [t.from, t.to, t.news])).toEqual([['active', 'inactive', 'loop finished']]);
  });
});
