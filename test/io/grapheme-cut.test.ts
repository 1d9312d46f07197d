/**
 * Cuts at a fixed count of UTF-16 units land inside emoji: between the halves of a surrogate pair (a lone
 * surrogate, refused by strict JSON readers) or inside a ZWJ family. The cut helpers move to a grapheme
 * boundary.
 */
import { describe, expect, it } from 'vitest';
import { graphemeEndAt, graphemeStartAt, headUnits } from '../../src/io/grapheme-cut.js';

const FAMILY = '👨\u200d👩\u200d👧\u200d👦';
const TEXT = `通过🚀🔥${FAMILY}漢字`;
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('grapheme cuts', () => {
  it('never leaves half a surrogate pair or part of a ZWJ sequence, at any cut', () => {
    const familyAt = TEXT.indexOf(FAMILY);
    for (let at = 0; at <= TEXT.length; at++) {
      const head = TEXT.slice(0, graphemeStartAt(TEXT, at));
      const tail = TEXT.slice(graphemeEndAt(TEXT, at));
      expect(LONE.test(head), `head at ${at}`).toBe(false);
      expect(LONE.test(tail), `tail at ${at}`).toBe(false);
      if (at > familyAt && at < familyAt + FAMILY.length) {
        expect(head.endsWith('🔥'), `head at ${at}`).toBe(true);
        expect(tail.startsWith('漢'), `tail at ${at}`).toBe(true);
      }
      expect(graphemeStartAt(TEXT, at)).toBeLessThanOrEqual(at);
      expect(graphemeEndAt(TEXT, at)).toBeGreaterThanOrEqual(at);
    }
  });

  it('keeps plain text cuts where they are', () => {
    expect(headUnits('abcdef', 3)).toBe('abc');
    expect(graphemeEndAt('abcdef', 3)).toBe(3);
    expect(headUnits('ab', 3)).toBe('ab');
    // An accent stays with its letter.
    expect(headUnits('cafe\u0301s', 4)).toBe('caf');
  });

  it('a grapheme longer than the window is still cut at a code point, never inside a pair', () => {
    const storm = '👍' + '\u0301'.repeat(200) + '🔥'.repeat(3);
    for (const at of [1, 100, 201, 202, 203, 204]) {
      expect(LONE.test(storm.slice(0, graphemeStartAt(storm, at)))).toBe(false);
      expect(LONE.test(storm.slice(graphemeEndAt(storm, at)))).toBe(false);
    }
  });
});
