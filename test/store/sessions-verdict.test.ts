/**
 * Issue 11's observed cases as named regressions, through the real sessions domain (what the
 * rows, detail and --json show). The differential tests prove the engine against the real hooks;
 * these pin what a user sees for each case.
 */
import { makeOmcInstall } from '../../src/store/omc-install.js';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { OmcStore, type OmcStoreOptions } from '../../src/store/store.js';
import type { OmcInstall } from '../../src/store/omc-install.js';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const S = 'a1b2c3d4-0000-4000-8000-000000000001';
const T = 'a1b2c3d4-0000-4000-8000-000000000002';
const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const iso = (ago: number) => new Date(NOW - ago).toISOString();

const omc = (rules: '5.5.0' | '4.4.4'): OmcInstall => makeOmcInstall(rules, 'test');

function open(
  p: TempProject,
  newStore: (o: OmcStoreOptions) => OmcStore,
  files: Record<string, unknown>,
  rules: '5.5.0' | '4.4.4' = '5.5.0',
) {
  for (const [rel, v] of Object.entries(files)) writeOmcJson(path.join(p.root, rel), v);
  const store = newStore({ root: p.root, watch: 'none', clock: () => NOW, projectDir: p.dir, omc: omc(rules) });
  store.start();
  const snap = store.sessions.getSnapshot();
  return { snap, session: (id: string) => snap.sessions.find((s) => s.id === id)! };
}

const fresh = { started_at: iso(60_000), last_checked_at: iso(5_000) };

