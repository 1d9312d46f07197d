/**
 * Which omc-top cancel "already ended" names as the one that ended a loop: only one that ended it (every mode it
 * targeted off disk, its write whole, not undone by the Stop hook), of a mode asked for, within the minutes a settled
 * cancel is said for. Otherwise the words say OMC's /cancel or the loop's own end.
 */
import { describe, expect, it } from 'vitest';
import { alreadyEndedText, endedByRecord } from '../../src/store/cancel/already-ended.js';
import type { CancelRecord } from '../../src/store/cancel/cancel-records.js';

const AT = Date.parse('2026-12-07T12:00:00Z');
const rec = (over: Partial<CancelRecord> = {}): CancelRecord => ({
  key: 's1',
  modes: ['ralph'],
  requestedMs: AT,
  expiresMs: AT + 30_000,
  notEnded: [],
  followedBy: { pid: 4242, start: null },
  ...over,
});
const words = (r: CancelRecord | null) =>
  alreadyEndedText({ rec: r, what: 'ralph', label: 's1', when: 'before this command ran', why: 'no active mode' });

describe('the cancel "already ended" names', () => {
  it('is one that ended the loop a moment ago', () => {
    expect(words(endedByRecord(rec(), ['ralph'], AT + 60_000))).toBe(
      'ralph in s1 already ended: omc-top (pid 4242) cancelled it at 12:00:00 UTC, before this command ran; nothing to cancel, nothing was written',
    );
  });

  it('is none when that cancel was undone by the Stop hook (settled "not taken"), failed, left a mode, is old, or is of another mode', () => {
    const settled = { atMs: AT + 30_000, stoppedMs: null, seen: null, byPid: 4242 };
    for (const [why, r, modes] of [
      ['not taken', rec({ settled: { ...settled, word: 'not-taken' } }), ['ralph']],
      ['failed', rec({ failed: 'EACCES writing ralph-state.json' }), ['ralph']],
      ['a mode left', rec({ notEnded: ['ralph'] }), ['ralph']],
      ['another mode', rec(), ['ultrawork']],
    ] as const) {
      expect(endedByRecord(r, modes, AT + 60_000), why).toBeNull();
    }
    expect(endedByRecord(rec(), ['ralph'], AT + 60 * 60_000)).toBeNull();
    expect(words(null)).toContain(
      "omc-top's cancel records name no other omc-top: OMC's /cancel or the loop's own end",
    );
    // One the hook let through is still named.
    expect(endedByRecord(rec({ settled: { ...settled, word: 'cancelled' } }), ['ralph'], AT + 60_000)).not.toBeNull();
  });
});
