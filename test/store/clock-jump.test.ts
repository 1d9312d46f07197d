/**
 * A wall clock that jumps apart from monotonic time (a laptop's suspend and resume, an NTP step): every verdict
 * that depends on the wall clock is judged again at the next check, not at the next unrelated file event. Time
 * is driven through the store's clock seams: the wall clock jumps while monotonic time stands still, and the
 * once-a-second check is run by hand (fake setInterval), so what it re-judged is there as soon as it returns,
 * long before any timer armed on monotonic time could fire.
 */
import { vi } from 'vitest';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { ClockJumpCheck, CLOCK_CHECK_MS, CLOCK_JUMP_MS } from '../../src/store/clock-jumps.js';
import type { OmcStore } from '../../src/store/store.js';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { SESSION, waitFor, writeLiveRalph } from '../helpers/fixtures.js';

const SID = 'c10c0001-0000-4000-8000-000000000001';
const HOUR = 3_600_000;

/** Only setInterval is faked: the watcher, its events and waitFor keep real timeouts. */
function fakeIntervals(): () => void {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return () => vi.advanceTimersByTime(CLOCK_CHECK_MS);
}
const live = (s: OmcStore) =>
  waitFor(() => s.status.getSnapshot().watchMode === 'events' || s.status.getSnapshot().watchMode === 'polling');

const statusOf = (s: OmcStore) => s.sessions.getSnapshot().sessions.find((x) => x.id === SID)?.status;
const staleRunOf = (s: OmcStore) => s.runs.nextSession().find((f) => f.kind === 'stale-run' && f.sessionId === SID);

describe('a wall-clock jump', () => {
  it('re-judges staleness and STALE RUN at once, both ways, with no file event', async ({
    emptyProject: p,
    newStore,
  }) => {
    const check = fakeIntervals();
    let wall = Date.now();
    const mono = 1_000;
    writeLiveRalph(p, { sessionId: SID, iteration: 2, checkedAt: wall, startedAt: wall - 60_000 });
    const s = newStore({ root: p.root, watch: 'auto', clock: () => wall, monotonic: () => mono });
    s.start();
    await live(s);
    check();
    expect(statusOf(s)).toBe('enforced');
    expect(staleRunOf(s)).toBeUndefined();

    // The lid closes for 3 h: the wall clock moves, monotonic time does not.
    wall += 3 * HOUR;
    check();
    expect(statusOf(s)).toBe('stale');
    expect(s.sessions.getSnapshot().counts?.stale).toBe(1);
    expect(staleRunOf(s)?.message).toMatch(/~3h/);

    // The clock is set right again: nothing judged at the later time stays.
    wall -= 3 * HOUR;
    check();
    expect(statusOf(s)).toBe('enforced');
    expect(staleRunOf(s)).toBeUndefined();
  });

  it('ends a pause whose window the jump passed: the row and the tracker follow the wall clock', async ({
    project: p,
    tempDir,
    newStore,
  }) => {
    const check = fakeIntervals();
    let wall = Date.now();
    const S = SESSION.ralph;
    const s = newStore({ root: p.root, watch: 'auto', clock: () => wall, monotonic: () => 0, stateDir: tempDir() });
    s.start();
    await live(s);
    const plan = planCancel(p.root, { sessionId: S, mode: null, pauseOnly: true }, wall);
    if (!plan.ok) throw new Error(plan.message);
    const done = await executeCancel(p.root, plan.plan, { now: () => wall });
    if (done.kind !== 'done') throw new Error(done.kind);
    s.cancels.track(done);
    await waitFor(() => s.sessions.getSnapshot().sessions.find((x) => x.id === S)?.status === 'paused');
    expect(s.cancels.get(S)?.phase).toBe('paused');

    wall += HOUR;
    check();
    expect(s.cancels.get(S)?.phase).toBe('pause-over');
    expect(s.sessions.getSnapshot().sessions.find((x) => x.id === S)?.status).not.toBe('paused');
  });
});

describe('ClockJumpCheck', () => {
  it('sees a jump only when the wall clock moves more than a second apart from monotonic time', () => {
    let wall = 1_000_000;
    let mono = 50;
    const c = new ClockJumpCheck(
      () => wall,
      () => mono,
    );
    // Both clocks move together (a busy event loop delays both alike): no jump.
    wall += 5_000;
    mono += 5_000;
    expect(c.jumped()).toBe(false);
    // Drift within the slack: no jump.
    wall += 1_000 + CLOCK_JUMP_MS;
    mono += 1_000;
    expect(c.jumped()).toBe(false);
    wall += 1_000 + CLOCK_JUMP_MS + 1;
    mono += 1_000;
    expect(c.jumped()).toBe(true);
    // Backwards too.
    wall -= 10 * 60_000;
    expect(c.jumped()).toBe(true);
    // A jump is seen once, at the check that spans it.
    expect(c.jumped()).toBe(false);
  });
});
