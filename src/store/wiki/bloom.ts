/**
 * A per-page character filter that lets a search skip pages which cannot
 * contain a token, without scanning their text. It records every character
 * and every adjacent pair of characters of the lower-cased body in a bit set;
 * a token can only occur in the body if all of its pairs (or, for a
 * one-character token, the character) are recorded. False positives only
 * cost an `indexOf`; there are no false negatives, so ranking is unchanged.
 */

export type CharFilter = Uint32Array;

/** About two bits per body character, within [1 Ki, 128 Ki] bits, a power of two. */
function bitsFor(length: number): number {
  let bits = 1024;
  while (bits < length * 2 && bits < 131072) bits *= 2;
  return bits;
}

const pairHash = (a: number, b: number) => (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77)) >>> 0;
const unitHash = (a: number) => Math.imul(a ^ 0x5bd1e995, 0xcc9e2d51) >>> 0;

export function buildCharFilter(text: string): CharFilter {
  const bits = bitsFor(text.length);
  const mask = bits - 1;
  const f = new Uint32Array(bits >>> 5);
  const set = (h: number) => {
    const i = h & mask;
    f[i >>> 5]! |= 1 << (i & 31);
  };
  let prev = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    set(unitHash(c));
    if (prev !== -1) set(pairHash(prev, c));
    prev = c;
  }
  return f;
}

const hasBit = (f: CharFilter, mask: number, h: number) => {
  const i = h & mask;
  return (f[i >>> 5]! & (1 << (i & 31))) !== 0;
};

/** False means "certainly not in the text"; true means "maybe". */
export function mayContain(f: CharFilter, token: string): boolean {
  const mask = f.length * 32 - 1;
  if (token.length === 0) return true;
  if (token.length === 1) return hasBit(f, mask, unitHash(token.charCodeAt(0)));
  for (let i = 0; i + 1 < token.length; i++) {
    if (!hasBit(f, mask, pairHash(token.charCodeAt(i), token.charCodeAt(i + 1)))) return false;
  }
  return true;
}
