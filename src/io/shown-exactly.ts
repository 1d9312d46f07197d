/**
 * Text the user acts on, shown so that what they see is all there is: the command a permission request would
 * run. cleanLine removes an escape sequence together with the text inside it, and turns a line break into a
 * space; right for a row or a notification, wrong for an approval: `ls ␛]0;x; curl … | sh ␇` would read
 * `ls`, and two commands on two lines would read as one with arguments. Here every character stays and each
 * control, bidi control or separator is its visible stand-in (shownInEditor: ␛, ␇, ␊, <U+202E>), so nothing
 * reaches the terminal and nothing hides.
 */
import { shownInEditor } from './sanitize.js';

// Made at first use: an Intl.Segmenter sets up ICU's break data (9 ms of every start's main thread, timed in the
// app), and most commands a permission request shows are plain ASCII, which never needs one.
let segmenter: Intl.Segmenter | null = null;
const graphemes = () => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
// Printable ASCII (almost every command): shown as it is.
const PLAIN = /^[\x20-\x7e]*$/;

export function shownExactly(text: string): string {
  if (PLAIN.test(text)) return text;
  let out = '';
  for (const { segment } of graphemes().segment(text)) out += shownInEditor(segment);
  return out;
}
