/**
 * Raw terminal input → single key events.
 *
 * Ink 6 hands a whole run of typed (or pasted) text to its input callback as
 * one string, so "\txy\r" arrives as one event and components built on
 * useInput see neither the Tab nor the Enter (seen with Ink 6.8 in tmux).
 * This decoder splits every chunk into one event per key, recognises the
 * escape sequences terminals send for arrows, Home/End, PgUp/PgDn, Delete,
 * Shift-Tab and F-keys, and gathers bracketed paste (ESC[200~ … ESC[201~)
 * into a single paste event so a pasted newline is text, not Enter.
 */
import { cleanPaste } from '../io/sanitize.js';

export type KeyName =
  | 'char'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'pageup'
  | 'pagedown'
  | 'enter'
  | 'tab'
  | 'backtab'
  | 'backspace'
  | 'delete'
  | 'insert'
  | 'escape'
  | `f${number}`
  | 'wheelup'
  | 'wheeldown'
  | 'click'
  | 'unknown';

export interface Key {
  name: KeyName;
  /** The character for name === 'char' (or the letter for ctrl/meta combos). */
  ch: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  /** Where a click landed, 0-based from the screen's top-left (the router makes it the pane's own, kit/nav.ts). */
  at?: { x: number; y: number };
}

export type InputEvent = { kind: 'key'; key: Key } | { kind: 'paste'; text: string };

const key = (name: KeyName, extra: Partial<Key> = {}): InputEvent => ({
  kind: 'key',
  key: { name, ch: '', ctrl: false, meta: false, shift: false, ...extra },
});

/** The cursor keys' final letters, the same after CSI (`ESC [`) and SS3 (`ESC O`, application mode). */
const CURSOR_FINAL: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
const CSI_FINAL: Record<string, KeyName> = { ...CURSOR_FINAL, Z: 'backtab' };
const TILDE: Record<string, KeyName> = {
  '1': 'home',
  '2': 'insert',
  '3': 'delete',
  '4': 'end',
  '5': 'pageup',
  '6': 'pagedown',
  '7': 'home',
  '8': 'end',
  '11': 'f1',
  '12': 'f2',
  '13': 'f3',
  '14': 'f4',
  '15': 'f5',
  '17': 'f6',
  '18': 'f7',
  '19': 'f8',
  '20': 'f9',
  '21': 'f10',
  '23': 'f11',
  '24': 'f12',
};
const SS3: Record<string, KeyName> = { ...CURSOR_FINAL, P: 'f1', Q: 'f2', R: 'f3', S: 'f4' };

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';

/** xterm modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4). */
function modifiers(param: string | undefined): Partial<Key> {
  const m = param ? Number(param) - 1 : 0;
  if (!Number.isFinite(m) || m <= 0) return {};
  return { shift: (m & 1) !== 0, meta: (m & 2) !== 0, ctrl: (m & 4) !== 0 };
}

export class InputDecoder {
  private paste: string[] | null = null;
  /** Leftover bytes of an escape sequence split across chunks. */
  private carry = '';

