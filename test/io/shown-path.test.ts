/**
 * A path shown to the user keeps every byte (io/shown-path.ts): a directory named `a<ESC>[31mred<LF>x` was shown as
 * `ared x` (the sanitiser removed its escape sequence and turned its newline into a space), a name that exists
 * nowhere, and the `--root` a hint offered with it was no usable command. Now controls read as escapes, no control
 * byte is left in the text, and the word offered to a shell is that very path again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import { describe, it } from '../helpers/it.js';
import { shellArg, shellPath, shownPath } from '../../src/io/shown-path.js';
import { escapeBytes, NO_SHELL_WORD, shellWordOfBytes } from '../../src/io/safe-fs/escape-bytes.js';
import { pathForBytes } from '../../src/io/safe-fs/byte-paths.js';
import { cleanLine } from '../../src/io/sanitize.js';
import { quotePath } from '../../src/io/safe-fs/paths.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The shells a suggested command is typed into: dash (sh on Debian and Ubuntu, POSIX only) and bash. */
const SHELLS = ['/bin/dash', '/bin/bash'];

/** What a shell makes of one word: the bytes of its first argument. */
function shellReads(shell: string, word: string): Buffer {
  return execFileSync(shell, ['-c', `printf %s ${word}`]);
}

const NAMES: Array<string | Buffer> = [
  'hz/a\u001b[31mred\nx/.omc',
  'plain/.omc',
  'with space/and $dollar',
  'it\'s "quoted"',
  'back\\slash\\e',
  'tab\there\rcr\u0007bel\u007fdel',
  '\u001b1f', // a hex digit right after an escape
  'c1\u009b31m',
  'bidi\u202eevil',
  'zw\u200bsp',
  'sep\u2028line',
  'naïve/日本語',
  Buffer.from([0x70, 0xff, 0x1b, 0x41, 0xc3]), // not UTF-8, with ESC and a cut sequence
  '-dash\u001bfirst', // read as an option by printf, were it not escaped
  '50%\u001b%s\u0007', // printf's conversions
  'it\'s\u001b"both" $HOME `x`', // quotes and expansions beside a control byte
  'new\nline\n\nin the middle',
];

describe('a path shown to the user', () => {
  it('keeps every byte, controls as \\e \\n \\xNN, and holds no control byte', () => {
    expect(shownPath('hz/a\u001b[31mred\nx/.omc')).toBe('hz/a\\e[31mred\\nx/.omc');
    expect(shownPath('tab\there\rcr\u0007bel\u007fdel')).toBe('tab\\there\\rcr\\x07bel\\x7fdel');
    expect(shownPath('c1\u009b31m')).toBe('c1\\xc2\\x9b31m');
    expect(shownPath('bidi\u202eevil')).toBe('bidi\\xe2\\x80\\xaeevil');
    expect(shownPath('zw\u200bsp')).toBe('zw\\xe2\\x80\\x8bsp');
    // The backslash is doubled: `\e` in a name is two characters, never an ESC.
    expect(shownPath('back\\slash\\e')).toBe('back\\\\slash\\\\e');
    // Plain text and UTF-8 names stand for themselves.
    expect(shownPath('/home/u/naïve/日本語/.omc')).toBe('/home/u/naïve/日本語/.omc');
    expect(escapeBytes(Buffer.from([0x70, 0xff, 0x1b, 0x41, 0xc3]))).toBe('p\\xff\\eA\\xc3');
    for (const n of NAMES) {
      const shown = typeof n === 'string' ? shownPath(n) : escapeBytes(n);
      expect(shown).not.toMatch(CONTROL);
      // The sanitiser every row and message still goes through leaves it as it is.
      expect(cleanLine(shown)).toBe(shown);
    }
  });

  it('is one sequence of bytes only: two different names never show the same', () => {
    const shown = NAMES.map((n) => (typeof n === 'string' ? shownPath(n) : escapeBytes(n)));
    expect(new Set(shown).size).toBe(NAMES.length);
    expect(shownPath('a\u001bb')).not.toBe(shownPath('a\\eb'));
  });

  it('in a command to copy, is one shell word that dash and bash both read back as the path', () => {
    expect(shellPath('packages/api/.omc')).toBe('packages/api/.omc');
    expect(shellPath('with space/x')).toBe("'with space/x'");
    // Not $'…' (bash's, which dash takes as a `$` and a quoted text): printf's octal escapes, which every sh reads.
    expect(shellPath('hz/a\u001b[31mred\nx/.omc')).toBe(`"$(printf 'hz/a\\033[31mred\\012x/.omc')"`);
    for (const n of NAMES) {
      const raw = typeof n === 'string' ? Buffer.from(n) : n;
      const word = (typeof n === 'string' ? shellPath(n) : shellWordOfBytes(n)) as string;
      expect(word).not.toMatch(CONTROL);
      for (const shell of SHELLS)
        expect(
          shellReads(shell, word).equals(raw),
          `${shell}: ${JSON.stringify(word)} for ${JSON.stringify(raw.toString('latin1'))}`,
        ).toBe(true);
    }
  });

  it('in a command to copy, makes that very directory on disk in dash and in bash', ({ tempDir }) => {
    const base = fs.realpathSync(tempDir('omc-top-shell-'));
    for (const n of NAMES) {
      const raw = Buffer.concat([Buffer.from(`${base}/`), typeof n === 'string' ? Buffer.from(n) : n]);
      const word = shellWordOfBytes(raw) as string;
      for (const shell of SHELLS) {
        execFileSync(shell, ['-c', `mkdir -p -- ${word}`]);
        expect(fs.statSync(raw).isDirectory(), `${shell} made ${JSON.stringify(raw.toString('latin1'))}`).toBe(true);
        fs.rmSync(raw, { recursive: true });
      }
    }
  });

  it('a name ending in a newline gets no command (a command substitution would drop it), and says why', () => {
    expect(shellPath('/tmp/x\u001b\n')).toBeNull();
    expect(shellArg('/tmp/x\u001b\n', (w) => `--root ${w}`)).toBe(`--root /tmp/x\\e\\n (${NO_SHELL_WORD})`);
    // Nor in quotes: a newline typed in the hint's one line would be a raw control byte in it.
    expect(shellPath('/tmp/plain\n')).toBeNull();
  });

  it('names a held directory (not UTF-8) by its real bytes, escaped the same way, never its fd number', ({
    tempDir,
  }) => {
    const base = fs.realpathSync(tempDir('omc-top-shown-'));
    const raw = Buffer.concat([Buffer.from(`${base}/p-`), Buffer.from([0xff, 0x1b]), Buffer.from('[1m')]);
    fs.mkdirSync(raw);
    const held = pathForBytes(raw) as string;
    expect(held).toMatch(/^\/proc\/self\/fd\/\d+$/);
    expect(shownPath(`${held}/.omc`)).toBe(`${base}/p-\\xff\\e[1m/.omc`);
    for (const shell of SHELLS) expect(shellReads(shell, shellPath(held) as string).equals(raw)).toBe(true);
    // What the sanitiser shows for the held prefix is the same text.
    expect(cleanLine(`${held}/.omc`)).toBe(`${base}/p-\\xff\\e[1m/.omc`);
  });

  it('in a problem line from the safe paths (quotePath), the directory keeps its escape sequence', ({ tempDir }) => {
    const dir = path.join(tempDir('omc-top-quote-'), 'a\u001b[31mred\nx');
    expect(quotePath(dir)).toBe(`${path.dirname(dir)}/a\\e[31mred\\nx`);
  });
});
