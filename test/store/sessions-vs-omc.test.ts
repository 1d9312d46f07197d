/**
 * omc-top must agree with OMC's own readers on the real fixture tree:
 * which modes are active per session (mode registry), and the progress
 * numbers OMC's HUD readers report.
 */
import { describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { buildJsonReport } from '../../src/store/report.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT, readReader, SESSION } from '../helpers/fixtures.js';

function snapshotAt(now: number) {
  const store = new OmcStore({ root: FIXTURE_TREE, watch: 'none', clock: () => now });
  store.start();
  const doc = buildJsonReport({
    root: FIXTURE_TREE,
    rootRule: 'test',
    notices: [],
    sessions: store.sessions.getSnapshot(),
  }) as any;
  void store.close();
  return doc;
}

describe('sessions on the real OMC fixture', () => {
  const doc = snapshotAt(READERS_CAPTURED_AT);
  const byId = (id: string) => doc.sessions.find((s: any) => s.id === id);

  it("matches OMC's mode registry: the same active modes per session", () => {
    const registry = readReader('mode_registry.json');
    for (const [role, entry] of Object.entries<any>(registry.by_session)) {
      const s = byId(entry.session_id);
      const active = (s?.modes ?? [])
        .filter((m: any) => m.active)
        .map((m: any) => m.mode)
        .sort();
      expect(active, role).toEqual([...entry.getActiveModes].sort());
    }
    const legacy = byId('legacy');
    expect(legacy.modes.filter((m: any) => m.active).map((m: any) => m.mode)).toEqual(
      registry.getActiveModes_no_session,
    );
  });

  it("matches OMC's HUD readers on progress (ralph iteration/max, autopilot phase and iteration)", () => {
    const hud = readReader('hud_omc_state.json');
    for (const entry of Object.values<any>(hud.by_session)) {
      const s = byId(entry.session_id);
      const ralph = entry.readRalphStateForHud;
      if (ralph) {
        const m = s.modes.find((x: any) => x.mode === 'ralph');
        expect([m.iteration, m.max_iterations]).toEqual([ralph.iteration, ralph.maxIterations]);
      }
      const ap = entry.readAutopilotStateForHud;
      if (ap) {
        const m = s.modes.find((x: any) => x.mode === 'autopilot');
        expect([m.phase, m.iteration, m.max_iterations]).toEqual([ap.phase, ap.iteration, ap.maxIterations]);
      }
      const uw = entry.readUltraworkStateForHud;
      if (uw) {
        const m = s.modes.find((x: any) => x.mode === 'ultrawork');
        expect(m.iteration).toBe(uw.reinforcementCount);
      }
    }
  });

  it('reports ultraqa progress as cycle/max_cycles and marks it retired in 5.5', () => {
    const m = byId(SESSION.ultraqa).modes[0];
    expect([m.mode, m.iteration, m.max_iterations, m.phase, m.retired_in_omc_5_5]).toEqual([
      'ultraqa',
      2,
      5,
      'fix',
      true,
    ]);
  });

  it('classifies finished, stale and active sessions by OMC rules at capture time', () => {
    expect(byId(SESSION.finished).modes[0].status).toBe('finished');
    expect(byId(SESSION.stale).modes[0].status).toBe('stale');
    expect(byId(SESSION.ralph).modes.map((m: any) => m.status)).toEqual(['active', 'active']);
    // team written by state_write has started_at, so it is fresh at capture time.
    expect(byId(SESSION.team).modes[0]).toMatchObject({ mode: 'team', status: 'active', phase: 'team-exec' });
  });

  it('shows the cancelled session with its fresh cancel signal and no modes left', () => {
    const s = byId(SESSION.cancelled);
    expect(s.modes).toEqual([]);
    expect(s.cancel).toMatchObject({ source: 'state_clear', mode: 'ultrawork', targeted: true });
    expect(s.status).toBe('cancelling');
  });

  it('goes stale two hours after the last Stop-hook timestamp, without any file changing', () => {
    const later = snapshotAt(READERS_CAPTURED_AT + 3 * 60 * 60 * 1000);
    const s = later.sessions.find((x: any) => x.id === SESSION.ralph);
    expect(s.modes[0].status).toBe('stale');
    expect(s.modes[0].active).toBe(true);
  });

  it('has only the fixed field names in the JSON document and no problems on a clean tree', () => {
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['root', 'sessions', 'problems']));
    expect(doc.problems).toEqual([]);
    for (const s of doc.sessions) {
      for (const m of s.modes) {
        expect(Object.keys(m)).toEqual(
          expect.arrayContaining([
            'mode',
            'active',
            'status',
            'iteration',
            'max_iterations',
            'phase',
            'updated_at',
            'path',
          ]),
        );
      }
    }
  });
});
