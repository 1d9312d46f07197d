/** Wrapped lines keep their indent; timestamps and paths stay whole; long JSON breaks at separators, not mid-word. */
import { describe, expect, it } from 'vitest';
import { wrapText, width } from '../../src/ui/format.js';

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
});
