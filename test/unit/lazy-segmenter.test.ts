/**
 * The bundle makes its dependencies' Intl.Segmenters at first use, and splits ASCII for Ink's style tokenizer
 * without ICU (scripts/lazy-segmenter/). Splitting must give exactly ICU's graphemes, and the tokenizer the same
 * tokens, whichever way the text went.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the build, without types
import { asciiGraphemes, lazySegmenter } from '../../scripts/lazy-segmenter/runtime.mjs';
// @ts-expect-error: as above
import { STARTUP_EDITS, applyEdits } from '../../scripts/lazy-segmenter/index.mjs';

interface Seg {
  segment: string;
  index: number;
  input: string;
}
const icu = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const viaIcu = (s: string): Seg[] =>
  [...icu.segment(s)].map(({ segment, index, input }) => ({ segment, index, input }));
const fast = asciiGraphemes as (s: unknown) => Seg[] | undefined;

/** A deterministic stream of ASCII strings: controls, CR/LF, escapes, printable text. */
function* asciiSamples(): Generator<string> {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  for (let n = 0; n < 2000; n++) {
    let s = '';
    const len = next() % 24;
    for (let i = 0; i < len; i++)
      s += String.fromCharCode(next() % 4 === 0 ? [10, 13, 27, 9, 0, 127][next() % 6]! : 32 + (next() % 95));
    yield s;
  }
}

describe('ASCII split without ICU', () => {
  it("is ICU's grapheme split for every ASCII string it takes, and declines CR LF and anything not ASCII", () => {
    let taken = 0;
    for (const s of asciiSamples()) {
      const f = fast(s);
      if (s.includes('\r\n')) expect(f).toBeUndefined();
      else {
        taken++;
        expect(f).toEqual(viaIcu(s));
      }
    }
    expect(taken).toBeGreaterThan(1000);
    for (const s of ['é', 'a\u0301', '👍', 'x\u200d', '\u0085']) expect(fast(s)).toBeUndefined();
  });

  it('a lazy segmenter makes nothing until used, then splits as ICU does', () => {
    let made = 0;
    const seg = lazySegmenter(() => (made++, new Intl.Segmenter(undefined, { granularity: 'grapheme' })), {
      asciiFast: true,
    }) as { segment(s: string): Iterable<Seg> };
    expect(made).toBe(0);
    expect([...seg.segment('\x1b[1mok')].map((x) => x.segment)).toEqual(['\x1b', '[', '1', 'm', 'o', 'k']);
    expect(made).toBe(0); // ASCII: no ICU
    expect([...seg.segment('a\u0301b')].map((x) => x.segment)).toEqual(['a\u0301', 'b']);
    expect(made).toBe(1);
  });
});

describe('the dependencies as bundled', () => {
  // Ink's own tokenizer module, as the bundle takes it.
  const tokenizeFile = fileURLToPath(
    new URL('../../node_modules/@alcalzone/ansi-tokenize/build/tokenize.js', import.meta.url),
  );

  it('every edit finds its text in the installed dependency', () => {
    const edits = STARTUP_EDITS as { file: RegExp; edits: unknown[] }[];
    const entry = edits.find((e) => e.file.test(tokenizeFile));
    expect(entry).toBeDefined();
    expect(() => applyEdits(tokenizeFile, fs.readFileSync(tokenizeFile, 'utf8'), entry!.edits)).not.toThrow();
  });

  it("Ink's style tokenizer gives the same tokens with ASCII split without ICU", async () => {
    const { tokenize } = (await import(tokenizeFile)) as { tokenize(s: string): unknown[] };
    const samples = [
      '\x1b[1m',
      '\x1b[38;2;10;20;30m',
      '\x1b[1;31;4m',
      '\x1b[0m',
      '\x1b[39m plain \x1b[22m',
      '\x1b]8;;https://x.y\x07link\x1b]8;;\x07',
      'a\r\nb',
      ...asciiSamples(),
    ];
    const original = Intl.Segmenter;
    const withIcu = samples.map((s) => tokenize(s));
    // The module made its segmenter as it loaded: put the lazy one's split in front of that instance's method.
    const proto = original.prototype as { segment(s: string): Iterable<Seg> };
    const icuSegment = proto.segment;
    proto.segment = function (this: Intl.Segmenter, s: string) {
      return fast(s) ?? icuSegment.call(this, s);
    };
    try {
      expect(samples.map((s) => tokenize(s))).toEqual(withIcu);
    } finally {
      proto.segment = icuSegment;
    }
  });
});