  push(chunk: string): InputEvent[] {
    const out: InputEvent[] = [];
    let s = this.carry + chunk;
    this.carry = '';
    while (s.length > 0) {
      if (this.paste) {
        const end = s.indexOf(PASTE_END);
        if (end === -1) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(s, PASTE_END);
          this.paste.push(s.slice(0, s.length - keep));
          this.carry = s.slice(s.length - keep);
          return out;
        }
        this.paste.push(s.slice(0, end));
        out.push({ kind: 'paste', text: cleanPaste(this.paste.join('')) });
        this.paste = null;
        s = s.slice(end + PASTE_END.length);
        continue;
      }
      if (s.startsWith(PASTE_START)) {
        this.paste = [];
        s = s.slice(PASTE_START.length);
        continue;
      }
      const c = s[0] as string;
      if (c === '\u001b') {
        const consumed = this.escape(s, out);
        if (consumed === 0) {
          this.carry = s;
          return out;
        }
        s = s.slice(consumed);
        continue;
      }
      const cp = s.codePointAt(0) as number;
      const ch = String.fromCodePoint(cp);
      s = s.slice(ch.length);
      out.push(decodeSingle(ch));
    }
    return out;
  }

  /** A lone ESC that was held back waiting for more bytes is an Escape key after all. */
  flush(): InputEvent[] {
    // Inside a paste the held bytes are the start of its end marker (or of an escape sequence in the pasted
    // text, which cleanPaste removes whole): they belong to the paste, never to a key. Splitting an ESC off
    // there let a pasted OSC 52 lose its ESC and reach the filter as plain text.
    if (this.carry === '' || this.paste) return [];
    const s = this.carry;
    this.carry = '';
    if (s === '\u001b') return [key('escape')];
    return this.push(s);
  }

  get hasPending(): boolean {
    return this.carry !== '' && !this.paste;
  }

  /** Returns how many chars it consumed from `s` (which starts with ESC); 0 = need more input. */
  private escape(s: string, out: InputEvent[]): number {
    if (s.length === 1) return 0;
    const next = s[1] as string;
    if (next === '[') {
      // CSI: params [0-?]*, intermediates [ -/]*, final [@-~]
      let i = 2;
      if (s[i] === '[') i++; // legacy ESC[[A
      while (i < s.length && /[0-?]/.test(s[i] as string)) i++;
      while (i < s.length && /[ -/]/.test(s[i] as string)) i++;
      if (i >= s.length) return s.length > 16 ? s.length : 0;
      const final = s[i] as string;
      const params = s.slice(2, i).replace(/^\[/, '');
      const seq = s.slice(0, i + 1);
      if (seq === PASTE_START || seq === PASTE_END) return i + 1; // handled by caller; stray end marker is dropped
      const parts = params.split(';');
      if (params.startsWith('<') && (final === 'M' || final === 'm')) {
        // SGR mouse report: ESC[<button;col;row M|m. The wheel, and a left press (no motion, no modifier) as a
        // click where it landed; a release, a drag and the other buttons mean nothing here.
        const [button, col, row] = params.slice(1).split(';').map(Number) as [number, number, number];
        const click = final === 'M' && button === 0 && col >= 1 && row >= 1;
        out.push(
          click
            ? key('click', { at: { x: col - 1, y: row - 1 } })
            : key(
                final === 'M' && (button & 0x43) === 0x40
                  ? 'wheelup'
                  : final === 'M' && (button & 0x43) === 0x41
                    ? 'wheeldown'
                    : 'unknown',
              ),
        );
        return i + 1;
      }
      if (final === '~') {
        const name = TILDE[parts[0] ?? ''] ?? 'unknown';
        out.push(key(name, modifiers(parts[1])));
      } else if (CSI_FINAL[final]) {
        const name = CSI_FINAL[final] as KeyName;
        out.push(key(name, name === 'backtab' ? { shift: true } : modifiers(parts[1])));
      } else {
        out.push(key('unknown'));
      }
      return i + 1;
    }
    if (next === 'O') {
      if (s.length < 3) return 0;
      out.push(key(SS3[s[2] as string] ?? 'unknown'));
      return 3;
    }
    if (next === '\u001b') {
      out.push(key('escape'));
      return 1;
    }
    // Alt/Meta + key
    const ev = decodeSingle(next);
    if (ev.kind === 'key') ev.key.meta = true;
    out.push(ev);
    return 2;
  }
}

function decodeSingle(ch: string): InputEvent {
  switch (ch) {
    case '\r':
    case '\n':
      return key('enter');
    case '\t':
      return key('tab');
    case '\u007f':
    case '\b':
      return key('backspace');
    case '\u001b':
      return key('escape');
    default:
      break;
  }
  const code = ch.codePointAt(0) as number;
  if (code < 0x20) {
    // Ctrl+A … Ctrl+Z (and a few punctuation controls).
    const letter = String.fromCharCode(code + 0x60);
    return key('char', { ch: letter, ctrl: true });
  }
  if ((code >= 0x80 && code < 0xa0) || code === 0x7f) return key('unknown');
  return key('char', { ch });
}

/** Length of the longest suffix of `s` that is a proper prefix of `marker`. */
function partialSuffix(s: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) {
    if (marker.startsWith(s.slice(s.length - n))) return n;
  }
  return 0;
}

/** Convenience for tests and key maps. */
export function isChar(ev: InputEvent, ch: string): boolean {
  return ev.kind === 'key' && ev.key.name === 'char' && ev.key.ch === ch && !ev.key.ctrl && !ev.key.meta;
}
export function isCtrl(ev: InputEvent, ch: string): boolean {
  return ev.kind === 'key' && ev.key.name === 'char' && ev.key.ctrl && ev.key.ch === ch;
}
export function isKey(ev: InputEvent, name: KeyName): boolean {
  return ev.kind === 'key' && ev.key.name === name;
}
