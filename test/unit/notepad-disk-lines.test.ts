/**
 * The text on disk in a refused save's editor (src/panes/notepad/conflict-lines.ts): line for line, cut to the room
 * given with the lines not shown counted, and the draft's share of the screen.
 */
import { describe, expect, it } from 'vitest';
import { diskLines, diskRoom } from '../../src/panes/notepad/conflict-lines.js';

const disk = 'first\nsecond\nthird\nfourth\n';

describe('diskLines', () => {
  it('labels the first line, indents the rest, drops the trailing newline', () => {
    expect(diskLines(disk, 40, 10)).toEqual(['On disk now: first', '  second', '  third', '  fourth']);
  });

  it('counts what it cuts, on a line of its own or, with one line of room, at its end', () => {
    expect(diskLines(disk, 40, 3)).toEqual(['On disk now: first', '  second', '  … 2 more lines']);
    expect(diskLines(disk, 40, 2)).toEqual(['On disk now: first', '  … 3 more lines']);
    expect(diskLines('one\ntwo', 40, 1)).toEqual(['On disk now: one … 1 more line']);
    expect(diskLines(disk, 24, 1)).toEqual(['On disk no… 3 more lines']);
    expect(diskLines(disk, 40, 0)).toEqual([]);
  });

  it('keeps the draft a third of the free lines, at least its cursor line, never more than it has', () => {
    expect(diskRoom(30, 2)).toBe(28);
    expect(diskRoom(30, 50)).toBe(20);
    expect(diskRoom(2, 5)).toBe(1);
    expect(diskRoom(1, 5)).toBe(0);
    expect(diskRoom(0, 0)).toBe(0);
  });
});
