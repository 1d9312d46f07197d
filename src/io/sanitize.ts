/**
 * Everything that comes from a file is hostile until it has been through here.
 * OMC state holds user prompts, agent output and wiki text: any of it can carry
 * colour codes, cursor moves, OSC 52 clipboard writes or a terminal-title change.
 * We remove whole escape sequences (not just the ESC byte, which would leave
 * "[31m" litter), every other C0/C1 control, DEL, and the bidi overrides that
 * can make text render in a different order than it is stored.
 */

import { agreeWidth } from './agreed-width.js';
import { showPaths } from './safe-fs/byte-paths.js';

// CSI: ESC [ params intermediates final. Also the 8-bit CSI (U+009B).
const CSI = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?/g;
// OSC / DCS / SOS / PM / APC strings, terminated by BEL or ST (ESC \ or U+009C), or unterminated to end.
const STRING_SEQ = /(?:\u001b[\]PX^_]|[\u0090\u009d\u0098\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)/g;
// Any other two-byte escape (ESC followed by one char), e.g. ESC c (reset), ESC 7.
const ESC_PAIR = /\u001b[\s\S]?/g;
// C0 controls except TAB and LF, DEL, C1 controls.
const CONTROLS_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const CONTROLS_LINE = /[\u0000-\u001f\u007f-\u009f]/g;
// Bidi embedding/override/isolate controls (Trojan-Source style reordering).
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
// The Unicode line and paragraph separators: some terminals break the line there, some draw nothing.
const SEPARATORS = /[\u2028\u2029]/g;
// Every character cleanLine's steps act on: C0 and C1 controls (ESC and the 8-bit introducers among them), DEL,
// the separators and the bidi controls. A text without any is left as it is by all of them.
const LINE_WORK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

function stripSequences(s: string): string {
  return s.replace(STRING_SEQ, '').replace(CSI, '').replace(ESC_PAIR, '').replace(BIDI, '');
}

/**
 * For one-line display: newlines and tabs become spaces; no control bytes
 * survive, and no character whose width terminals dispute (agreed-width.ts):
 * a one-line value is what sits in a row, and a row must never wrap.
 */
export function cleanLine(value: unknown): string {
  const s = typeof value === 'string' ? value : value == null ? '' : String(value);
  // A directory held by its bytes (its name is not UTF-8) is named by its real path, bad bytes as \xNN.
  const shown = showPaths(s);
  // Nothing any step below removes or replaces: the common case (a prompt, a mode name), one scan instead of seven.
  return LINE_WORK.test(shown) ? lineSteps(shown) : agreeWidth(shown);
}

/** cleanLine without its shortcut (exported so a test can hold the shortcut to it). */
export function cleanLineFull(value: string): string {
  return lineSteps(showPaths(value));
}

function lineSteps(shown: string): string {
  return agreeWidth(
    stripSequences(shown)
      .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
      .replace(CONTROLS_LINE, ''),
  );
}

/** For multi-line display: keeps \n, expands tabs, drops \r and every other control. */
export function cleanBlock(value: unknown): string {
  const s = typeof value === 'string' ? value : value == null ? '' : String(value);
  return stripSequences(showPaths(s))
    .replace(/\r\n?/g, '\n')
    .replace(SEPARATORS, '\n')
    .replace(/\t/g, '  ')
    .replace(CONTROLS_BLOCK, '');
}

/**
 * For multi-line text drawn on the screen (a wiki page's body, the memory injection preview): cleanBlock, and
 * no character whose width terminals dispute (agreed-width.ts), as every one-line value. A ZWJ left in would be
 * wrapped inside its emoji sequence and drawn on the next line by a terminal that counts it.
 */
export function cleanBlockShown(value: unknown): string {
  return agreeWidth(cleanBlock(value));
}

/**
 * How an editor that keeps the raw text (the notepad editor, the directive form) shows one unit of it, a
 * grapheme: as written when every terminal draws it so, else as a visible stand-in. A C0 control or DEL
 * becomes its Unicode control picture (␉ tab, ␛ escape, ␡ delete); a C1 control, a bidi control, a line or
 * paragraph separator, or a character agreeWidth would drop becomes `<U+XXXX>`. The raw text stays in the
 * buffer and is written back as it was; the terminal never receives a control from it, and nothing in it is
 * invisible, so a cursor over it never sits on nothing (an escape sequence reads `␛[31m`, never a stray `[31m`).
 */
