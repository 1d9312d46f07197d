/** Wrapped lines keep their indent; paths and JSON break at separators, not mid-word. */
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

  it('a path breaks after a slash, JSON after a comma or colon, never inside a name', () => {
    const p = wrapText('file: state/sessions/88727f43-cac5-4a42-a0b2-95e28cf65511/ralph-state.json', 40);
    for (const l of p.slice(0, -1)) expect(l).toMatch(/[/:-]$|file:$/);
    expect(p.join('')).toContain('ralph-state.json');
    const j = wrapText('{"mode":"ralph","sessionId":"88727f43","updatedBy":"state_write_tool"}', 24);
    for (const l of j.slice(0, -1)) expect(l).toMatch(/[,:_]$/);
    expect(j.join('')).toBe('{"mode":"ralph","sessionId":"88727f43","updatedBy":"state_write_tool"}');
  });

  it('never exceeds the width, and cuts mid-word only a run with no separator', () => {
    const text = `  ${'x'.repeat(50)} and ${'a/b'.repeat(20)}`;
    for (const w of [5, 10, 17, 40]) for (const l of wrapText(text, w)) expect(width(l)).toBeLessThanOrEqual(w);
    expect(wrapText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});
