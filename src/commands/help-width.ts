/**
 * Every `--help` within 80 columns: the texts are written as they read best, and a block with a line wider than 80
 * (a synopsis naming every option, an option's long description, a paragraph) is reflowed here, at word
 * boundaries, in the layout help texts have: a synopsis's options under its first option, an option's description
 * under its description column, a paragraph from the margin. Blocks already within 80 columns are left as written.
 */

export const HELP_WIDTH = 80;

/** Columns of help text: code points (the texts hold no wide characters; string-width would weigh on the bin). */
const stringWidth = (s: string): number => [...s].length;

/** One block of a help text: its lines, the prefix its first line keeps, where its continuation lines start. */
interface Block {
  lines: string[];
  head: string;
  hang: number;
  /** A synopsis: a `[…]` group is one word (never split across lines). */
  synopsis: boolean;
}

const indentOf = (line: string): number => /^ */.exec(line)![0].length;

/** A synopsis line (`Usage: omc-top x …`, `  omc-top x …`): its head is the command, its options hang under it. */
const SYNOPSIS = /^( *(?:Usage: )?omc-top(?: [a-z]+(?= ))? )/;
/** An option line (`  --wait SECONDS  wait up to…`, `  -h, --help    this text`): the head runs to its description. */
const OPTION = /^( +-\S*(?:,? -\S+)*(?: [A-Z<][^ ]*)? {1,})(?=\S)/;

function blocksOf(text: string): Block[] {
  const out: Block[] = [];
  let cur: Block | null = null;
  for (const line of text.split('\n')) {
    const indent = indentOf(line);
    const syn = SYNOPSIS.exec(line);
    const opt = syn ? null : OPTION.exec(line);
    // A continuation: deeper than its block's first line, not an option or synopsis of its own.
    if (cur && line.trim() !== '' && !syn && !opt && indent > indentOf(cur.lines[0]!) && cur.head !== '') {
      cur.lines.push(line);
      if (cur.lines.length === 2 && !cur.synopsis) cur.hang = indent;
      continue;
    }
    // A paragraph from the margin goes on while lines come from the margin.
    // A margin line led by a label (`Exit:`, `Keys:`) starts a paragraph of its own.
    const label = /^[A-Z][a-z]+: /.test(line);
    if (
      cur &&
      cur.head === '' &&
      indent === 0 &&
      line.trim() !== '' &&
      !syn &&
      !label &&
      indentOf(cur.lines[0]!) === 0
    ) {
      if (cur.lines[0]!.trim() !== '') {
        cur.lines.push(line);
        continue;
      }
    }
    const head = syn ? syn[1]! : opt ? opt[1]! : '';
    cur = { lines: [line], head, hang: head === '' ? indent : stringWidth(head), synopsis: syn !== null };
    out.push(cur);
  }
  return out;
}

/** The words of a block's text after its head: `[…]` groups whole in a synopsis. */
function wordsOf(text: string, synopsis: boolean): string[] {
  if (!synopsis) return text.split(/ +/).filter(Boolean);
  const words: string[] = [];
  let word = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === ' ' && depth === 0) {
      if (word !== '') words.push(word);
      word = '';
      continue;
    }
    if (ch === '[') depth += 1;
    if (ch === ']') depth = Math.max(0, depth - 1);
    word += ch;
  }
  if (word !== '') words.push(word);
  return words;
}

function reflow(b: Block, width: number): string[] {
  const text = [b.lines[0]!.slice(b.head.length), ...b.lines.slice(1).map((l) => l.trim())].join(' ');
  const hang = b.hang < width / 2 ? b.hang : 4;
  const out: string[] = [];
  let line = b.head === '' ? ' '.repeat(b.hang) : b.head;
  let fresh = true;
  for (const word of wordsOf(text.trim(), b.synopsis)) {
    const next = fresh ? `${line}${word}` : `${line} ${word}`;
    if (!fresh && stringWidth(next) > width) {
      out.push(line);
      line = `${' '.repeat(hang)}${word}`;
    } else line = next;
    fresh = false;
  }
  out.push(line);
  return out;
}

/** `text` with each block that has a line wider than `width` reflowed to it; the others as written. */
export function fitHelp(text: string, width: number = HELP_WIDTH): string {
  return blocksOf(text)
    .flatMap((b) => (b.lines.some((l) => stringWidth(l) > width) ? reflow(b, width) : b.lines))
    .join('\n');
}
