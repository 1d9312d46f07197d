/**
 * LogTail's line numbers are the file's own (what `grep -n` gives) when it reads only a file's end or passes
 * over a burst: the newlines of the part not read are counted (a byte scan, over more than one chunk), the
 * whole lines in it are reported unread, a line whose start was not read or that outgrew `maxLineBytes` is
 * reported with its length and still takes its number, and where the part was not counted no number is made up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { LogTail, type TailPoll } from '../../src/io/log-tail.js';

type Lines = Extract<TailPoll, { kind: 'lines' }>;

function lines(p: TailPoll): Lines {
  if (p.kind !== 'lines') throw new Error(`expected lines, got ${p.kind}`);
  return p;
}

/** `n` lines `line 1`, `line 2`, … each padded to `width` bytes with its newline. */
function numbered(from: number, n: number, width: number): string {
  let s = '';
  for (let i = from; i < from + n; i++) s += `line ${i} `.padEnd(width - 1, '.') + '\n';
  return s;
}

describe('LogTail line numbers', () => {
  it('a first read of the last bytes numbers its lines as the file does, past a 1 MB count chunk', ({ tempDir }) => {
    const dir = tempDir('tail-');
    // 40,000 lines of 50 bytes: 2 MB before the part read, counted in more than one chunk.
    fs.writeFileSync(path.join(dir, 'log.jsonl'), numbered(1, 40_000, 50));
    const tail = new LogTail(dir, 'log.jsonl', 175, { countSkippedUpTo: 64 << 20 });
    const p = lines(tail.poll());
    // 175 bytes from the end: the last three lines whole, the one before cut (its last 25 bytes read).
    expect(p.lines.map((l) => [l.lineNo, l.text.split(' ')[1]])).toEqual([
      [39_998, '39998'],
      [39_999, '39999'],
      [40_000, '40000'],
    ]);
    expect(p.unreadLines).toEqual({ from: 1, to: 39_996 });
    expect(p.partLines).toEqual([{ lineNo: 39_997, why: 'start-not-read', bytes: 49, whole: true }]);
    fs.appendFileSync(path.join(dir, 'log.jsonl'), numbered(40_001, 1, 50));
    expect(lines(tail.poll()).lines.map((l) => l.lineNo)).toEqual([40_001]);
  });

  it('a burst larger than a poll reads: the lines passed over are said, the next ones keep their numbers', ({
    tempDir,
  }) => {
    const dir = tempDir('tail-');
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, numbered(1, 2, 20) + 'half a li');
    const tail = new LogTail(dir, 'log.jsonl', 100, { countSkippedUpTo: 64 << 20 });
    expect(lines(tail.poll()).lines.map((l) => l.lineNo)).toEqual([1, 2]);
    // Line 3 was being read when 1,000 lines (20 KB) came: it and lines 4…1000 are passed over.
    fs.appendFileSync(file, 'ne\n' + numbered(4, 1000, 20));
    const p = lines(tail.poll());
    expect(p.unreadLines).toEqual({ from: 3, to: 998 });
    expect(p.partLines).toEqual([]);
    expect(p.lines.map((l) => l.lineNo)).toEqual([999, 1000, 1001, 1002, 1003]);
    expect(p.lines[0]!.text).toMatch(/^line 999 /);
  });

  it('a line dropped for outgrowing maxLineBytes still takes its number', ({ tempDir }) => {
    const dir = tempDir('tail-');
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, numbered(1, 1, 20) + 'x'.repeat(300));
    const tail = new LogTail(dir, 'log.jsonl', 10_000, { maxLineBytes: 100, countSkippedUpTo: 64 << 20 });
    const first = lines(tail.poll());
    expect(first.lines.map((l) => l.lineNo)).toEqual([1]);
    expect(first.partLines).toEqual([{ lineNo: 2, why: 'too-long', bytes: 300, whole: false }]);
    fs.appendFileSync(file, 'x'.repeat(50) + '\n' + numbered(3, 1, 20));
    const next = lines(tail.poll());
    expect(next.lines.map((l) => [l.lineNo, l.text.split(' ')[1]])).toEqual([[3, '3']]);
  });

  it('a part too large to count: no line number is made up', ({ tempDir }) => {
    const dir = tempDir('tail-');
    fs.writeFileSync(path.join(dir, 'log.jsonl'), numbered(1, 100, 20));
    const tail = new LogTail(dir, 'log.jsonl', 50, { countSkippedUpTo: 1_000 });
    const p = lines(tail.poll());
    expect(p.lines.map((l) => l.lineNo)).toEqual([null, null]);
    expect(p.unreadLines).toBeNull();
    expect(p.partLines).toEqual([{ lineNo: null, why: 'start-not-read', bytes: null, whole: false }]);
  });
});
