/**
 * The removal hold on a fake clock: a removal waits until removals have been quiet for
 * REMOVAL_QUIET_MS (files going one by one keep it waiting, never past REMOVAL_MAX_MS; a tree going, however long
 * its `rm -rf` takes), every other event goes on at once, and a later event about a held path makes its removal stale. The whole path (a real `rm -rf .omc` under
 * the bundle) is test/attention/watch-json.test.ts and test/faults/tree-shape.e2e.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createRemovalHold,
  REMOVAL_MAX_MS,
  REMOVAL_QUIET_MS,
  REMOVAL_TREE_QUIET_MS,
} from '../../src/io/watch/removal-hold.js';
import type { WatchEvent } from '../../src/io/watch/events.js';

const LOOP = 'state/sessions/s1/ralph-state.json';
let released: WatchEvent[][];
beforeEach(() => {
  vi.useFakeTimers();
  released = [];
});
afterEach(() => vi.useRealTimers());

const hold = () => createRemovalHold({ release: (e) => released.push(e) });
/** The turn of the event loop a hold lets pass before it releases (removals made meanwhile are read in it). */
const TURN = 1;

describe('removal hold', () => {
  it('holds the removals; the rest of the batch goes on at once', () => {
    const h = hold();
    const now = h.take([
      { type: 'unlink', rel: LOOP },
      { type: 'change', rel: 'notepad.md' },
      { type: 'unlinkDir', rel: 'state/sessions/s2' },
    ]);
    expect(now).toEqual([{ type: 'change', rel: 'notepad.md' }]);
    vi.advanceTimersByTime(REMOVAL_QUIET_MS + TURN - 1);
    expect(released).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(released).toEqual([
      [
        { type: 'unlink', rel: LOOP },
        { type: 'unlinkDir', rel: 'state/sessions/s2' },
      ],
    ]);
  });

  it('waits while removals keep coming, at most REMOVAL_MAX_MS after the first', () => {
    const h = hold();
    h.take([{ type: 'unlink', rel: LOOP }]);
    for (let t = 0; t < REMOVAL_MAX_MS; t += REMOVAL_QUIET_MS / 2) {
      expect(released).toEqual([]);
      h.take([{ type: 'unlink', rel: `state/sessions/other/${t}-state.json` }]);
      vi.advanceTimersByTime(REMOVAL_QUIET_MS / 2);
    }
    vi.advanceTimersByTime(TURN);
    expect(released).toHaveLength(1);
    expect(released[0]![0]).toEqual({ type: 'unlink', rel: LOOP });
    expect(released[0]).toHaveLength(1 + REMOVAL_MAX_MS / (REMOVAL_QUIET_MS / 2));
  });

  it('a tree going is held until removals are quiet, however long past REMOVAL_MAX_MS its rm takes', () => {
    // What a slow `rm -rf .omc` looks like (a busy machine): session directories going one after another for
    // several times the cap. Cut at the cap, the loops it had reached were said to stop while .omc was still there.
    const going = new Set<string>();
    const h = createRemovalHold({
      release: (e) => released.push(e),
      treeGoing: (held) => held.some((e) => going.has(e.rel.split('/').slice(0, 3).join('/'))),
    });
    let t = 0;
    for (let i = 0; t < 5 * REMOVAL_MAX_MS; i++, t += REMOVAL_QUIET_MS / 2) {
      const dir = `state/sessions/s${i}`;
      going.add(dir);
      h.take([
        { type: 'unlink', rel: `${dir}/ralph-state.json` },
        { type: 'unlinkDir', rel: dir },
      ]);
      vi.advanceTimersByTime(REMOVAL_QUIET_MS / 2);
      expect(released, `${t + REMOVAL_QUIET_MS / 2} ms into the rm`).toEqual([]);
    }
    vi.advanceTimersByTime(REMOVAL_TREE_QUIET_MS - REMOVAL_QUIET_MS / 2 + TURN - 1);
    expect(released).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(released).toHaveLength(1);
    expect(released[0]).toHaveLength((2 * 5 * REMOVAL_MAX_MS) / (REMOVAL_QUIET_MS / 2));
    // The next removal, a file alone (OMC's cancel), is held by the quiet and the cap again, not uncapped.
    going.clear();
    h.take([{ type: 'unlink', rel: LOOP }]);
    for (let k = 0; k < REMOVAL_MAX_MS; k += REMOVAL_QUIET_MS / 2) {
      h.take([{ type: 'unlink', rel: `state/sessions/other/${k}-state.json` }]);
      vi.advanceTimersByTime(REMOVAL_QUIET_MS / 2);
    }
    vi.advanceTimersByTime(TURN);
    expect(released).toHaveLength(2);
    expect(released[1]![0]).toEqual({ type: 'unlink', rel: LOOP });
  });

  it("a tree going waits out a stop of its rm longer than a file removal's quiet (a loaded machine)", () => {
    const h = createRemovalHold({ release: (e) => released.push(e), treeGoing: () => true });
    h.take([
      { type: 'unlink', rel: LOOP },
      { type: 'unlinkDir', rel: 'state/sessions/s1' },
    ]);
    // rm descheduled for three times a file's quiet: it has not ended.
    vi.advanceTimersByTime(3 * REMOVAL_QUIET_MS);
    expect(released).toEqual([]);
    h.take([{ type: 'unlinkDir', rel: 'state/sessions' }]);
    vi.advanceTimersByTime(REMOVAL_TREE_QUIET_MS + TURN - 1);
    expect(released).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(released.flat().map((e) => e.rel)).toEqual([LOOP, 'state/sessions/s1', 'state/sessions']);
  });

  it('a timer that fires before removals already made are read (a busy monitor) holds on once they are', () => {
    const h = hold();
    h.take([{ type: 'unlink', rel: LOOP }]);
    // The quiet timer fires; the removals rm made meanwhile are read in the same turn of the event loop, after it.
    vi.advanceTimersByTime(REMOVAL_QUIET_MS);
    h.take([{ type: 'unlink', rel: 'state/sessions/s1/autopilot-state.json' }]);
    vi.advanceTimersByTime(REMOVAL_QUIET_MS + TURN - 1);
    expect(released).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(released.flat().map((e) => e.rel)).toEqual([LOOP, 'state/sessions/s1/autopilot-state.json']);
  });

  it('a later event about a held path makes its removal stale; drop and close forget what is held', () => {
    const h = hold();
    h.take([{ type: 'unlinkDir', rel: 'state/sessions/s1' }]);
    expect(h.take([{ type: 'addDir', rel: 'state/sessions/s1' }])).toEqual([
      { type: 'addDir', rel: 'state/sessions/s1' },
    ]);
    h.take([{ type: 'unlink', rel: LOOP }]);
    h.drop();
    h.take([{ type: 'unlink', rel: LOOP }]);
    h.close();
    vi.advanceTimersByTime(REMOVAL_MAX_MS);
    expect(released).toEqual([]);
  });
});