export function shownInEditor(unit: string): string {
  if (SIMPLE_UNIT.test(unit)) return unit;
  let out = '';
  let rest = '';
  const flush = () => {
    if (rest === '') return;
    const agreed = agreeWidth(rest);
    out += agreed === '' ? codePoints(rest) : agreed;
    rest = '';
  };
  for (const ch of unit) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x20 || cp === 0x7f) {
      flush();
      out += String.fromCharCode(cp === 0x7f ? 0x2421 : 0x2400 + cp);
    } else if (LINE_WORK.test(ch)) {
      flush();
      out += codePoints(ch);
    } else rest += ch;
  }
  flush();
  return out;
}
// Printable ASCII (most of any text): shown as it is.
const SIMPLE_UNIT = /^[\x20-\x7e]*$/;
const codePoints = (s: string) =>
  Array.from(s, (c) => `<U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}>`).join('');

/** Recursively sanitises every string (keys included) in a parsed JSON value for display. */
export function cleanDeep(value: unknown, depth = 0): unknown {
  if (depth > 32) return '[…]';
  // State values end up in rows (current_phase, prompts, names): widths every terminal agrees on.
  if (typeof value === 'string') return agreeWidth(cleanBlock(value));
  if (Array.isArray(value)) return value.map((v) => cleanDeep(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const key = cleanLine(k);
      const clean = cleanDeep(v, depth + 1);
      // JSON.parse makes "__proto__" an own key; plain assignment would set the prototype and the key would vanish.
      if (key === '__proto__')
        Object.defineProperty(out, key, { value: clean, enumerable: true, writable: true, configurable: true });
      else out[key] = clean;
    }
    return out;
  }
  return value;
}

/** Cuts to a display width in code points, adding an ellipsis. (Terminal width of CJK is handled by Ink.) */
export function truncate(s: string, max: number): string {
  if (max <= 0) return '';
  // No more UTF-16 units than the limit: no more code points either (and no array of them to build).
  if (s.length <= max) return s;
  const chars = Array.from(s);
  if (chars.length <= max) return s;
  if (max === 1) return '…';
  return chars.slice(0, max - 1).join('') + '…';
}

/**
 * What a removal took, short enough for a message line: the first non-blank line of `text`, cleaned and cut, in
 * quotes. Said with "deleted …" so the user can tell which of several entries went (OMC stamps a busy minute's
 * entries alike) and type it again from the message log if it was the wrong one.
 */
export function firstLineQuoted(text: string, max = 60): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return `"${truncate(cleanLine(line).trim(), max)}"`;
}

/**
 * Text that arrives as a paste (bracketed paste into a filter, a search, an
 * editor, a form) is as hostile as text from a file: a pasted OSC 52 would be
 * echoed to the terminal by the field that shows it. Keeps line ends (editors
 * take them), expands tabs, removes every other sequence and control.
 */
export function cleanPaste(text: string): string {
  // Line ends stay as the terminal sent them (\r or \n): the fields decide what a pasted line end means.
  return stripSequences(text)
    .replace(SEPARATORS, '\n')
    .replace(/\t/g, '  ')
    .replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '');
}

/**
 * What JSON.stringify leaves raw and a terminal would act on, reorder or lay out in dispute: DEL, C1,
 * the bidi controls, the line and paragraph separators, the Hangul fillers and conjoining jamo (0, 1 or 2
 * cells), and the characters agreeWidth drops or replaces on the screen: zero-width and format characters
 * (ZWJ among them), variation selectors, skin-tone modifiers, tag characters and regional indicators.
 */
const JSON_UNSAFE =
  // A class of single code points (u flag), not of glyphs: the joiners and selectors in it are the point.
  // eslint-disable-next-line no-misleading-character-class
  /[\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160-\u11ff\u17b4\u17b5\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;
const escapeUnits = (c: string) =>
  Array.from({ length: c.length }, (_, i) => '\\u' + c.charCodeAt(i).toString(16).padStart(4, '0')).join('');

/**
 * JSON for a terminal or a pipe, the one JSON writer of every output (`--json`, `watch --json` lines,
 * the subcommands' documents): C0 controls are escaped by JSON.stringify itself; the characters of
 * JSON_UNSAFE are escaped here as \uXXXX. A JSON parser reads back exactly the same value; a terminal
 * it is printed on sees no control byte. `indent` 0 is one line (the JSON-lines streams).
 */
export function terminalSafeJson(value: unknown, indent = 2): string {
  return showPaths(JSON.stringify(value, null, indent), true).replace(JSON_UNSAFE, escapeUnits);
}
