/**
 * What "no control byte from a file reaches the terminal" means, as code, and
 * the hostile strings the corpus plants in files.
 *
 * A frame may hold printable text, `\n` between rows, and SGR styling
 * (`ESC [ params m`: colour, bold, inverse), which is Ink's own. Anything else
 * — another C0 control, DEL, a C1 control (8-bit CSI/OSC/DCS…), or any escape
 * sequence that is not SGR (cursor moves, OSC 52 clipboard writes, title
 * changes, screen clears) — can only have come from a file, and is reported.
 */

/** SGR only: ESC [ digits/semicolons/colons m. */
const SGR = /\u001b\[[0-9;:]*m/g;
/**
 * After SGR is removed: any C0 but LF, DEL, C1, a bidi control (text that renders in another order than
 * stored), a line or paragraph separator, or a Hangul filler (0, 1 or 2 cells, by terminal).
 */
const FORBIDDEN =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029\u115f\u1160\u3164\uffa0]/g;
/** The same characters, as one test (for outputs that are not frames). */
export const TERMINAL_UNSAFE = new RegExp(FORBIDDEN.source);

export interface Violation {
  index: number;
  /** The offending character(s) and a little context, JSON-escaped for a readable failure. */
  around: string;
}

/** Every byte in a terminal frame that is neither text, `\n`, nor SGR styling. */
export function terminalViolations(frame: string): Violation[] {
  const bare = frame.replace(SGR, (m) => ' '.repeat(m.length));
  const out: Violation[] = [];
  for (const m of bare.matchAll(FORBIDDEN)) {
    const i = m.index ?? 0;
    out.push({ index: i, around: JSON.stringify(frame.slice(Math.max(0, i - 20), i + 20)) });
    if (out.length >= 5) break;
  }
  return out;
}

/** Control characters that must never be inside a string of the --json document (after parsing). */
const JSON_FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Every string (keys included) in a parsed JSON value that carries a control character; returns their JSON paths. */
export function controlStringsIn(value: unknown, at = '$', out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (JSON_FORBIDDEN.test(value)) out.push(`${at} = ${JSON.stringify(value).slice(0, 120)}`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => controlStringsIn(v, `${at}[${i}]`, out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (JSON_FORBIDDEN.test(k)) out.push(`${at} has key ${JSON.stringify(k)}`);
      controlStringsIn(v, `${at}.${k}`, out);
    }
  }
  return out;
}

/** Raw bytes in a JSON text that a terminal would act on (JSON.stringify leaves DEL and C1 unescaped). */
export function rawControlBytes(text: string): Violation[] {
  const out: Violation[] = [];
  for (const m of text.matchAll(FORBIDDEN)) {
    const i = m.index ?? 0;
    out.push({ index: i, around: JSON.stringify(text.slice(Math.max(0, i - 20), i + 20)) });
    if (out.length >= 5) break;
  }
  return out;
}

/**
 * Escape sequences a hostile prompt, note or title can carry. Each has a
 * `payload` that must never be visible (it lives inside the sequence) and a
 * `visible` word around it that must survive sanitising.
 */
export const ESCAPES = {
  colour: { text: 'ok \u001b[31mRED\u001b[0m done', payload: '[31m', visible: 'RED' },
  osc52: {
    text: 'copy \u001b]52;c;SGFja2VkIGNsaXBib2FyZA==\u0007me',
    payload: 'SGFja2VkIGNsaXBib2FyZA',
    visible: 'copy',
  },
  osc52st: { text: 'clip \u001b]52;p;UFdORUQ=\u001b\\board', payload: 'UFdORUQ', visible: 'board' },
  cursor: { text: 'here\u001b[2J\u001b[H\u001b[10A\u001b[5;5Hthere', payload: '[2J', visible: 'there' },
  title: { text: 'name \u001b]0;PWNED-TITLE\u0007tail', payload: 'PWNED-TITLE', visible: 'tail' },
  title2: { text: 'name \u001b]2;OWNED-WINDOW\u001b\\end', payload: 'OWNED-WINDOW', visible: 'end' },
  c1csi: { text: 'eight\u009b31mbit\u009d0;C1-TITLE\u009c', payload: 'C1-TITLE', visible: 'eight' },
  dcs: { text: 'dcs \u001bP1$qm-DCS-BODY\u001b\\after', payload: 'DCS-BODY', visible: 'after' },
  bell: { text: 'ding\u0007\u0007dong\u0008\u0008\u007f', payload: '\u0007', visible: 'dong' },
  reset: { text: 'full\u001bcreset\u001b7save\u001b8', payload: '\u001bc', visible: 'reset' },
  bidi: { text: 'bidi \u202eevil\u202c text', payload: '\u202e', visible: 'text' },
  cr: { text: 'overwrite\rFAKE-LINE', payload: '\r', visible: 'FAKE-LINE' },
} as const;
export type EscapeName = keyof typeof ESCAPES;
export const ESCAPE_NAMES = Object.keys(ESCAPES) as EscapeName[];

/** Every payload at once: for one string that tries everything. */
export const ALL_ESCAPES = ESCAPE_NAMES.map((n) => ESCAPES[n].text).join(' ');

/**
 * omc-top's own terminal title ("omc-top <project> · needs you: N", issue 16): allowed, as long as its text is
 * printable. Any other title sequence, or one of omc-top's carrying a control byte, still counts as hostile.
 */
const OWN_TITLE = /\u001b\]2;omc-top [^\u0000-\u001f\u007f-\u009f]*\u0007/g;
export const withoutOwnTitle = (output: string): string => output.replace(OWN_TITLE, '');
/** Titles the terminal saw that are not omc-top's own clean one, or that carry any of `payloads`. */
export const foreignTitles = (titles: readonly string[], payloads: readonly string[]): string[] =>
  titles.filter(
    (t) =>
      !t.startsWith('omc-top ') ||
      /[\u0000-\u001f\u007f-\u009f]/.test(t) ||
      // A payload shown as the inert text of its own sequence (`\e]0;PWNED`: a name named by every byte) set nothing.
      payloads.some((p) => t.includes(p) && !/\\e\][0-9]+;$/.test(t.slice(0, t.indexOf(p)))),
  );
