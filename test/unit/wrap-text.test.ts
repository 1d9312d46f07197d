/** Wrapped lines keep their indent; timestamps and paths stay whole; long JSON breaks at separators, not mid-word. */
import { describe, expect, it } from 'vitest';
import { width, wrapText } from '../../src/ui/format.js';

describe('wrapText', () => {
  it('continuation lines keep the indent of the line they continue', () => {
    const lines = wrapText('    prompt: fix all TypeScript errors in the checkout flow before release', 30);
    expect(lines[0]).toBe('    prompt: fix all TypeScript');
    for (const l of lines.slice(1)) expect(l.startsWith('    ') && !l.startsWith('     ')).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ').trim()).toBe(
      'prompt: fix all TypeScript errors in the checkout flow before release',
    );
  });

  it('a path stays on one line; one longer than the line is shortened once in its middle', () => {
    const p = wrapText('file: state/sessions/88727f43-cac5-4a42-a0b2-95e28cf65511/ralph-state.json', 40);
    expect(p[0]).toBe('file:');
    expect(p).toHaveLength(2);
    expect(p[1]).toMatch(/^state\/sessions\/.*….*\/ralph-state\.json$/);
    expect(p[1]!.split('…')).toHaveLength(2);
    expect(width(p[1]!)).toBe(40);
    // A path that fits on a line of its own moves there whole.
    expect(wrapText('could not read /home/dev/.omc/state/x.json today', 30)).toEqual([
      'could not read',
      '/home/dev/.omc/state/x.json',
      'today',
    ]);
  });

  it('JSON longer than the line breaks after a comma or colon, never inside a name', () => {
    const j = wrapText('{"mode":"ralph","sessionId":"88727f43","updatedBy":"state_write_tool"}', 24);
    for (const l of j.slice(0, -1)) expect(l).toMatch(/[,:_]$/);
    expect(j.join('')).toBe('{"mode":"ralph","sessionId":"88727f43","updatedBy":"state_write_tool"}');
  });

  it('a timestamp (date and time) is never split across lines', () => {
    const text = 'the Stop hook stopped at 12:34:56 and the run ended 2026-12-02 05:59:07Z (2m ago)';
    for (let w = 20; w <= 60; w++) {
      const lines = wrapText(text, w);
      expect(
        lines.some((l) => l.includes('12:34:56')),
        `at ${w}: ${JSON.stringify(lines)}`,
      ).toBe(true);
      expect(
        lines.some((l) => l.includes('2026-12-02 05:59:07Z')),
        `at ${w}: ${JSON.stringify(lines)}`,
      ).toBe(true);
      expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(text);
    }
  });

  it('wide (CJK) words wrap by cells and stay whole', () => {
    for (const l of wrapText('決済フロー設計 の ページ 決済フロー設計', 16)) expect(width(l)).toBeLessThanOrEqual(16);
    expect(wrapText('決済フロー設計 決済フロー設計', 16)).toEqual(['決済フロー設計', '決済フロー設計']);
  });

  it('never exceeds the width, and cuts mid-word only a run with no separator', () => {
    const text = `  ${'x'.repeat(50)} and ${'a/b'.repeat(20)}`;
    for (const w of [5, 10, 17, 40]) for (const l of wrapText(text, w)) expect(width(l)).toBeLessThanOrEqual(w);
    expect(wrapText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('never leaves a key at the end of a line and its meaning on the next, at any width', () => {
    // The nested-root notice at 80 columns read `…from hooks started in tmp/nr/): O` / `switches to it (+568 more)`.
    const notice =
      'OMC state also in tmp/nr/.omc (0 sessions, from hooks started in tmp/nr/): O switches to it (+568 more)';
    expect(wrapText(notice, 80)).toEqual([
      'OMC state also in tmp/nr/.omc (0 sessions, from hooks started in tmp/nr/):',
      'O switches to it (+568 more)',
    ]);
    const hints: Array<[text: string, pairs: string[]]> = [
      [notice, ['O switches']],
      [
        'press c to clean it up (the cancel plan, shown before anything is written), or J to its tmux pane to resume it',
        ['c to', 'J to'],
      ],
      ['your draft is kept. Ctrl-S again saves it as a new entry, Esc discards it', ['Ctrl-S again', 'Esc discards']],
      ['a nested root is shown now, and you can go back to the first one (O switches back)', ['(O switches']],
      ['Enter opens the page · Esc back to the list', ['Enter opens', 'Esc back']],
      ['cancel did not take 3 times: press I to interrupt Claude (SIGINT to pid 4242)', ['I to']],
    ];
    for (const [text, pairs] of hints)
      for (let w = 20; w <= 80; w++) {
        const lines = wrapText(text, w);
        for (const l of lines) expect(width(l)).toBeLessThanOrEqual(w);
        expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(text);
        for (const pair of pairs)
          expect(
            lines.some((l) => l.includes(pair)),
            `"${pair}" at ${w}: ${JSON.stringify(lines)}`,
          ).toBe(true);
      }
  });

  it('a key before a path leaves the path its own rule (whole on a line, or shortened in its middle)', () => {
    const lines = wrapText('press x state/sessions/88727f43-cac5-4a42-a0b2-95e28cf65511/ralph-state.json', 30);
    expect(lines[0]).toBe('press x');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^state\/sessions.*….*-state\.json$/);
    expect(width(lines[1]!)).toBe(30);
  });
});

describe('wrapText asWritten (doctor on a terminal)', () => {
  it('a path longer than the line breaks after a `/`, never shortened; a word with no `/` stands whole', () => {
    const text = 'found at /home/dev/projects/checkout-service/.omc/state/sessions and a_very_long_identifier_here';
    expect(wrapText(text, 24, { asWritten: true })).toEqual([
      'found at',
      '/home/dev/projects/',
      'checkout-service/.omc/',
      'state/sessions and',
      'a_very_long_identifier_here',
    ]);
    // The views' rule shortens that path and cuts that word to the line.
    expect(wrapText(text, 24).join('\n')).toContain('…');
  });

  it('nothing glued: a one-letter word may end a line, and a run of spaces reads as one', () => {
    expect(wrapText('  press  q to   quit now', 8, { asWritten: true })).toEqual(['press q', 'to quit', 'now']);
    expect(wrapText('  press  q to   quit now', 8)).toEqual(['  press', '  q to', '  quit', '  now']);
  });
});
