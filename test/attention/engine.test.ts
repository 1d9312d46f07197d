/**
 * The transition engine over real store snapshots of the real-OMC fixture:
 * each kind gives exactly one transition per change, nothing for the state
 * already there, nothing twice; what happened (a loop at its max, a loop
 * stopped by someone else) is news and never counted; the user's own cancel
 * raises nothing; what needs the user is a condition that holds now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { changeOf, diffFacts, factsOf, needsYou, type Transition } from '../../src/feeds/attention/engine.js';
import type { Fact } from '../../src/feeds/attention/kinds.js';
import type { NeedItem } from '../../src/feeds/attention/needs.js';
import { attentionInput, AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import { READERS_CAPTURED_AT, SESSION, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';

const tick = () => new Promise((r) => setImmediate(r));
let now = READERS_CAPTURED_AT;

/** The app's store over the real-OMC `project`, its clock at `at`. */
async function open(
  p: TempProject,
  newStore: (o: OmcStoreOptions) => OmcStore,
  at = READERS_CAPTURED_AT,
): Promise<OmcStore> {
  now = at;
  const store = newStore({ root: p.root, watch: 'none', clock: () => now, teams: { pidAlive: () => null } });
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

const ralphFile = (p: TempProject) => path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
const only = (ts: Transition[], kind: string) => ts.filter((t) => t.kind === kind);

describe('transition engine', () => {
  it('finds nothing between two pictures of the same state (old state is never news)', async ({
    project: p,
    newStore,
  }) => {
    const s = await open(p, newStore);
    const a = factsOf(attentionInput(s));
    await rescan(s);
    expect(diffFacts(a, factsOf(attentionInput(s)))).toEqual([]);
  });

  it('an iteration step is one transition; reaching max is news once, never counted', async ({
    project: p,
    newStore,
  }) => {
    const s = await open(p, newStore);
    const a = factsOf(attentionInput(s));
    const v = JSON.parse(fs.readFileSync(ralphFile(p), 'utf8'));
    writeOmcJson(ralphFile(p), { ...v, iteration: 4 });
    await rescan(s);
    const b = factsOf(attentionInput(s));
    const step = diffFacts(a, b);
    expect(only(step, 'iteration')).toMatchObject([
      { key: `${SESSION.ralph}/ralph`, from: '3', to: '4', needs: null, news: null },
    ]);
    writeOmcJson(ralphFile(p), { ...v, iteration: 10 });
    await rescan(s);
    const c = factsOf(attentionInput(s));
    const max = diffFacts(b, c).filter((t) => t.news);
    expect(max).toMatchObject([
      { kind: 'iteration', news: 'max reached, OMC extends it (+10)', needs: null, fact: { mode: 'ralph' } },
    ]);
    expect(needsYou(c)).toEqual(needsYou(b));
    // The same state again (OMC rewrites updatedAt): nothing.
    writeOmcJson(ralphFile(p), { ...v, iteration: 10, _meta: { ...v._meta, updatedAt: new Date(now).toISOString() } });
    await rescan(s);
    expect(diffFacts(c, factsOf(attentionInput(s))).filter((t) => t.kind === 'iteration' || t.news)).toEqual([]);
  });

  it('a loop whose file is removed by someone else stopped: news, not a need', async ({ project: p, newStore }) => {
    const s = await open(p, newStore);
    const a = factsOf(attentionInput(s));
    fs.rmSync(ralphFile(p));
    await rescan(s);
    const b = factsOf(attentionInput(s));
    const t = diffFacts(a, b).filter((x) => x.news || x.needs);
    expect(t).toMatchObject([
      { kind: 'mode', key: `${SESSION.ralph}/ralph`, from: 'active', to: null, news: 'loop stopped', needs: null },
    ]);
    expect(needsYou(b)).toEqual(needsYou(a));
  });

  it("omc-top's own cancel raises nothing: no news, no need, not even its verdict", async ({
    project: p,
    newStore,
  }) => {
    const s = await open(p, newStore, Date.now());
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
    expect(removed.filter((t) => t.needs || t.news)).toEqual([]);
    s.cancels.track(out as Parameters<typeof s.cancels.track>[0]);
    now += 31_000;
    s.cancels.evaluate();
    await rescan(s);
    const c = factsOf(attentionInput(s));
    const verdict = diffFacts(b, c);
    // No Claude process here to see stop: the state ended on disk, the verdict says so (`unobserved`, never a ✓).
    expect(only(verdict, 'cancel-verdict')).toMatchObject([{ key: SESSION.ralph, to: 'unobserved' }]);
    expect(verdict.filter((t) => t.needs || t.news)).toEqual([]);
    expect(needsYou(c)).toEqual(needsYou(a));
  });

  it('a file OMC needs turning unreadable is a problem line (a transition), not counted; fixing it clears it', async ({
    project: p,
    newStore,
  }) => {
    const s = await open(p, newStore);
    const a = factsOf(attentionInput(s));
    fs.writeFileSync(ralphFile(p), '{ "active": true, ');
    await rescan(s);
    const b = factsOf(attentionInput(s));
    const bad = diffFacts(a, b).filter((t) => t.kind === 'problem');
    expect(bad, JSON.stringify(bad)).toHaveLength(1);
    expect(bad[0]).toMatchObject({ needs: null, news: null });
    expect(bad[0]?.fact.path).toContain('ralph-state.json');
    expect(needsYou(b)).toEqual(needsYou(a));
    fs.writeFileSync(ralphFile(p), fs.readFileSync(path.join(FIXTURE_RALPH), 'utf8'));
    await rescan(s);
    const cleared = diffFacts(b, factsOf(attentionInput(s))).filter((t) => t.kind === 'problem');
    expect(cleared).toMatchObject([{ to: null, needs: null }]);
  });

  it('every worker process of a team gone (heartbeats still fresh): one stalled item for the team at once, not one per worker', async ({
    project: p,
    newStore,
  }) => {
    let alive = true;
    const store = newStore({
      root: p.root,
      watch: 'none',
      clock: () => READERS_CAPTURED_AT,
      teams: { pidAlive: () => alive, pidRecheckMs: 0, heartbeatStaleMs: 60_000 },
    });
    store.start();
    await tick();
    const s = store;
    const a = factsOf(attentionInput(s));
    const workers = s.teams.getSnapshot().teams.flatMap((t) => t.workers);
    expect(workers.length).toBeGreaterThan(1);
    expect(needsYou(a)).toEqual([]);
    // The fixture's workers share one pid (one driver wrote them): it dies; their heartbeats are still fresh.
    alive = false;
    // Nothing on disk changed: the domain's pid re-check timer (every turn here) is what notices, so wait
    // for it rather than for a fixed number of turns (on a loaded machine two turns may pass before it runs).
    await rescan(s);
    const b = await waitFor(() => {
      const now = factsOf(attentionInput(s));
      return needsYou(now).length > 0 ? now : null;
    });
    // "dead worker" is one worker gone while its team has a live one; with none left the team is stalled.
    expect(needsYou(b).map((n) => n.kind)).toEqual(['team-stalled']);
    expect(diffFacts(a, b).filter((t) => t.needs === 'dead worker')).toEqual([]);
    await rescan(s);
    expect(diffFacts(b, factsOf(attentionInput(s)))).toEqual([]);
  });

  it('the monitor reports the first read as baseline and each later change once', async ({ project: p, newStore }) => {
    const s = await open(p, newStore);
    const m = new AttentionMonitor(s);
    const seen: Transition[] = [];
    m.onTransitions((batch) => seen.push(...batch));
    await rescan(s);
    expect(seen).toEqual([]);
    const v = JSON.parse(fs.readFileSync(ralphFile(p), 'utf8'));
    writeOmcJson(ralphFile(p), { ...v, iteration: 4 });
    await rescan(s);
    await waitFor(() => seen.some((t) => t.kind === 'iteration'), { what: 'iteration transition' });
    await rescan(s);
    expect(seen.filter((t) => t.kind === 'iteration')).toHaveLength(1);
    const before = m.count.getSnapshot();
    expect(before).toBe(m.needsYou().length);
    writeOmcJson(ralphFile(p), { ...v, iteration: 10 });
    await rescan(s);
    // At its max the loop is news (a transition with `news`), and the count does not move.
    await waitFor(() => seen.some((t) => t.news === 'max reached, OMC extends it (+10)'), { what: 'max reached news' });
    expect(m.count.getSnapshot()).toBe(before);
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

describe('a need that changes under an unchanged value', () => {
  const fact = (value: string, needId: string | null): Fact => ({
    value,
    session: 's1',
    mode: 'ralph',
    team: null,
    worker: null,
    path: 'state/sessions/s1',
    need: needId === null ? null : ({ id: needId, reason: 'orphaned loop' } as NeedItem),
    needs: needId === null ? null : 'orphaned loop',
    news: null,
  });
  it('a need raised is one transition from the value to itself; a need that only ended, or nothing changed: none', () => {
    // An exited Claude whose orphaned loop omc-top cancelled: still exited, no longer a need. No "exited → exited"
    // line: the loop's end has its own, and the attention line drops the item (docs/attention.md).
    expect(changeOf('agent', 's1', fact('exited', 'orphaned:s1/ralph@1:2'), fact('exited', null))).toBeNull();
    const raised = changeOf('agent', 's1', fact('exited', null), fact('exited', 'orphaned:s1/ralph@1:2'));
    expect(raised).toMatchObject({ from: 'exited', to: 'exited', needs: 'orphaned loop' });
    expect(changeOf('agent', 's1', fact('exited', 'x'), fact('exited', 'x'))).toBeNull();
  });
});
