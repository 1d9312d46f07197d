/**
 * The tracker's verdicts, with the clock under test control: a cancel is
 * "cancelled" only once the signal window is over with nothing active, a
 * re-armed loop is "cancel did not take", a pause is judged by OMC's rule
 * (digest included) for as long as it lasts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { executeCancel, type CancelDone } from '../../src/store/cancel/execute.js';
import { planCancel, type CancelRequest } from '../../src/store/cancel/plan.js';
import { CancelTracker, type AgentView, type AgentWatch } from '../../src/store/cancel/tracker.js';
import { OmcStore } from '../../src/store/store.js';
import { SESSION, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';

let now = Date.now();
const clock = () => now;
const abs = (p: TempProject, rel: string) => path.join(p.root, rel);
const readJson = (p: TempProject, rel: string) => JSON.parse(fs.readFileSync(abs(p, rel), 'utf8'));

async function cancel(p: TempProject, req: CancelRequest): Promise<CancelDone> {
  const r = planCancel(p.root, req, clock());
  if (!r.ok) throw new Error(r.message);
  const out = await executeCancel(p.root, r.plan, { now: clock });
  if (out.kind !== 'done') throw new Error(out.kind);
  return out;
}

function setup(p: TempProject): { tracker: CancelTracker } {
  now = Date.now();
  const tracker = new CancelTracker(p.root, clock, null);
  onTestFinished(() => tracker.dispose());
  return { tracker };
}

describe('cancel tracker', () => {
  it('counts down while watching; with no Claude to see it settles on "ended on disk", never a ✓', async ({
    project: p,
  }) => {
    const { tracker } = setup(p);
    const e = tracker.track(await cancel(p, { sessionId: SESSION.ralph, mode: null, pauseOnly: false }));
    expect(e).toMatchObject({
      phase: 'ended',
      final: false,
      text: "ralph, ultrawork ended on disk · Claude's stop not observed",
    });
    expect(tracker.secondsLeft(SESSION.ralph, now)).toBe(30);
    now += 12_000;
    tracker.evaluate();
    expect(tracker.secondsLeft(SESSION.ralph, now)).toBe(18);
    now += 18_001;
    tracker.evaluate();
    expect(tracker.get(SESSION.ralph)).toMatchObject({
      phase: 'unobserved',
      final: true,
      settledMs: now,
      text: "ralph, ultrawork ended on disk · Claude's stop not observed",
      reason: expect.stringMatching(/^ended on disk: the signal window is over.*Claude's stop was not observed$/),
    });
    expect(tracker.get(SESSION.ralph)?.text).not.toContain('✓');
  });

  it('a loop re-armed inside the window (a Stop event already under way) ends as "cancel did not take"', async ({
    project: p,
  }) => {
    const { tracker } = setup(p);
    const S = SESSION.ralph;
    const rel = `state/sessions/${S}/ralph-state.json`;
    const original = readJson(p, rel);
    tracker.track(await cancel(p, { sessionId: S, mode: 'ralph', pauseOnly: false }));
    writeOmcJson(abs(p, rel), { ...original, iteration: 4, last_checked_at: new Date(now).toISOString() });
    now += 1_000;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({
      phase: 'waiting',
      final: false,
      text: expect.stringMatching(/^not ended yet: ralph active again/),
    });
    now += 30_000;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({
      phase: 'not-taken',
      final: true,
      text: `cancel did not take: ralph active again: ${rel} was rewritten after the cancel (a Stop event already under way re-armed it)`,
    });
  });

  it('a pause stays "paused" while OMC honours it and reports "pause over" at expiry, the loop untouched', async ({
    project: p,
  }) => {
    const { tracker } = setup(p);
    const S = SESSION.ralph;
    tracker.track(await cancel(p, { sessionId: S, mode: null, pauseOnly: true }));
    expect(tracker.get(S)).toMatchObject({
      phase: 'paused',
      text: "paused ralph, ultrawork · Claude's stop not observed",
    });
    now += 30_001;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({ phase: 'pause-over', final: true });
    expect(readJson(p, `state/sessions/${S}/ralph-state.json`).active).toBe(true);
  });

  it('a paused autopilot whose state moves under the signal is reported at once: the digest no longer matches', async ({
    project: p,
  }) => {
    const { tracker } = setup(p);
    const S = SESSION.autopilot;
    const rel = `state/sessions/${S}/autopilot-state.json`;
    writeOmcJson(abs(p, rel), { ...readJson(p, rel), last_checked_at: new Date(now).toISOString() });
    const done = await cancel(p, { sessionId: S, mode: null, pauseOnly: true });
    expect(done).toMatchObject({ ok: true, signalInForce: true });
    tracker.track(done);
    expect(tracker.get(S)?.phase).toBe('paused');
    writeOmcJson(abs(p, rel), { ...readJson(p, rel), reinforcement_count: 1 });
    now += 2_000;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({
      phase: 'not-taken',
      final: true,
      text: 'pause did not take: the autopilot state changed after the signal was written, so its digest no longer matches',
    });
  });

  it('a signal removed before it expires (session end, another cancel) closes the window early', async ({
    project: p,
  }) => {
    const { tracker } = setup(p);
    const S = SESSION.ralph;
    const done = await cancel(p, { sessionId: S, mode: null, pauseOnly: false });
    tracker.track(done);
    fs.unlinkSync(abs(p, done.signal.rel));
    now += 3_000;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({ phase: 'unobserved', final: true });
  });

  it('one tracker per store, re-judging on disk changes the sessions domain sees', async ({ project: p }) => {
    setup(p);
    const store = new OmcStore({ root: p.root, watch: 'none', clock });
    store.start();
    const t = store.cancels;
    const S = SESSION.ralph;
    const rel = `state/sessions/${S}/ralph-state.json`;
    const original = readJson(p, rel);
    t.track(await cancel(p, { sessionId: S, mode: 'ralph', pauseOnly: false }));
    writeOmcJson(abs(p, rel), { ...original, last_checked_at: new Date(now).toISOString() });
    store.sessions.scan(); // what the watcher does on a change
    await new Promise((r) => setImmediate(r)); // SnapshotCell notifies on the next macrotask
    expect(t.get(S)?.phase).toBe('waiting');
    t.dispose();
    await store.close();
  });
});

/** The claude domain's answer for one session, scripted: what the process does, and when its turns end. */
function scriptedAgent(initial: AgentView): AgentWatch & { set(v: Partial<AgentView>): void } {
  let view = initial;
  const listeners = new Set<() => void>();
  return {
    view: () => view,
    subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    set(v) {
      view = { ...view, ...v };
      for (const l of listeners) l();
    },
  };
}