describe('statuses say what the Stop hook will do (issue 11)', () => {
  it('autopilot after 20 reinforcements: "reinforced 20/20", not enforced', ({ emptyProject: p, newStore }) => {
    const { session } = open(p, newStore, {
      [`state/sessions/${S}/autopilot-state.json`]: {
        active: true,
        phase: 'execution',
        reinforcement_count: 20,
        session_id: S,
        ...fresh,
      },
    });
    expect(session(S).modes[0]).toMatchObject({
      status: 'not-enforced',
      active: true,
      verdict: { rule: 'reinforced-max', detail: 'reinforced 20/20: the hook lets it stop' },
    });
    expect(session(S).verdict).toMatchObject({ decision: 'stop' });
  });

  it('autopilot after 19 reinforcements is still held: the hook blocks at the 20th Stop', ({
    emptyProject: p,
    newStore,
  }) => {
    const { session } = open(p, newStore, {
      [`state/sessions/${S}/autopilot-state.json`]: {
        active: true,
        phase: 'execution',
        reinforcement_count: 19,
        session_id: S,
        ...fresh,
      },
    });
    expect(session(S).modes[0]).toMatchObject({ status: 'enforced' });
    expect(session(S).verdict).toMatchObject({ decision: 'block', mode: 'autopilot' });
  });

  it("a session whose only state file sits in another session's directory gets a row of its own", ({
    emptyProject: p,
    newStore,
  }) => {
    const { snap, session } = open(p, newStore, {
      [`state/sessions/${T}/session-started.json`]: { session_id: T, started_at: iso(120_000) },
      [`state/sessions/${T}/ralph-state.json`]: { active: true, iteration: 2, session_id: S, ...fresh },
    });
    // The hook of S finds its ralph there (an owned copy) and blocks; T's own hook ignores it.
    expect(snap.sessions.map((x) => x.id)).toContain(S);
    expect(session(S).verdict).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(session(T).verdict).toMatchObject({ decision: 'stop' });
  });

  it('stop_hook_active: a ralph the hook already blocked this turn is paused, not enforced (5.5.0)', ({
    emptyProject: p,
    newStore,
  }) => {
    writeOmcJson(path.join(p.root, `state/sessions/${S}/ralph-state.json`), { active: true, session_id: S, ...fresh });
    const store = newStore({ root: p.root, watch: 'none', clock: () => NOW, projectDir: p.dir, omc: omc('5.5.0') });
    store.start();
    store.sessions.setStopFacts(new Map([[S, { stopHookActive: true, transcriptPercent: 10 }]]));
    const s = store.sessions.getSnapshot().sessions.find((x) => x.id === S)!;
    expect(s.verdict).toMatchObject({ decision: 'stop', rule: 'stop-hook-active' });
    expect(s.modes[0]).toMatchObject({ status: 'paused', enforced: false });
  });

  it('a legacy (session-less) cancel signal pauses every session, and each of them shows it', ({
    emptyProject: p,
    newStore,
  }) => {
    const { session } = open(p, newStore, {
      [`state/sessions/${S}/ralph-state.json`]: { active: true, session_id: S, ...fresh },
      [`state/sessions/${T}/ralph-state.json`]: { active: true, session_id: T, ...fresh },
      'state/cancel-signal-state.json': {
        active: true,
        requested_at: iso(2_000),
        expires_at: iso(2_000 - 30_000),
        mode: 'ralph',
        source: 'x',
      },
    });
    for (const id of [S, T]) {
      // Their loops keep their state: a pause of each, not a cancel (nothing of theirs is being ended).
      expect(session(id).status).toBe('paused');
      expect(session(id).cancel).toMatchObject({
        path: 'state/cancel-signal-state.json',
        inForce: true,
        untilMs: NOW + 28_000,
      });
    }
  });

  it('an autopilot pause whose digest no longer matches is not in force (no countdown)', ({
    emptyProject: p,
    newStore,
  }) => {
    const { session } = open(p, newStore, {
      [`state/sessions/${S}/autopilot-state.json`]: { active: true, phase: 'qa', session_id: S, ...fresh },
      [`state/sessions/${S}/cancel-signal-state.json`]: {
        active: true,
        requested_at: iso(2_000),
        expires_at: iso(2_000 - 30_000),
        mode: 'autopilot',
        source: 'omc-top',
        target_state_sha256: 'b'.repeat(64),
      },
    });
    expect(session(S).status).toBe('enforced');
    expect(session(S).cancel).toMatchObject({ inForce: false });
    expect(session(S).cancel?.reason).toContain('digest');
  });

  it('OMC 4.4.4: a signal pauses nothing (the hook has no cancel check), and ralph without max shows 4/100', ({
    emptyProject: p,
    newStore,
  }) => {
    const { session } = open(
      p,
      newStore,
      {
        [`state/sessions/${S}/ralph-state.json`]: { active: true, iteration: 4, session_id: S, ...fresh },
        [`state/sessions/${S}/cancel-signal-state.json`]: {
          active: true,
          requested_at: iso(2_000),
          mode: 'ralph',
          source: 'x',
        },
      },
      '4.4.4',
    );
    expect(session(S).status).toBe('enforced');
    expect(session(S).cancel).toMatchObject({ inForce: false });
    expect(session(S).cancel?.reason).toContain('does not read cancel signals');
    expect([session(S).modes[0]?.iteration, session(S).modes[0]?.max]).toEqual([4, 100]);
  });

  it('wrong-typed fields: one problem line per file naming each field, the type and the value; the mode still shows', ({
    emptyProject: p,
    newStore,
  }) => {
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    const { snap, session } = open(p, newStore, {
      [`state/sessions/${S}/ralph-state.json`]: {
        active: 'yes',
        phase: { x: 1 },
        iteration: 'many',
        session_id: S,
        ...fresh,
      },
      [`state/sessions/${S}/ultraqa-state.json`]: { active: true, cycle: deep, session_id: S, ...fresh },
    });
    const msgs = snap.problems.map((x) => `${x.path}: ${x.message}`);
    expect(msgs).toContain(
      `state/sessions/${S}/ralph-state.json: fields OMC reads have the wrong type: active should be true or false, found "yes"; iteration should be a number, found "many"; phase should be text, found an object`,
    );
    expect(msgs).toContain(
      `state/sessions/${S}/ultraqa-state.json: fields OMC reads have the wrong type: cycle should be a number, found an array (1 items)`,
    );
    // Still shown; "yes" is truthy to the hook, so this ralph is enforced all the same.
    expect(session(S).modes.map((m) => [m.mode, m.status])).toEqual([
      ['ralph', 'enforced'],
      ['ultraqa', 'not-enforced'],
    ]);
  });

  it('a team whose workers are all gone is still "enforced" by the hook when its state is fresh; a stale one is stale', ({
    emptyProject: p,
    newStore,
  }) => {
    const { session } = open(p, newStore, {
      [`state/sessions/${S}/team-state.json`]: { active: true, current_phase: 'team-exec', session_id: S, ...fresh },
      [`state/sessions/${T}/team-state.json`]: {
        active: true,
        current_phase: 'team-exec',
        session_id: T,
        started_at: iso(14 * 3_600_000),
      },
    });
    expect(session(S).modes[0]?.status).toBe('enforced');
    expect(session(T).modes[0]?.status).toBe('stale');
  });

  it('a terminal phase is the same fact for a team and an autopilot: finished, rule terminal (the hook skips both)', ({
    emptyProject: p,
    newStore,
  }) => {
    const U = 'a1b2c3d4-0000-4000-8000-000000000003';
    const { session } = open(p, newStore, {
      [`state/sessions/${S}/team-state.json`]: { active: true, current_phase: 'complete', session_id: S, ...fresh },
      [`state/sessions/${T}/autopilot-state.json`]: { active: true, phase: 'complete', session_id: T, ...fresh },
      // A phase the hook does not know is not terminal: still "not enforced", by the phase rule.
      [`state/sessions/${U}/team-state.json`]: { active: true, current_phase: 'mulling', session_id: U, ...fresh },
    });
    const shown = (id: string) => {
      const m = session(id).modes[0]!;
      return { session: session(id).status, mode: m.status, enforced: m.enforced, rule: m.verdict.rule };
    };
    expect(shown(S)).toEqual({ session: 'finished', mode: 'finished', enforced: false, rule: 'terminal' });
    expect(shown(T)).toEqual({ session: 'finished', mode: 'finished', enforced: false, rule: 'terminal' });
    expect(session(S).modes[0]!.verdict.detail).toBe(session(T).modes[0]!.verdict.detail);
    expect(shown(U)).toEqual({ session: 'not-enforced', mode: 'not-enforced', enforced: false, rule: 'phase' });
    for (const id of [S, T, U]) expect(session(id).verdict).toMatchObject({ decision: 'stop' });
  });
});

