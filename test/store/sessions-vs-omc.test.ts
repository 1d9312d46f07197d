/**
 * omc-top must agree with OMC's own readers on the real fixture tree:
 * which modes are active per session (mode registry), and the progress
 * numbers OMC's HUD readers report.
 */
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT, readReader, SESSION } from '../helpers/fixtures.js';

/** Where the fixture was captured: the hooks ran there, and project_path says so. */
const CAPTURED_PROJECT = '/home/dev/acme-webapp';

function snapshotAt(now: number, rules: '5.5.0' | '4.4.4' = '5.5.0') {
  const store = new OmcStore({
    root: FIXTURE_TREE,
    watch: 'none',
    clock: () => now,
    projectDir: CAPTURED_PROJECT,
    omc: makeOmcInstall(rules, 'test'),
  });
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

  it("matches OMC's mode registry: the same active modes per session (4.x rules: the capture is 4.15.10's)", () => {
    const doc = snapshotAt(READERS_CAPTURED_AT, '4.4.4');
    const byId = (id: string) => doc.sessions.find((s: any) => s.id === id);
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

  it("under 5.5.0 rules the retired modes leave the registry, as 5.5.0's state_list_active no longer lists them", () => {
    expect(byId(SESSION.stale).modes[0]).toMatchObject({ mode: 'ultrawork', active: false });
    expect(byId(SESSION.ralph).modes.map((m: any) => [m.mode, m.active])).toEqual([
      ['ralph', true],
      ['ultrawork', false],
    ]);
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

  it('classifies finished, stale and enforced sessions by the 5.5.0 Stop-hook rules at capture time', () => {
    expect(byId(SESSION.finished).modes[0].status).toBe('finished');
    // A 4.x ultrawork read with 5.5.0: the registry still says active, the Stop hook never reads it.
    expect(byId(SESSION.stale).modes[0]).toMatchObject({
      status: 'not-enforced',
      active: false,
      enforced: false,
      verdict: { rule: 'retired', detail: 'retired in 5.5.0: the Stop hook does not read it' },
    });
    // Issue 11, observed: ralph written through state_write has only _meta.sessionId; 5.5.0's
    // Stop hook wants a top-level session_id, so it lets the agent stop (the registry lists it).
    expect(byId(SESSION.ralph).modes.map((m: any) => [m.mode, m.active, m.status, m.verdict.rule])).toEqual([
      ['ralph', true, 'not-enforced', 'no-session-id'],
      ['ultrawork', false, 'not-enforced', 'retired'],
    ]);
    expect(byId(SESSION.ralph).modes[0].verdict.detail).toBe('written without session_id: the Stop hook ignores it');
    // The ralph the real keyword-detector hook wrote carries session_id: enforced.
    expect(byId(SESSION.hookRalph).modes[0]).toMatchObject({ mode: 'ralph', status: 'enforced', enforced: true });
    expect(byId(SESSION.hookRalph).verdict).toMatchObject({ decision: 'block', mode: 'ralph' });
    // Issue 11, observed: team written by state_write is fresh but has no top-level session_id.
    expect(byId(SESSION.team).modes[0]).toMatchObject({
      mode: 'team',
      active: true,
      status: 'not-enforced',
      phase: 'team-exec',
      verdict: { rule: 'no-session-id' },
    });
  });

  it("shows state_clear's targeted signal as not in force: the 5.5.0 Stop hook rejects target_* signals", () => {
    const s = byId(SESSION.cancelled);
    expect(s.modes).toEqual([]);
    expect(s.cancel).toMatchObject({ source: 'state_clear', mode: 'ultrawork', targeted: true, in_force: false });
    expect(s.status).toBe('idle');
  });

  it('goes stale two hours after the last Stop-hook timestamp, without any file changing', () => {
    const later = snapshotAt(READERS_CAPTURED_AT + 3 * 60 * 60 * 1000);
    const s = later.sessions.find((x: any) => x.id === SESSION.ralph);
    expect(s.modes[0].status).toBe('stale');
    expect(s.modes[0].active).toBe(true);
    const hook = later.sessions.find((x: any) => x.id === SESSION.hookRalph);
    expect(hook.modes[0]).toMatchObject({ status: 'stale', verdict: { rule: 'stale' } });
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
