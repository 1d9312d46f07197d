/** Strict and lenient UTF-8 decoders: text is decoded strictly first, so invalid bytes can be reported. */

export const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
export const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** The offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1 when all are. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    // The lead byte gives the length and the range of the second byte (no overlong forms, no surrogates, ≤ U+10FFFF).
    const [n, lo, hi] =
      c >= 0xc2 && c <= 0xdf
        ? [2, 0x80, 0xbf]
        : c === 0xe0
          ? [3, 0xa0, 0xbf]
          : c === 0xed
            ? [3, 0x80, 0x9f]
            : c >= 0xe1 && c <= 0xef
              ? [3, 0x80, 0xbf]
              : c === 0xf0
                ? [4, 0x90, 0xbf]
                : c >= 0xf1 && c <= 0xf3
                  ? [4, 0x80, 0xbf]
                  : c === 0xf4
                    ? [4, 0x80, 0x8f]
                    : [0, 0, 0];
    if (n === 0) return i;
    for (let k = 1; k < n; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n;
  }
  return -1;
}