describe("the sessions domain's view of the tree is the disk's", () => {
  it(
    'on 200 generated trees, the verdict from the domain records equals the verdict from a fresh disk read',
    { timeout: scaled(120_000) },
    async () => {
      const fc = (await import('fast-check')).default;
      const { caseArb, caseFiles, S: GS, NOW: GNOW } = await import('../helpers/verdict-arb.js');
      const { stopVerdict } = await import('../../src/store/verdict/index.js');
      const { diskTree } = await import('../../src/store/verdict/disk-tree.js');
      const fs = await import('node:fs');
      for (const [i, g] of fc.sample(caseArb('/__CASE_CWD__'), { seed: 7, numRuns: 200 }).entries()) {
        const proj = makeProject();
        try {
          for (const [rel, text] of caseFiles(g)) {
            const abs = path.join(proj.root, rel.replaceAll('/__CASE_CWD__', proj.dir));
            fs.mkdirSync(path.dirname(abs), { recursive: true });
            fs.writeFileSync(abs, text.replaceAll('/__CASE_CWD__', proj.dir));
          }
          const st = new OmcStore({
            root: proj.root,
            watch: 'none',
            clock: () => GNOW,
            projectDir: proj.dir,
            omc: omc('5.5.0'),
          });
          st.start();
          const fromDomain = st.sessions.getSnapshot().sessions.find((s) => s.id === GS)?.verdict;
          await st.close();
          const fromDisk = stopVerdict(diskTree(proj.root), {
            rules: '5.5.0',
            sessionId: GS,
            cwd: proj.dir,
            now: GNOW,
          });
          expect([i, fromDomain?.decision, fromDomain?.mode, fromDomain?.rule]).toEqual([
            i,
            fromDisk.decision,
            fromDisk.mode,
            fromDisk.rule,
          ]);
        } finally {
          proj.cleanup();
        }
      }
    },
  );
});
