/**
 * A cancel among other writers, as a tester saw it with two monitors and OMC 5.5.0 on one project: a loop started
 * anew inside the cancel's window is a new run, not the cancel failing; a second monitor's signal replacing this
 * one's keeps the cancel watched until it expires; a cancel whose mode file OMC holds locked says that its signal was
 * written (not "nothing was changed"); the "did not take" item and the "nothing to cancel" of a loop another omc-top
 * just ended say what happened.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { executeCancel, type CancelDone } from '../../src/store/cancel/execute.js';
import { planCancel, type CancelRequest } from '../../src/store/cancel/plan.js';
import { CancelTracker, settlementOf } from '../../src/store/cancel/tracker.js';
import { genericSignal, serializeSignal } from '../../src/store/cancel/signal.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { SESSION, writeOmcJson, type TempProject } from '../helpers/fixtures.js';

let now = Date.now();
const clock = () => now;
const abs = (p: TempProject, rel: string) => path.join(p.root, rel);
const readJson = (p: TempProject, rel: string) => JSON.parse(fs.readFileSync(abs(p, rel), 'utf8'));
const iso = (ms: number) => new Date(ms).toISOString();

async function cancel(p: TempProject, req: CancelRequest): Promise<CancelDone> {
  const r = planCancel(p.root, req, clock());
  if (!r.ok) throw new Error(r.message);
  const out = await executeCancel(p.root, r.plan, { now: clock });
  if (out.kind !== 'done') throw new Error(out.kind);
  return out;
}

function tracker(p: TempProject): CancelTracker {
  now = Date.now();
  const t = new CancelTracker(p.root, clock, null);
  onTestFinished(() => t.dispose());
  return t;
}

describe('a cancel among other writers', () => {
  it('a ralph started anew 5 s after the cancel is a new run: the verdict is not "not taken", and says so', async ({
    project: p,
  }) => {
    const t = tracker(p);
    const S = SESSION.ralph;
    const rel = `state/sessions/${S}/ralph-state.json`;
    const before = readJson(p, rel);
    t.track(await cancel(p, { sessionId: S, mode: 'ralph', pauseOnly: false }));
    now += 5_000;
    // A new loop, as OMC's ralph skill starts one: a fresh started_at, iteration 1.
    writeOmcJson(abs(p, rel), { ...before, iteration: 1, started_at: iso(now), last_checked_at: iso(now) });
    t.evaluate();
    expect(t.get(S)?.phase).not.toBe('waiting');
    now += 25_001;
    t.evaluate();
    const e = t.get(S)!;
    expect(e.final).toBe(true);
    expect(e.phase).toBe('unobserved');
    expect(e.text).not.toMatch(/did not take|active again/);
    expect(e.reason).toContain(`a new ralph was started at ${iso(now - 25_001).slice(11, 19)} UTC, after the cancel`);
    // What every other omc-top is told: the loop ended (the row then follows the disk: the new ralph).
    expect(settlementOf(e, 1)?.word).toBe('ended');
  });

  it('a second monitor\'s signal replacing this one\'s: watched until it expires, never "window over" early', async ({
    project: p,
  }) => {
    const t = tracker(p);
    const S = SESSION.ralph;
    const done = await cancel(p, { sessionId: S, mode: null, pauseOnly: false });
    t.track(done);
    // The other omc-top confirmed a moment later: its signal (2 s later) replaces this one; the loop is already gone.
    now += 2_000;
    fs.writeFileSync(abs(p, done.signal.rel), serializeSignal(genericSignal('ralph', now)));
    t.evaluate();
    expect(t.get(S)).toMatchObject({ phase: 'ended', final: false });
    expect(t.get(S)?.reason).not.toContain('window is over');
    expect(t.get(S)?.reason).toContain("another omc-top's cancel signal replaced this omc-top's");
    expect(t.secondsLeft(S, now)).toBe(30);
    // Past this cancel's own expiry, the other signal still in force: still watched.
    now += 28_500;
    t.evaluate();
    expect(t.get(S)).toMatchObject({ phase: 'ended', final: false });
    expect(t.secondsLeft(S, now)).toBe(2);
    now += 1_501;
    t.evaluate();
    expect(t.get(S)).toMatchObject({ phase: 'unobserved', final: true });
    expect(t.get(S)?.reason).toMatch(/^ended on disk: the signal window is over/);
  });

  it('a loop that moved on during the dialog and was re-armed after: the detail tells both writes, in order', async ({
    project: p,
  }) => {
    const t = tracker(p);
    const S = SESSION.ralph;
    const rel = `state/sessions/${S}/ralph-state.json`;
    const before = readJson(p, rel);
    const planned = planCancel(p.root, { sessionId: S, mode: 'ralph', pauseOnly: false }, now);
    if (!planned.ok) throw new Error(planned.message);
    // A Stop event writes the next iteration while the dialog is open.
    writeOmcJson(abs(p, rel), { ...before, iteration: before.iteration + 1 });
    const done = await executeCancel(p.root, planned.plan, { now: clock });
    if (done.kind !== 'done') throw new Error(done.kind);
    expect(done.movedOn).toBeTruthy();
    t.track(done);
    // Another one, already under way, writes it back after the cancel.
    writeOmcJson(abs(p, rel), { ...before, iteration: before.iteration + 2 });
    now += 1_000;
    t.evaluate();
    const reason = t.get(S)?.reason ?? '';
    expect(reason).toContain(`${rel} was rewritten after the cancel (a Stop event already under way re-armed it)`);
    expect(reason).toContain(
      `before the cancel, it moved on while you confirmed (${done.movedOn}); the cancel ended it as it then was`,
    );
  });

  for (const [how, said] of [
    ['held by a live OMC writer', 'held by pid'],
    ['not a valid lock record', 'not a valid OMC lock record'],
  ] as const)
    it(`a mode file whose OMC lock is ${how}: the words say the signal was written, and what it does`, async ({
      project: p,
    }) => {
      now = Date.now();
      const S = SESSION.ralph;
      const rel = `state/sessions/${S}/ralph-state.json`;
      // OMC's owner record of a live process (this one), as withStateFileMutationLock writes it; or a broken one.
      const start = processStartIdentity(process.pid);
      expect(typeof start).toBe('string');
      const owner = { version: 1, pid: process.pid, processStart: start, createdAt: iso(now), nonce: randomUUID() };
      fs.writeFileSync(abs(p, `${rel}.mutation.lock`), how.startsWith('held') ? JSON.stringify(owner) : '{"pid":');
      const done = await cancel(p, { sessionId: S, mode: 'ralph', pauseOnly: false });
      expect(done.ok).toBe(false);
      expect(done.signalInForce).toBe(true);
      expect(done.summary).not.toMatch(/nothing was changed|\.;/i);
      expect(done.summary).toContain(`cancel did not take: ${rel}: left as it is: ${rel}.mutation.lock is ${said}`);
      expect(done.summary).toContain(
        `the cancel signal ${done.signal.rel} was written: OMC's Stop hook lets the agent stop until ${iso(done.signal.expiresMs).slice(11, 19)} UTC, then enforces the loop again`,
      );
      expect(done.steps.find((s) => s.rel === rel)?.detail).not.toMatch(/nothing was changed/i);
      expect(readJson(p, rel).active).toBe(true);
    });
});
