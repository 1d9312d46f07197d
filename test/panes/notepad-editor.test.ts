/** The editor buffer's pure transitions and its soft-wrap layout. */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import {
  backspace,
  bufferOf,
  cursorRow,
  del,
  deleteWordBack,
  end,
  home,
  insert,
  killToLineEnd,
  killToLineStart,
  layout,
  left,
  right,
  vertical,
} from '../../src/panes/notepad/editor.js';

describe('editing the buffer', () => {
  it('inserts typed and pasted text at the cursor; CR/CRLF become newlines, tabs two spaces, escapes vanish', () => {
    let b = bufferOf('ac', 1);
    b = insert(b, 'b');
    expect(b).toMatchObject({ text: 'abc', cursor: 2 });
    b = insert(bufferOf(''), 'one\r\ntwo\rthree\tx\u001b[31m!\u0007');
    expect(b.text).toBe('one\ntwo\nthree  x!');
    expect(b.cursor).toBe(b.text.length);
  });

  it('never splits a surrogate pair (emoji) with arrows, Backspace or Delete', () => {
    let b = bufferOf('a😀b');
    b = left(b);
    expect(b.cursor).toBe(3);
    b = left(b);
    expect(b.cursor).toBe(1);
    expect(backspace(right(b)).text).toBe('ab');
    expect(del(b).text).toBe('ab');
  });

  it('Up/Down keep the wanted column across shorter lines; Home/End stay on the line', () => {
    const text = 'long line here\nab\nanother long one';
    let b = bufferOf(text, 10); // column 10 of line 1
    b = vertical(b, 1);
    expect(b.cursor).toBe(text.indexOf('ab') + 2); // clamped to the end of "ab"
    b = vertical(b, 1);
    expect(b.cursor).toBe(text.indexOf('another') + 10); // column 10 again
    expect(vertical(b, -5).cursor).toBe(0);
    expect(vertical(b, 5).cursor).toBe(text.length);
    expect(home(b).cursor).toBe(text.indexOf('another'));
    expect(end(bufferOf(text, 1)).cursor).toBe(14);
  });

  it('keeps raw text as it is: the cursor steps over a control as one visible character, a letter and its accent as one', () => {
    const raw = 'a\u001b[31mb\te\u0301\u009bc';
    let b = bufferOf(raw, 0);
    const stops = [0];
    while (b.cursor < raw.length) stops.push((b = right(b)).cursor);
    expect(stops).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]);
    expect(backspace(bufferOf(raw, 10)).text).toBe('a\u001b[31mb\t\u009bc');
    expect(layout(raw, 40).map((r) => r.text)).toEqual(['a␛[31mb␉e\u0301<U+009B>c']);
  });

  it('Backspace at the start of a line joins it to the previous one', () => {
    expect(backspace(bufferOf('ab\ncd', 3))).toMatchObject({ text: 'abcd', cursor: 2 });
  });
});

describe('erasing more than a character (Ctrl-U, Ctrl-K, Ctrl-W)', () => {
  it('Ctrl-U erases from the line start to the cursor, a 5,000-character pasted line at once', () => {
    const long = 'x'.repeat(5_000);
    const b = killToLineStart(insert(bufferOf('keep\n'), long));
    expect(b).toMatchObject({ text: 'keep\n', cursor: 5 });
    expect(killToLineStart(bufferOf('ab\ncd', 3))).toMatchObject({ text: 'ab\ncd', cursor: 3 });
  });

  it('Ctrl-K erases to the line end, and at the end the line break', () => {
    expect(killToLineEnd(bufferOf('one two\nthree', 3))).toMatchObject({ text: 'one\nthree', cursor: 3 });
    expect(killToLineEnd(bufferOf('one\nthree', 3))).toMatchObject({ text: 'onethree', cursor: 3 });
    expect(killToLineEnd(bufferOf('end', 3)).text).toBe('end');
  });

  it('Ctrl-W erases the word before the cursor with the blanks after it, never half an emoji', () => {
    expect(deleteWordBack(bufferOf('fix the tests  '))).toMatchObject({ text: 'fix the ', cursor: 8 });
    expect(deleteWordBack(bufferOf('see 😀😀'))).toMatchObject({ text: 'see ', cursor: 4 });
    expect(deleteWordBack(bufferOf('', 0)).text).toBe('');
  });
});

describe('soft-wrap layout', () => {
  it('wraps after a space when it can, mid-word otherwise', () => {
    expect(layout('hello world again', 12).map((r) => r.text)).toEqual(['hello ', 'world again']);
    expect(layout('abcdefghijklmnop', 6).map((r) => r.text)).toEqual(['abcde', 'fghij', 'klmno', 'p']);
  });

  it('covers the text contiguously, keeps every row inside the width and finds the cursor row', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', ' ', '\n', '認', '😀', 'word '), { maxLength: 80 })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 30 }), (t, w) => {
        const rows = layout(t, w);
        const lines = t.split('\n');
        // Rows of each logical line, joined, give the line back.
        let i = 0;
        let offset = 0;
        for (const line of lines) {
          const first = rows[i]!;
          expect(first.from).toBe(offset);
          let acc = first.text;
          i++;
          while (i < rows.length && rows[i]!.from === rows[i - 1]!.to) acc += rows[i++]!.text;
          expect(acc).toBe(line);
          offset += line.length + 1;
        }
        expect(i).toBe(rows.length);
        for (const r of rows)
          expect(stringWidth(r.text)).toBeLessThanOrEqual(Math.max(w - 1, stringWidth(Array.from(r.text)[0] ?? '')));
        for (let c = 0; c <= t.length; c++) {
          const r = rows[cursorRow(rows, c)]!;
          expect(c >= r.from && c <= r.to).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
