/**
 * A refusal under --readonly is worded one way, from one place (src/io/readonly-words.ts): "--readonly: <what> is
 * disabled (nothing is written)". The memory pane said "read-only mode (--readonly): directives cannot be changed"
 * while every other pane said the former: two wordings read as two rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readonlyRefusal } from '../../src/io/readonly-words.js';

const SRC = path.join(import.meta.dirname, '..', '..', 'src');
const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });

describe('--readonly refusals', () => {
  it('one wording', () => {
    expect(readonlyRefusal('add')).toBe('--readonly: add is disabled (nothing is written)');
  });

  it('no source writes a refusal of its own in another wording, or this one by hand', () => {
    const own = path.join(SRC, 'io', 'readonly-words.ts');
    const offenders = files(SRC)
      .filter((f) => f !== own)
      .filter((f) => {
        // Code only: a comment may quote the wording.
        const code = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
        return /read-only mode \(--readonly\):|is disabled \(nothing is written\)/.test(code);
      })
      .map((f) => path.relative(SRC, f));
    expect(offenders).toEqual([]);
  });
});
