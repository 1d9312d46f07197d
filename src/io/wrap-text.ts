/**
 * The one word-wrapping rule, for text of a known width in cells: every view's (re-exported by ui/format.ts) and
 * `doctor`'s on a TTY (`asWritten`). It lives on the lowest floor so the commands, which may not import the views,
 * wrap with the same code.
 */
import stringWidth from 'string-width';

/** How a text is wrapped beyond its width: the views' rule unless said otherwise. */
export interface WrapOptions {
  /**
   * Words exactly as written, for one line of facts a user may copy (doctor's paths, variables, commands): nothing
   * is glued to the next word and no word is shortened or cut. A word longer than a line breaks only after a `/`
   * that keeps each piece within the line, else stands whole, wider than the line. A run of spaces reads as one
   * and the text's own indent is dropped (the caller places the lines).
   */
  asWritten?: boolean;
}

/** A long word breaks after one of these (JSON, URLs, key=value) before it breaks mid-word. */
const BREAK_AFTER = /(?<=[/\\,:;=&._\-\]}])/;

/** A date and its time ("2026-12-02 05:59:07Z") wrap as one word: a time is never left on its own line. */
const STAMP = /\b(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)\b/g;
const GLUE = '\u00a0';

/** A word that names a file or directory: it is kept on one line, shortened in its middle when longer. */
const PATH_LIKE = /^[^\s]*[/\\][^\s]*$/;

/**
 * A key as a hint names it ("O switches to it", "Esc cancels", "(q quits)", "c to clean it up", "M: full
 * message"): one character, or a key's name, maybe after an opening bracket or quote and before a colon.
 */
const KEY =
  /(?<=^|[ \t])([("'[]?(?:[A-Za-z0-9?!/$]|Esc|Enter|Tab|Space|Backspace|PgUp|PgDn|Home|End|(?:Ctrl|Alt|Shift)-\S|[↑↓←→]{1,4}):?) (?=([^\s]+))/g;

/**
 * Glues each key to the word after it, so a wrapped hint never leaves a key at the end of one line and its meaning
 * on the next (`…: O` / `switches to it`): the pair moves to the next line whole. Not when the pair would not fit
 * on a line of its own, nor before a path (a path keeps its own rule: whole, or shortened in its middle).
 */
function glueKeys(body: string, room: number): string {
  if (!body.includes(' ')) return body;
  return body.replace(KEY, (whole, key: string, word: string) =>
    PATH_LIKE.test(word) || stringWidth(key) + 1 + stringWidth(word) > room ? whole : `${key}${GLUE}`,
  );
}

/** Cuts `s` to `w` cells with one `…` in its middle, keeping its start and its end (a path's file name). */
export function shortenMiddle(s: string, w: number): string {
  if (stringWidth(s) <= w) return s;
  if (w <= 1) return '…'.slice(0, w);
  const chars = Array.from(s);
  const tailRoom = Math.ceil((w - 1) / 2);
  let headRoom = w - 1 - tailRoom;
  let tail = '';
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const cw = stringWidth(chars[i] as string);
    if (used + cw > tailRoom) break;
    tail = (chars[i] as string) + tail;
    used += cw;
  }
  headRoom += tailRoom - used;
  let head = '';
  used = 0;
  for (const ch of chars) {
    const cw = stringWidth(ch);
    if (used + cw > headRoom) break;
    head += ch;
    used += cw;
  }
  return `${head}…${tail}`;
}

/**
 * Wraps plain text to `w` cells per line: the one wrapping rule of every view.
 * A line's leading indent carries onto its continuation lines (up to half the
 * width) and words move whole to the next line: a timestamp (date and time
 * together) or a path is never split across lines. A path longer than a whole
 * line is shortened once in its middle with `…`; any other word longer than a
 * line breaks after a separator (/ , : ; = & . _ - ] }), and only a run with
 * none of them is cut mid-word. A key stays on the line of the word after it
 * (glueKeys): a hint reads "O switches to it", never "O" alone at a line's end. `asWritten` (WrapOptions) keeps
 * only the first rule: words move whole, and nothing is glued, shortened or cut.
 */
export function wrapText(text: string, w: number, opts: WrapOptions = {}): string[] {
  const width = Math.max(1, w);
  const out: string[] = [];
  const paras = opts.asWritten ? [text.split(/ +/).filter(Boolean).join(' ')] : text.split('\n');
  for (const para of paras) {
    if (para.trim() === '') {
      out.push('');
      continue;
    }
    const lead = /^[ \t]*/.exec(para)?.[0] ?? '';
    const indent = stringWidth(lead) <= Math.floor(width / 2) ? lead : '';
    const iw = stringWidth(indent);
    let line = stringWidth(lead) < width ? lead : '';
    let lw = stringWidth(line);
    let fresh = true; // nothing but indent on this line yet
    const breakLine = () => {
      out.push(line.replace(/\s+$/, '').replaceAll(GLUE, ' '));
      line = indent;
      lw = iw;
      fresh = true;
    };
    const add = (piece: string, pw: number) => {
      line += piece;
      lw += pw;
      fresh = false;
    };
    const words = para.slice(lead.length);
    const body = opts.asWritten ? words : glueKeys(words.replace(STAMP, `$1${GLUE}$2`), width - iw);
    for (const token of body.split(/([ \t\r\f\v]+)/)) {
      if (token === '') continue;
      const tw = stringWidth(token);
      if (/^\s+$/.test(token)) {
        if (fresh) continue;
        if (lw + tw <= width) add(token, tw);
        else breakLine();
        continue;
      }
      // A word that fits on a line of its own goes there whole rather than being split.
      if (lw + tw > width && !fresh && tw <= width - iw) breakLine();
      if (lw + tw <= width) {
        add(token, tw);
        continue;
      }
      if (opts.asWritten) {
        // Pieces up to the last `/` that keeps each within the line; what is left stands whole.
        let rest = token;
        while (stringWidth(rest) > width) {
          const cut = rest.lastIndexOf('/', width - 1);
          if (cut <= 0) break;
          if (!fresh) breakLine();
          const piece = rest.slice(0, cut + 1);
          add(piece, stringWidth(piece));
          rest = rest.slice(cut + 1);
        }
        if (rest === '') continue;
        if (!fresh) breakLine();
        add(rest, stringWidth(rest));
        continue;
      }
      if (PATH_LIKE.test(token)) {
        if (!fresh) breakLine();
        const short = shortenMiddle(token, Math.max(1, width - lw));
        add(short, stringWidth(short));
        continue;
      }
      for (const piece of token.split(BREAK_AFTER)) {
        const pw = stringWidth(piece);
        if (lw + pw > width && !fresh) breakLine();
        if (lw + pw <= width) {
          add(piece, pw);
          continue;
        }
        for (const ch of piece) {
          const cw = stringWidth(ch);
          if (lw + cw > width && !fresh) breakLine();
          add(ch, cw);
        }
      }
    }
    out.push(line.replace(/\s+$/, '').replaceAll(GLUE, ' '));
  }
  return out;
}
