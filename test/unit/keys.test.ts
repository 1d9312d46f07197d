import { describe, expect, it } from 'vitest';
import { InputDecoder, type InputEvent } from '../../src/terminal/keys.js';

const names = (evs: InputEvent[]) =>
  evs.map((e) =>
    e.kind === 'paste'
      ? `paste:${e.text}`
      : e.key.name === 'char'
        ? `${e.key.ctrl ? 'C-' : ''}${e.key.meta ? 'M-' : ''}${e.key.ch}`
        : e.key.name,
  );

describe('InputDecoder: one event per key, whatever the chunking', () => {
  it('splits a burst of text, Tab and Enter into single keys', () => {
    expect(names(new InputDecoder().push('\thi\r'))).toEqual(['tab', 'h', 'i', 'enter']);
  });

  it('decodes arrows, Home/End, PgUp/PgDn, Delete, Shift-Tab, F1 and modified arrows', () => {
    const d = new InputDecoder();
    expect(
      names(d.push('\u001b[A\u001b[B\u001bOC\u001b[D\u001b[H\u001b[4~\u001b[5~\u001b[6~\u001b[3~\u001b[Z\u001bOP')),
    ).toEqual(['up', 'down', 'right', 'left', 'home', 'end', 'pageup', 'pagedown', 'delete', 'backtab', 'f1']);
    const [ev] = d.push('\u001b[1;5A');
    expect(ev).toMatchObject({ kind: 'key', key: { name: 'up', ctrl: true } });
  });

  it('maps DEL and ^H to Backspace, control letters to ctrl keys, ESC+key to meta', () => {
    expect(names(new InputDecoder().push('\u007f\b\u0003\u0013\u001bx'))).toEqual([
      'backspace',
      'backspace',
      'C-c',
      'C-s',
      'M-x',
    ]);
  });

  it('keeps a sequence split across chunks together', () => {
    const d = new InputDecoder();
    expect(d.push('\u001b[')).toEqual([]);
    expect(names(d.push('B'))).toEqual(['down']);
  });

  it('treats a lone ESC as Escape once flushed', () => {
    const d = new InputDecoder();
    expect(d.push('\u001b')).toEqual([]);
    expect(d.hasPending).toBe(true);
    expect(names(d.flush())).toEqual(['escape']);
  });

  it('gathers a bracketed paste into one event, newlines included, even across chunks', () => {
    const d = new InputDecoder();
    expect(d.push('\u001b[200~line one\rline')).toEqual([]);
    expect(names(d.push(' two\u001b[20'))).toEqual([]);
    expect(names(d.push('1~x'))).toEqual(['paste:line one\rline two', 'x']);
  });

  it('passes CJK and emoji through as single characters', () => {
    expect(names(new InputDecoder().push('決🚀'))).toEqual(['決', '🚀']);
  });
});

describe('a bracketed paste split across reads, with the Escape timeout firing in between', () => {
  it('never turns an ESC inside the paste into a key: a pasted OSC 52 is removed whole at every split point', () => {
    const osc52 = 'copy \u001b]52;c;SGFja2VkIGNsaXBib2FyZA==\u0007 done';
    const full = `\u001b[200~${osc52}\u001b[201~`;
    // From the first byte after the start marker on (a lone ESC before it is an Escape key, as in any terminal).
    for (let i = '\u001b[200~'.length; i < full.length; i++) {
      const d = new InputDecoder();
      // flush() is what the router calls when no more bytes came within the Escape timeout.
      const ev = [...d.push(full.slice(0, i)), ...d.flush(), ...d.push(full.slice(i)), ...d.flush()];
      expect(ev, `split at ${i}`).toEqual([{ kind: 'paste', text: 'copy  done' }]);
    }
  });
});
