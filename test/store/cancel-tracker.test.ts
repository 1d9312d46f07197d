/**
 * The tracker's verdicts, with the clock under test control: a cancel is
 * "cancelled" only once the signal window is over with nothing active, a
 * re-armed loop is "cancel did not take", a pause is judged by OMC's rule
 * (digest included) for as long as it lasts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { executeCancel, type CancelDone } from '../../src/store/cancel/execute.js';
import { planCancel, type CancelRequest } from '../../src/store/cancel/plan.js';
import { CancelTracker } from '../../src/store/cancel/tracker.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, SESSION, writeOmcJson, type TempProject } from '../helpers/fixtures.js';

let p: TempProject | null = null;
let tracker: CancelTracker | null = null;
afterEach(() => {
  tracker?.dispose();
  tracker = null;
  p?.cleanup();
  p = null;
});

let now = Date.now();
const clock = () => now;
const abs = (rel: string) => path.join((p as TempProject).root, rel);
const readJson = (rel: string) => JSON.parse(fs.readFileSync(abs(rel), 'utf8'));

async function cancel(req: CancelRequest): Promise<CancelDone> {
  const r = planCancel((p as TempProject).root, req, clock());
  if (!r.ok) throw new Error(r.message);
  const out = await executeCancel((p as TempProject).root, r.plan, { now: clock });
  if (out.kind !== 'done') throw new Error(out.kind);
  return out;
}

function setup(): { tracker: CancelTracker } {
  now = Date.now();
  p = makeProject({ withFixture: true });
  tracker = new CancelTracker(p.root, clock, null);
  return { tracker };
}

describe('cancel tracker', () => {
  it('counts down while watching, then settles on "cancelled" when nothing came back', async () => {
    const { tracker } = setup();
    const e = tracker.track(await cancel({ sessionId: SESSION.ralph, mode: null, pauseOnly: false }));
    expect(e).toMatchObject({ phase: 'ended', final: false, text: 'cancelled ✓ ralph, ultrawork' });
    expect(tracker.secondsLeft(SESSION.ralph, now)).toBe(30);
    now += 12_000;
    tracker.evaluate();
    expect(tracker.secondsLeft(SESSION.ralph, now)).toBe(18);
    now += 18_001;
    tracker.evaluate();
    expect(tracker.get(SESSION.ralph)).toMatchObject({
      phase: 'cancelled',
      final: true,
      settledMs: now,
      reason: expect.stringMatching(/^verified/),
    });
  });

  it('a loop re-armed inside the window (a Stop event already under way) ends as "cancel did not take"', async () => {
    const { tracker } = setup();
    const S = SESSION.ralph;
    const rel = `state/sessions/${S}/ralph-state.json`;
    const original = readJson(rel);
    tracker.track(await cancel({ sessionId: S, mode: 'ralph', pauseOnly: false }));
    writeOmcJson(abs(rel), { ...original, iteration: 4, last_checked_at: new Date(now).toISOString() });
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

  it('a pause stays "paused" while OMC honours it and reports "pause over" at expiry, the loop untouched', async () => {
    const { tracker } = setup();
    const S = SESSION.ralph;
    tracker.track(await cancel({ sessionId: S, mode: null, pauseOnly: true }));
    expect(tracker.get(S)).toMatchObject({ phase: 'paused', text: 'paused ralph, ultrawork' });
    now += 30_001;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({ phase: 'pause-over', final: true });
    expect(readJson(`state/sessions/${S}/ralph-state.json`).active).toBe(true);
  });

  it('a paused autopilot whose state moves under the signal is reported at once: the digest no longer matches', async () => {
    const { tracker } = setup();
    const S = SESSION.autopilot;
    const rel = `state/sessions/${S}/autopilot-state.json`;
    writeOmcJson(abs(rel), { ...readJson(rel), last_checked_at: new Date(now).toISOString() });
    const done = await cancel({ sessionId: S, mode: null, pauseOnly: true });
    expect(done).toMatchObject({ ok: true, signalInForce: true });
    tracker.track(done);
    expect(tracker.get(S)?.phase).toBe('paused');
    writeOmcJson(abs(rel), { ...readJson(rel), reinforcement_count: 1 });
    now += 2_000;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({
      phase: 'not-taken',
      final: true,
      text: 'pause did not take: the autopilot state changed after the signal was written, so its digest no longer matches',
    });
  });

  it('a signal removed before it expires (session end, another cancel) closes the window early', async () => {
    const { tracker } = setup();
    const S = SESSION.ralph;
    const done = await cancel({ sessionId: S, mode: null, pauseOnly: false });
    tracker.track(done);
    fs.unlinkSync(abs(done.signal.rel));
    now += 3_000;
    tracker.evaluate();
    expect(tracker.get(S)).toMatchObject({ phase: 'cancelled', final: true });
  });

  it('one tracker per store, re-judging on disk changes the sessions domain sees', async () => {
    setup();
    const store = new OmcStore({ root: (p as TempProject).root, watch: 'none', clock });
    store.start();
    const t = store.cancels;
    const S = SESSION.ralph;
    const rel = `state/sessions/${S}/ralph-state.json`;
    const original = readJson(rel);
    t.track(await cancel({ sessionId: S, mode: 'ralph', pauseOnly: false }));
    writeOmcJson(abs(rel), { ...original, last_checked_at: new Date(now).toISOString() });
    store.sessions.scan(); // what the watcher does on a change
    await new Promise((r) => setImmediate(r)); // SnapshotCell notifies on the next macrotask
    expect(t.get(S)?.phase).toBe('waiting');
    t.dispose();
    await store.close();
  });
});
