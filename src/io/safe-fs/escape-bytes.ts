/**
 * A path's bytes as text a user can read back byte for byte. A path is not data to be cleaned: a directory named
 * `a<ESC>[31mred<LF>x` exists by exactly those bytes, and a name shown with them removed (`ared x`) names nothing,
 * so a hint built from it points nowhere. Every byte the terminal would act on, hide or reorder is written as an
 * escape instead, and the backslash itself is doubled, so the text maps back to one sequence of bytes only:
 *
 * - `\e` ESC, `\n`, `\t`, `\r`, `\\`; every other C0 control and DEL as `\xNN`;
 * - a byte that is not part of valid UTF-8 as `\xNN`;
 * - a character that is valid UTF-8 but that the sanitiser would remove or a terminal would not draw as itself
 *   (C1 controls, bidi controls, the line and paragraph separators, zero-width and format characters, Hangul
 *   fillers, variation selectors, regional indicators) as the `\xNN` of each of its bytes.
 *
 * These are the escapes of bash's `$'…'` quoting; a command to copy writes the same bytes as printf's octal escapes,
 * which every POSIX shell reads (`shellWordOfBytes`). Nothing here touches the disk: a leaf module both the byte-path
 * anchors and the shown paths use.
 */
import { fatalDecoder } from './utf8.js';

/** Named escapes (bash's `$'…'` reads each of them). */
const NAMED: Record<number, string> = { 0x1b: '\\e', 0x0a: '\\n', 0x09: '\\t', 0x0d: '\\r', 0x5c: '\\\\' };

/**
 * Code points shown by their bytes although they are valid UTF-8: C1, the bidi and format controls, the
 * separators, and everything io/agreed-width.ts drops or replaces (it would vanish, or read as `?`).
 */
const HIDDEN =
  // eslint-disable-next-line no-misleading-character-class
  /[\u0080-\u009f\u00ad\u034f\u061c\u115f\u1160-\u11ff\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

/** Printable ASCII without the backslash: the bytes that stand for themselves (the common case, one test). */
const PLAIN = /^[\x20-\x5b\x5d-\x7e]*$/;

const hex = (b: number) => `\\x${b.toString(16).padStart(2, '0')}`;

/** The length of the UTF-8 sequence `b` starts (0: `b` cannot start one). */
const seqLength = (b: number) =>
  b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;

/** Each piece of the shown text: an escape (`esc`) or a character standing for itself. */
function* pieces(raw: Buffer): Generator<{ text: string; esc: boolean }> {
  let i = 0;
  while (i < raw.length) {
    const b = raw[i] as number;
    const len = seqLength(b);
    if (len === 1) {
      const named = NAMED[b];
      if (named !== undefined) yield { text: named, esc: true };
      else if (b < 0x20 || b === 0x7f) yield { text: hex(b), esc: true };
      else yield { text: String.fromCharCode(b), esc: false };
      i++;
      continue;
    }
    if (len > 1 && i + len <= raw.length) {
      let ch: string | null = null;
      try {
        ch = fatalDecoder.decode(raw.subarray(i, i + len));
      } catch {
        /* not a whole character: shown as a byte below */
      }
      if (ch !== null) {
        if (HIDDEN.test(ch)) for (let k = 0; k < len; k++) yield { text: hex(raw[i + k] as number), esc: true };
        else yield { text: ch, esc: false };
        i += len;
        continue;
      }
    }
    yield { text: hex(b), esc: true };
    i++;
  }
}

/** True when every byte of `raw` stands for itself in the shown text (nothing is escaped). */
export function bytesArePlain(raw: Buffer): boolean {
  const latin = raw.toString('latin1');
  if (PLAIN.test(latin)) return true;
  for (const p of pieces(raw)) if (p.esc) return false;
  return true;
}

/** The bytes as text: printable characters as they are, every other byte as an escape (see the top). */
export function escapeBytes(raw: Buffer): string {
  const latin = raw.toString('latin1');
  if (PLAIN.test(latin)) return latin;
  let out = '';
  for (const p of pieces(raw)) out += p.text;
  return out;
}

/** Characters a POSIX shell takes as part of a word without any quoting. */
const SHELL_BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Why no word is offered for a name: a POSIX shell can give a word a byte it cannot be typed with only through
 * `printf` in a command substitution, which drops the newlines a name ends in.
 */
export const NO_SHELL_WORD = 'no command to copy: the name ends in a newline, which no POSIX shell command can carry';

/** A shown escape (`\e`, `\n`, `\\`, `\xNN`…) as the same byte in printf's format (`\033`, `\012`, `\\`). */
function printfEscape(esc: string): string {
  if (esc === '\\\\') return esc;
  const b = esc.startsWith('\\x')
    ? parseInt(esc.slice(2), 16)
    : ({ e: 0x1b, n: 0x0a, t: 0x09, r: 0x0d } as Record<string, number>)[esc[1] as string];
  return `\\${(b as number).toString(8).padStart(3, '0')}`;
}

/**
 * The bytes as one word a POSIX shell (dash, bash, zsh's sh mode) reads back as exactly these bytes: bare when
 * nothing in it is special to the shell, `'…'` when it holds only printable text, and `"$(printf '…')"` (each byte
 * that cannot be typed as printf's three-digit octal escape, `\033`) when it holds a control byte, a byte that is
 * not UTF-8 or a hidden character: `$'…'` would be shorter, but dash (sh on Debian and Ubuntu) does not read it.
 * Null when the name ends in a newline: the command substitution would drop it (NO_SHELL_WORD says so). Never a
 * raw control byte.
 */
export function shellWordOfBytes(raw: Buffer): string | null {
  const latin = raw.toString('latin1');
  if (SHELL_BARE.test(latin)) return latin;
  if (bytesArePlain(raw)) {
    const text = raw.toString('utf8');
    return `'${text.replace(/'/g, `'\\''`)}'`;
  }
  if (raw[raw.length - 1] === 0x0a) return null;
  // A format that begins with `-` would read as an option: the dash goes in as its escape.
  let format = raw[0] === 0x2d ? '\\055' : '';
  let first = raw[0] === 0x2d;
  for (const p of pieces(raw)) {
    if (first) {
      first = false;
      continue;
    }
    if (p.esc) format += printfEscape(p.text);
    else format += p.text === "'" ? "'\\''" : p.text === '%' ? '%%' : p.text;
  }
  return `"$(printf '${format}')"`;
}
