/**
 * The transition engine over real store snapshots of the real-OMC fixture:
 * each kind gives exactly one transition per change, nothing for the state
 * already there, nothing twice, and omc-top's own cancel is news only as its
 * verdict.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { diffFacts, factsOf, needsYou, type Transition } from '../../src/feeds/attention/engine.js';
import { attentionInput, AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { OmcStore } from '../../src/store/store.js';
import {
  makeProject,
  READERS_CAPTURED_AT,
  SESSION,
  waitFor,
  writeOmcJson,
  type TempProject,
} from '../helpers/fixtures.js';

let p: TempProject | null = null;
let store: OmcStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
  p?.cleanup();
  p = null;
});

const tick = () => new Promise((r) => setImmediate(r));
let now = READERS_CAPTURED_AT;

async function open(at = READERS_CAPTURED_AT): Promise<OmcStore> {
  p = makeProject({ withFixture: true });
  now = at;
  store = new OmcStore({ root: p.root, watch: 'none', clock: () => now, teams: { pidAlive: () => null } });
  store.start();
  await tick();
  return store;
}

async function rescan(s: OmcStore): Promise<void> {
  s.sessions.scan();
  s.teams.scan();
  await tick();
  await tick();
}

const ralphFile = () => path.join((p as TempProject).root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
const only = (ts: Transition[], kind: string) => ts.filter((t) => t.kind === kind);

describe('transition engine', () => {
  it('finds nothing between two pictures of the same state (old state is never news)', async () => {
    const s = await open();
    const a = factsOf(attentionInput(s));
    await rescan(s);
    expect(diffFacts(a, factsOf(attentionInput(s)))).toEqual([]);
  });

  it('an iteration step is one transition; reaching max needs you once', async () => {
    const s = await open();
    const a = factsOf(attentionInput(s));
    const v = JSON.parse(fs.readFileSync(ralphFile(), 'utf8'));
    writeOmcJson(ralphFile(), { ...v, iteration: 4 });
    await rescan(s);
    const b = factsOf(attentionInput(s));
    const step = diffFacts(a, b);
    expect(only(step, 'iteration')).toMatchObject([{ key: `${SESSION.ralph}/ralph`, from: '3', to: '4', needs: null }]);
    writeOmcJson(ralphFile(), { ...v, iteration: 10 });
    await rescan(s);
    const c = factsOf(attentionInput(s));
    const max = diffFacts(b, c).filter((t) => t.needs);
    expect(max).toMatchObject([{ kind: 'iteration', needs: 'max iterations reached', fact: { mode: 'ralph' } }]);
    expect(needsYou(c).some((n) => n.reason === 'max iterations reached')).toBe(true);
    // The same state again (OMC rewrites updatedAt): nothing.
    writeOmcJson(ralphFile(), { ...v, iteration: 10, _meta: { ...v._meta, updatedAt: new Date(now).toISOString() } });
    await rescan(s);
    expect(diffFacts(c, factsOf(attentionInput(s))).filter((t) => t.kind === 'iteration' || t.needs)).toEqual([]);
  });

  it('a loop whose file is removed by someone else stopped: needs you', async () => {
    const s = await open();
    const a = factsOf(attentionInput(s));
    fs.rmSync(ralphFile());
    await rescan(s);
    const t = diffFacts(a, factsOf(attentionInput(s))).filter((x) => x.needs);
    expect(t).toMatchObject([
      { kind: 'mode', key: `${SESSION.ralph}/ralph`, from: 'active', to: null, needs: 'loop stopped' },
    ]);
  });

  it("omc-top's own cancel is news only as its confirmation", async () => {
    const s = await open(Date.now());
    const a = factsOf(attentionInput(s));
    const planned = planCancel(s.root, { sessionId: SESSION.ralph, mode: null, pauseOnly: false }, now);
    if (!planned.ok) throw new Error(planned.message);
    const out = await executeCancel(s.root, planned.plan, { now: () => now });
    if (out.kind !== 'done' && !('ok' in out)) throw new Error(JSON.stringify(out));
    // The watcher would see the removals before the tracker has the cancel: the signal says it is ours.
    await rescan(s);
    const b = factsOf(attentionInput(s));
    const removed = diffFacts(a, b);
    expect(only(removed, 'mode').length).toBeGreaterThan(0);
    expect(removed.filter((t) => t.needs)).toEqual([]);
    s.cancels.track(out as Parameters<typeof s.cancels.track>[0]);
    now += 31_000;
    s.cancels.evaluate();
    await rescan(s);
    const c = factsOf(attentionInput(s));
    expect(diffFacts(b, c).filter((t) => t.needs)).toMatchObject([
      { kind: 'cancel-verdict', key: SESSION.ralph, needs: 'loop cancelled' },
    ]);
  });

  it('a file OMC needs turning unreadable is a problem that needs you; fixing it clears it', async () => {
    const s = await open();
    const a = factsOf(attentionInput(s));
    fs.writeFileSync(ralphFile(), '{ "active": true, ');
    await rescan(s);
    const b = factsOf(attentionInput(s));
    const bad = diffFacts(a, b).filter((t) => t.kind === 'problem');
    expect(bad, JSON.stringify(bad)).toHaveLength(1);
    expect(bad[0]?.needs).toMatch(/^problem: /);
    expect(bad[0]?.fact.path).toContain('ralph-state.json');
    fs.writeFileSync(ralphFile(), fs.readFileSync(path.join(FIXTURE_RALPH), 'utf8'));
    await rescan(s);
    const cleared = diffFacts(b, factsOf(attentionInput(s))).filter((t) => t.kind === 'problem');
    expect(cleared).toMatchObject([{ to: null, needs: null }]);
  });

  it('a worker whose process died is a dead worker, once', async () => {
    p = makeProject({ withFixture: true });
    let alive: boolean | null = true;
    store = new OmcStore({
      root: p.root,
      watch: 'none',
      clock: () => READERS_CAPTURED_AT,
      teams: { pidAlive: () => alive, pidRecheckMs: 0 },
    });
    store.start();
    await tick();
    const a = factsOf(attentionInput(store));
    const workers = [...(a.byKind.get('worker')?.values() ?? [])];
    expect(workers.length).toBeGreaterThan(0);
    alive = false;
    // Nothing on disk changed: the domain's pid re-check timer (every turn here) is what notices, so wait
    // for it rather than for a fixed number of turns (on a loaded machine two turns may pass before it runs).
    const s = store;
    await rescan(s);
    const b = await waitFor(() => {
      const now = factsOf(attentionInput(s));
      return diffFacts(a, now).some((t) => t.kind === 'worker' && t.needs === 'dead worker') ? now : null;
    });
    const dead = diffFacts(a, b).filter((t) => t.kind === 'worker' && t.needs === 'dead worker');
    expect(dead.length).toBeGreaterThan(0);
    await rescan(store);
    expect(diffFacts(b, factsOf(attentionInput(store)))).toEqual([]);
  });

  it('the monitor reports the first read as baseline and each later change once', async () => {
    const s = await open();
    const m = new AttentionMonitor(s);
    const seen: Transition[] = [];
    m.onTransitions((batch) => seen.push(...batch));
    await rescan(s);
    expect(seen).toEqual([]);
    const v = JSON.parse(fs.readFileSync(ralphFile(), 'utf8'));
    writeOmcJson(ralphFile(), { ...v, iteration: 4 });
    await rescan(s);
    await waitFor(() => seen.some((t) => t.kind === 'iteration'), { what: 'iteration transition' });
    await rescan(s);
    expect(seen.filter((t) => t.kind === 'iteration')).toHaveLength(1);
    const before = m.count.getSnapshot();
    expect(before).toBe(m.needsYou().length);
    writeOmcJson(ralphFile(), { ...v, iteration: 10 });
    await rescan(s);
    // The fixture's ralph is written without a top-level session_id (the Stop hook ignores it: already
    // "loop will stop"); at its max the reason becomes the iteration kind's, and the count follows the list.
    await waitFor(
      () =>
        m.needsYou().some((n) => n.kind === 'iteration' && n.reason === 'max iterations reached') &&
        m.count.getSnapshot() === m.needsYou().length
          ? true
          : null,
      { what: `max iterations reached among the needs (${before} before): ${JSON.stringify(m.needsYou())}` },
    );
    m.dispose();
  });
});

const FIXTURE_RALPH = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
  'fixtures',
  'real-omc',
  'tree',
  'state',
  'sessions',
  SESSION.ralph,
  'ralph-state.json',
);
