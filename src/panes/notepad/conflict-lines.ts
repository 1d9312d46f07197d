/**
 * The editor's lines about a refused save: what changed on disk, and the text on disk now, as much of it as the
 * screen holds. The user decides from it whether Ctrl-S again should replace that text, so it is shown line for
 * line (not run together on one line) and, when it is cut, the lines not shown are counted.
 */
import { cleanBlockShown } from '../../io/sanitize.js';
import { clip, width as cells, wrapText } from '../../ui/format.js';

const DISK_LABEL = 'On disk now: ';

const moreLines = (n: number) => `… ${n} more ${n === 1 ? 'line' : 'lines'}`;

/** The text on disk in at most `room` lines of `width`: the first one labelled, the rest indented, a cut counted. */
export function diskLines(disk: string, width: number, room: number): string[] {
  if (room <= 0) return [];
  const lines: string[] = [];
  cleanBlockShown(disk)
    .replace(/\n+$/, '')
    .split('\n')
    .forEach((line, i) => lines.push(...wrapText(i === 0 ? `${DISK_LABEL}${line}` : `  ${line}`, width)));
  if (lines.length <= room) return lines;
  if (room === 1) {
    // One line only: its end says how much is not shown (a cut line's own … stands for the count's).
    const first = lines[0] as string;
    const more = ` ${moreLines(lines.length - 1)}`;
    if (cells(first) + more.length <= width) return [`${first}${more}`];
    const count = more.slice(2);
    return [`${clip(first, Math.max(1, width - count.length))}${count}`];
  }
  const kept = lines.slice(0, room - 1);
  return [...kept, `  ${moreLines(lines.length - kept.length)}`];
}

/**
 * How many lines the text on disk may take in an editor of `free` lines (those left once the title, the banner's
 * other lines and the keys line have theirs): all it needs when the screen has room, while the draft keeps a
 * third of them (at least one line, the cursor's, and no more than it has).
 */
export function diskRoom(free: number, draftRows: number): number {
  const draft = Math.min(Math.max(1, draftRows), Math.max(1, Math.floor(free / 3)));
  return Math.max(0, free - draft);
}
