/**
 * Text for a terminal whose locale is not UTF-8. omc-top's chrome is drawn with a few glyphs beyond ASCII (· ▸ … ⚠
 * ↓); a terminal in the C or a latin-1 locale shows each of their UTF-8 bytes as a character of its own, so every
 * row holding one runs two or three cells long and the frame wraps into itself. There, what reaches the terminal
 * (the monitor's frames, its title, `status --tmux`) is made ASCII at the last moment, by one table: each glyph
 * becomes one ASCII character of the same width, so nothing measured before (cut columns, the frame) moves. Any
 * other character beyond ASCII (a name, a prompt) becomes `?` per cell it takes. `--json` and the text of files
 * written are data and are never touched.
 */
/**
 * Whether the locale's character set is UTF-8: the first of LC_ALL, LC_CTYPE and LANG that is set decides (POSIX's
 * precedence). With none set the terminal is taken to be UTF-8: a container or an ssh session without a locale
 * usually sits in a terminal that is, and ASCII there would only lose glyphs.
 */
export function localeIsUtf8(env: NodeJS.ProcessEnv = process.env): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((v) => v !== undefined && v !== '');
  if (locale === undefined) return true;
  return /\.utf-?8(@|$)/i.test(locale);
}

/**
 * Each glyph omc-top draws itself, and the ASCII character (one cell, as the glyph) that stands for it. Every
 * character beyond ASCII in src/'s text and Ink border styles must be here (test/unit/glyphs-cover.test.ts finds them).
 */
const ASCII_FOR: Readonly<Record<string, string>> = {
  '·': '|',
  '…': '~',
  '▸': '>',
  '❯': '>',
  '→': '>',
  '←': '<',
  '↑': '^',
  '↓': 'v',
  '⚠': '!',
  '✓': '+',
  '✗': 'x',
  '×': 'x',
  '—': '-',
  '–': '-',
  '−': '-',
  '─': '-',
  '▌': '|',
  '█': '#',
  '░': '.',
  '≥': '>',
  '≤': '<',
  '≈': '~',
  '½': '%',
  '’': "'",
  '✎': '*',
  '⏻': 'o',
  '↻': '@',
  '␛': '^',
  '␇': '^',
  '§': 'S',
  '│': '|',
  '╭': '+',
  '╮': '+',
  '╰': '+',
  '╯': '+',
  '▏': '|',
  '▒': 'x',
  '▁': '_',
  '▂': '_',
  '▃': '-',
  '▄': '-',
  '▅': '=',
  '▆': '=',
  '▇': '#',
  '⛓': '&',
  '“': '"',
  '”': '"',
  '»': '>',
  '↔': '/',
  ℹ: 'i',
  '⁴': '4',
  ˣ: 'x',
  '\u00a0': ' ',
};

const BEYOND_ASCII = /[^\x00-\x7f]+/g;
/**
 * A grapheme at a time, so a character and its combining marks are one `?`. Made on first use: building a segmenter
 * loads ICU's break rules (~12 ms of CPU), which every `--version` and `status --tmux` call paid when it was made as
 * this module loaded (the bin loads it for its output), though only a non-UTF-8 locale ever uses it.
 */
let graphemes: Intl.Segmenter | null = null;
/**
 * The East Asian wide and fullwidth blocks and the emoji planes (Markus Kuhn's wcwidth ranges): two cells, so two `?`.
 * Not string-width, which the bin's small bundles (`status --tmux`, the hook) would carry for this alone; a character
 * it counts wide and this does not only leaves its row a cell short, never too long.
 */
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

function asciiRun(run: string): string {
  let out = '';
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(run)) out += ASCII_FOR[segment] ?? (WIDE.test(segment) ? '??' : '?');
  return out;
}

/** `text` in ASCII, cell for cell (escape sequences are ASCII and pass as they are). */
export function asciiText(text: string): string {
  return text.replace(BEYOND_ASCII, asciiRun);
}

const asIs = (text: string) => text;

/** The terminal's text as its locale can show it: `asciiText` when that locale is not UTF-8, else as it is. */
export function forLocale(env: NodeJS.ProcessEnv = process.env): (text: string) => string {
  return localeIsUtf8(env) ? asIs : asciiText;
}
