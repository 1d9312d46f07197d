// Ink's render throttle as patched (scripts/ink-patches/frame-throttle.mjs): one render per interval over time, a
// waiting render drawn as soon as that rate allows (never a whole interval after the ask), and a change just after a
// lone redraw drawn at once.
import { describe, expect, it } from 'vitest';
import { frameThrottle } from '../../scripts/ink-patches/frame-throttle.mjs';

/** A clock and timers that move only when the test says so. */
function manualTime() {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; cb: () => void }>();
  const timers = {
    set: (cb: () => void, ms: number) => {
      seq += 1;
      due.set(seq, { at: now + ms, cb });
      return seq;
    },
    clear: (t: unknown) => void due.delete(t as number),
  };
  /** Moves the clock to `t`, firing every timer due on the way in order. */
  const advanceTo = (t: number) => {
    for (;;) {
      const next = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (!next || next[1].at > t) break;
      due.delete(next[0]);
      now = next[1].at;
      next[1].cb();
    }
    now = t;
  };
  return { clock: () => now, timers, advanceTo, pending: () => due.size };
}

function rig(intervalMs = 34) {
  const time = manualTime();
  const runs: number[] = [];
  const throttled = frameThrottle(() => runs.push(time.clock()), intervalMs, time.clock, time.timers);
  return { ...time, runs, throttled };
}

describe('frameThrottle (Ink render throttle)', () => {
  it('renders the first ask at once', () => {
    const r = rig();
    r.throttled();
    expect(r.runs).toEqual([0]);
    expect(r.pending()).toBe(0);
  });

  it('an ask inside the interval is drawn when the interval since the last render ends, not an interval later', () => {
    const r = rig();
    r.throttled();
    r.advanceTo(10);
    r.throttled(); // the second of a burst: at once
    r.advanceTo(20);
    r.throttled();
    r.advanceTo(30);
    r.throttled(); // shares the waiting render
    r.advanceTo(100);
    expect(r.runs).toEqual([0, 10, 44]);
  });

  it('an ask just after a lone render is drawn at once, a third one waits for the interval', () => {
    const r = rig();
    r.throttled();
    r.advanceTo(1000); // a redraw nobody waited on, then a change 5 ms after the next one
    r.throttled();
    r.advanceTo(1005);
    r.throttled();
    expect(r.runs).toEqual([0, 1000, 1005]);
    r.advanceTo(1010);
    r.throttled();
    r.advanceTo(1100);
    expect(r.runs).toEqual([0, 1000, 1005, 1039]);
  });

  it('a waiting render comes two intervals after the run before the last when that is sooner', () => {
    const r = rig();
    r.throttled();
    r.advanceTo(40);
    r.throttled(); // 40 after the last: at once
    r.advanceTo(50);
    r.throttled(); // drawn at 68 (two intervals after 0), not 74 (one after 40)
    r.advanceTo(200);
    expect(r.runs).toEqual([0, 40, 68]);
  });

  it('an ask after a quiet interval is drawn at once', () => {
    const r = rig();
    r.throttled();
    r.advanceTo(34);
    r.throttled();
    r.advanceTo(500);
    r.throttled();
    expect(r.runs).toEqual([0, 34, 500]);
  });

  it('a stream of asks renders once per interval after its first two and the last ask is never lost', () => {
    const r = rig();
    for (let t = 0; t <= 200; t += 5) {
      r.advanceTo(t);
      r.throttled();
    }
    r.advanceTo(1000);
    for (let i = 2; i < r.runs.length; i++)
      expect((r.runs[i] as number) - (r.runs[i - 1] as number)).toBeGreaterThanOrEqual(34);
    expect(r.runs.at(-1)).toBeGreaterThanOrEqual(200);
    expect(r.runs).toEqual([0, 5, 39, 73, 107, 141, 175, 209]);
  });

  it('never more than two renders inside one interval nor three inside two, whatever the asks', () => {
    const r = rig();
    let t = 0;
    let seed = 7;
    for (let i = 0; i < 400; i++) {
      seed = (seed * 48271) % 2147483647;
      t += seed % 60; // 0–59 ms apart: bursts, lone asks and quiet stretches
      r.advanceTo(t);
      r.throttled();
    }
    r.advanceTo(t + 1000);
    for (let i = 2; i < r.runs.length; i++) {
      expect((r.runs[i] as number) - (r.runs[i - 2] as number)).toBeGreaterThanOrEqual(34);
      if (i >= 3) expect((r.runs[i] as number) - (r.runs[i - 3] as number)).toBeGreaterThanOrEqual(68);
    }
    expect(r.runs.at(-1)).toBeGreaterThanOrEqual(t);
  });

  it('flush draws a waiting render now; cancel drops it; neither draws when nothing waits', () => {
    const r = rig();
    r.throttled();
    r.throttled.flush();
    expect(r.runs).toEqual([0]);
    r.advanceTo(10);
    r.throttled();
    r.throttled.flush();
    expect(r.runs).toEqual([0, 10]);
    expect(r.pending()).toBe(0);
    r.advanceTo(20);
    r.throttled();
    r.throttled.cancel();
    r.advanceTo(200);
    expect(r.runs).toEqual([0, 10]);
    expect(r.pending()).toBe(0);
  });
});