function setupWithAgent(p: TempProject, initial: AgentView) {
  now = Date.now();
  const agent = scriptedAgent(initial);
  const tracker = new CancelTracker(p.root, clock, null, undefined, agent);
  onTestFinished(() => tracker.dispose());
  return { tracker, agent };
}

describe('cancel tracker: Claude seen to stop', () => {
  const busy = (sinceMs: number): AgentView => ({ status: 'busy', pid: 4242, sinceMs, lastTurnEndMs: null });

  it('a busy Claude: no ✓ while it works, past the signal window too; "stopped ✓ in 46s" when its registry turns idle', async ({
    project: p,
  }) => {
    const { tracker, agent } = setupWithAgent(p, busy(Date.now() - 5_000));
    const S = SESSION.ralph;
    const e = tracker.track(await cancel(p, { sessionId: S, mode: null, pauseOnly: false }));
    expect(e).toMatchObject({
      phase: 'ended',
      final: false,
      text: 'ralph, ultrawork ended on disk · Claude busy, not stopped yet',
    });
    expect(e.claude).toMatchObject({ atCancel: 'busy', pid: 4242, stoppedMs: null });
    // The 30 s window closes with Claude still in its 40 s tool call: still no mark, still watching.
    now += 31_000;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({ phase: 'ended', final: false });
    expect(tracker.get(S)?.text).not.toContain('✓');
    // The Stop hook ran and let it stop: the registry turns idle (statusUpdatedAt is the moment).
    now += 15_000;
    agent.set({ status: 'idle', sinceMs: e.requestedMs + 46_000 });
    expect(tracker.get(S)).toMatchObject({
      phase: 'stopped',
      final: true,
      text: 'stopped ✓ in 46s ralph, ultrawork',
      claude: { seen: 'idle', stoppedMs: e.requestedMs + 46_000 },
    });
    expect(tracker.get(S)?.reason).toContain(
      'Claude (pid 4242) stopped 46s after the signal: its registry entry turned idle',
    );
  });

  it('a prompt waited on after the cancel, then busy again: no process can tell the turn, so the verdict is "ended", no ✓, and that is what is recorded', async ({
    project: p,
  }) => {
    now = Date.now();
    const agent = scriptedAgent(busy(now - 5_000));
    const told: Array<{ key: string; settled: unknown }> = [];
    const recorder = {
      add: async () => null,
      settle: async (key: string, _at: number, settled: unknown) => (told.push({ key, settled }), null),
    };
    const tracker = new CancelTracker(p.root, clock, null, undefined, agent, recorder);
    onTestFinished(() => tracker.dispose());
    const S = SESSION.ralph;
    const e = tracker.track(await cancel(p, { sessionId: S, mode: null, pauseOnly: false }));
    expect(e.claude.turnUnsure ?? false).toBe(false);
    now += 4_000;
    agent.set({ status: 'waiting', sinceMs: now });
    now += 3_000;
    agent.set({ status: 'busy', sinceMs: now });
    expect(tracker.get(S)?.claude.turnUnsure).toBe(true);
    now = e.expiresMs + 1;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({ phase: 'unobserved', final: true });
    expect(tracker.get(S)?.text).not.toContain('✓');
    expect(tracker.get(S)?.reason).toContain(
      'whether that is still the turn of the cancel cannot be read from the disk',
    );
    await waitFor(() => told.at(-1) ?? null, { what: 'the verdict told' });
    expect(told).toEqual([
      { key: S, settled: { word: 'ended', atMs: now, stoppedMs: null, seen: null, byPid: process.pid } },
    ]);
  });

  it("the transcript's end of turn counts as the stop, whichever sign comes first", async ({ project: p }) => {
    const { tracker, agent } = setupWithAgent(p, busy(Date.now() - 1_000));
    const S = SESSION.ralph;
    const e = tracker.track(await cancel(p, { sessionId: S, mode: null, pauseOnly: false }));
    agent.set({ lastTurnEndMs: e.requestedMs + 2_400 });
    expect(tracker.get(S)).toMatchObject({ phase: 'stopped', text: 'stopped ✓ in 2.4s ralph, ultrawork' });
  });

  it('a turn that ended before the signal, or a kill, are told apart from a stop the cancel caused', async ({
    project: p,
  }) => {
    const { tracker, agent } = setupWithAgent(p, busy(Date.now() - 1_000));
    const S = SESSION.ralph;
    const e = tracker.track(await cancel(p, { sessionId: S, mode: null, pauseOnly: false }));
    agent.set({ lastTurnEndMs: e.requestedMs - 500 });
    expect(tracker.get(S)?.phase).toBe('ended');
    // SIGKILL: the liveness probe finds the pid gone; "gone" is when omc-top first saw it.
    now += 3_000;
    agent.set({ status: 'gone', sinceMs: now });
    expect(tracker.get(S)).toMatchObject({ phase: 'stopped', claude: { seen: 'gone' } });
    expect(tracker.get(S)?.reason).toContain('its process is gone');
  });

  it('idle at the cancel (the picture lagging the registry included): no ✓ (no stop seen), "cancelled" at the window\'s end', async ({
    project: p,
  }) => {
    // The claude domain still said busy, but the registry turned idle before the signal was written.
    const { tracker, agent } = setupWithAgent(p, busy(Date.now() - 9_000));
    const S = SESSION.ralph;
    const e = tracker.track(await cancel(p, { sessionId: S, mode: null, pauseOnly: false }));
    agent.set({ status: 'idle', sinceMs: e.requestedMs - 200 });
    expect(tracker.get(S)).toMatchObject({
      phase: 'ended',
      text: 'ralph, ultrawork ended on disk · Claude idle at the cancel',
      claude: { atCancel: 'idle', stoppedMs: null },
    });
    now += 30_001;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({ phase: 'cancelled', final: true });
  });

  it('a pause: "paused" with Claude busy, then the stop it caused, then "pause over"', async ({ project: p }) => {
    const { tracker, agent } = setupWithAgent(p, busy(Date.now() - 1_000));
    const S = SESSION.ralph;
    const e = tracker.track(await cancel(p, { sessionId: S, mode: null, pauseOnly: true }));
    expect(tracker.get(S)).toMatchObject({
      phase: 'paused',
      text: 'paused ralph, ultrawork · Claude busy, not stopped yet',
    });
    agent.set({ status: 'idle', sinceMs: e.requestedMs + 3_000 });
    expect(tracker.get(S)).toMatchObject({
      phase: 'paused',
      final: false,
      text: 'paused ralph, ultrawork · Claude stopped ✓ in 3s',
    });
    now += 30_001;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({
      phase: 'pause-over',
      final: true,
      text: 'pause over: loop enforced again · Claude stopped ✓ in 3s',
    });
  });

  it('a pause Claude did not stop for says so when it is over', async ({ project: p }) => {
    const { tracker } = setupWithAgent(p, busy(Date.now() - 1_000));
    const S = SESSION.ralph;
    tracker.track(await cancel(p, { sessionId: S, mode: null, pauseOnly: true }));
    now += 30_001;
    tracker.evaluate();
    expect(tracker.get(S)?.text).toBe('pause over: loop enforced again · Claude did not stop while it lasted');
  });
});
