/**
 * Text for a terminal of a known width, wrapped at word boundaries: `doctor`'s lines on a TTY, so an 80-column
 * split does not break `$HOME/.omc` as `$HOME/.om|c`. A word longer than a line (a long path) is broken after a
 * `/` where it can be, else left whole: a path is never shortened here, the user may want to copy it.
 */
import stringWidth from 'string-width';

/** `text` as lines of at most `room` cells (a word longer than that alone on its lines). */
export function wrapWords(text: string, room: number): string[] {
  const width = Math.max(1, room);
  const out: string[] = [];
  let line = '';
  const push = () => {
    if (line !== '') out.push(line);
    line = '';
  };
  for (const word of text.split(/ +/)) {
    if (word === '') continue;
    const joined = line === '' ? word : `${line} ${word}`;
    if (stringWidth(joined) <= width) {
      line = joined;
      continue;
    }
    push();
    if (stringWidth(word) <= width) {
      line = word;
      continue;
    }
    // Longer than a line: broken after a `/` that keeps each piece within the line, where there is one.
    let rest = word;
    while (stringWidth(rest) > width) {
      const cut = rest.lastIndexOf('/', width - 1);
      if (cut <= 0) break;
      out.push(rest.slice(0, cut + 1));
      rest = rest.slice(cut + 1);
    }
    line = rest;
  }
  push();
  return out.length > 0 ? out : [''];
}
