/**
 * The coalescer's two edges on a fake clock: the leading batch per macrotask,
 * the trailing re-read once a path has been quiet for TRAILING_MS, removals
 * without a second look, and nothing after close.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoalescer, TRAILING_MS, type Edge } from '../../src/io/watch/coalescer.js';
import type { WatchEvent } from '../../src/io/watch/events.js';

let got: Array<[Edge, WatchEvent[]]>;
const sink = (events: WatchEvent[], edge: Edge) => got.push([edge, events]);
beforeEach(() => {
  vi.useFakeTimers();
  got = [];
});
afterEach(() => vi.useRealTimers());

describe('coalescer', () => {
  it('events of one macrotask make one leading batch, in order', () => {
    const c = createCoalescer(sink);
    c.push('change', 'a.json');
    c.push('add', 'b.json');
    c.push('change', 'a.json');
    expect(got).toEqual([]);
    vi.advanceTimersToNextTimer(); // the setImmediate
    expect(got[0]).toEqual([
      'leading',
      [
        { type: 'change', rel: 'a.json' },
        { type: 'add', rel: 'b.json' },
        { type: 'change', rel: 'a.json' },
      ],
    ]);
  });

  it('a path is re-read on the trailing edge TRAILING_MS after its last event, once, as a change', () => {
    const c = createCoalescer(sink);
    c.push('add', 'a.json');
    vi.advanceTimersByTime(TRAILING_MS - 10);
    c.push('change', 'a.json'); // still busy: the trailing read moves
    vi.advanceTimersByTime(TRAILING_MS - 1);
    expect(got.filter(([e]) => e === 'trailing')).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(got.filter(([e]) => e === 'trailing')).toEqual([['trailing', [{ type: 'change', rel: 'a.json' }]]]);
    vi.advanceTimersByTime(10 * TRAILING_MS);
    expect(got.filter(([e]) => e === 'trailing')).toHaveLength(1);
  });

  it('paths due at different times get their own trailing batches', () => {
    const c = createCoalescer(sink);
    c.push('change', 'a.json');
    vi.advanceTimersByTime(30);
    c.push('addDir', 'wiki');
    vi.advanceTimersByTime(TRAILING_MS - 30);
    vi.advanceTimersByTime(30);
    expect(got.filter(([e]) => e === 'trailing')).toEqual([
      ['trailing', [{ type: 'change', rel: 'a.json' }]],
      ['trailing', [{ type: 'addDir', rel: 'wiki' }]],
    ]);
  });

  it('a removal cancels the trailing read; so does an addDir watched before it is listed', () => {
    const c = createCoalescer(sink);
    c.push('change', 'a.json');
    c.push('unlink', 'a.json');
    c.push('addDir', 'state/sessions/x', { trailing: false });
    vi.advanceTimersByTime(5 * TRAILING_MS);
    expect(got.map(([e]) => e)).toEqual(['leading']);
  });

  it('nothing is delivered after close, on either edge', () => {
    const c = createCoalescer(sink);
    c.push('change', 'a.json');
    c.close();
    c.push('change', 'b.json');
    vi.advanceTimersByTime(5 * TRAILING_MS);
    expect(got).toEqual([]);
  });
});
