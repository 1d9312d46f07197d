/** Small, pure text helpers shared by the views. */
import { FUTURE_SLACK_MS, isFuture } from '../io/time-ahead.js';
import stringWidth from 'string-width';
import { cleanLine } from '../io/sanitize.js';

export { FUTURE_SLACK_MS, isFuture };

const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;
/**
 * "10s", "5m", "3h", "2d", "56y" (a 1970 stamp), "1ky+" past a thousand years: at most 4 cells, the width of the
 * AGE columns and short enough for a 60-column pane. Under a minute the age moves in 5-second steps: a monitor
 * left open all day repaints a young row every 5 s instead of every second. A time ahead of `now` (isFuture)
 * gets a `+` and at most 3 more cells: "+3h", "+12d", "+<1y", "+2y", "+far" past 99 years; a few seconds ahead
 * reads "0s".
 */
export function formatAge(ms: number | null, now: number): string {
  if (ms === null) return '—';
  if (isFuture(ms, now)) return `+${spanOf(ms - now, true)}`;
  return spanOf(Math.max(0, now - ms), false);
}

/**
 * The age as a phrase: `5m ago`, or `in 400d` for a time ahead of the clock, so a line never says a time to
 * come is `0s ago`. For the places that said `${formatAge(…)} ago`.
 */
export function formatAgo(ms: number | null, now: number): string {
  if (ms === null) return '—';
  if (isFuture(ms, now)) return `in ${spanOf(ms - now, false)}`;
  return `${formatAge(ms, now)} ago`;
}

/**
 * Every character formatAge (and the future form) may write, lower-cased: a filter word holding any other cannot be
 * in an age, so a list need not look at the clock for it.
 */
export const AGE_CHARS = '0123456789smhdy+<fark\u2014';

/** One span in words of at most 4 cells (3 when `short`, for the `+` of a future age). */
function spanOf(d: number, short: boolean): string {
  const s = Math.floor(d / 1000);
  if (s < 60) return `${s - (s % 5)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  const days = Math.floor(d / DAY_MS);
  if (days < (short ? 100 : 365)) return `${days}d`;
  const y = Math.floor(d / YEAR_MS);
  if (short) return y < 1 ? '<1y' : y < 100 ? `${y}y` : 'far';
  return y < 1000 ? `${y}y` : '1ky+';
}

/**
 * The stretch of the clock, `from` to `to` (both included), around `now` in which formatAge(ms, ·) reads as it does at
 * `now`. A list that keeps rows by the ages they show (a `/` filter word such as "5m") keeps its answer for that
 * stretch: a frame, its footer and its settle step each read the clock a few ms apart, and at 10,000 rows each
 * reading filtered them all again (peers bench, 2026-12-07). Each end is 1 ms inside the reading's true stretch, so a
 * float's rounding never lets it reach into the next one; it is never narrower than `now` itself.
 */
export function sameAgeSpan(ms: number | null, now: number): { from: number; to: number } {
  if (ms === null) return { from: -Infinity, to: Infinity };
  let from: number;
  let to: number;
  if (isFuture(ms, now)) {
    // "+3h": the span ahead shrinks as the clock goes on. Its step starts at 5 s or more (more than the slack ahead
    // is a future age), so the stretch ends before the age reads as past.
    const [lo, hi] = spanBucket(ms - now, true);
    from = ms - hi + 1;
    to = ms - lo - 1;
  } else if (now >= ms) {
    const [lo, hi] = spanBucket(now - ms, false);
    from = ms + lo + 1;
    to = ms + hi - 1;
  } else return { from: now, to: now }; // a few seconds ahead, read as "0s": rare, not worth a stretch
  return { from: Math.min(from, now), to: Math.max(to, now) };
}

/** The durations [lo, hi) that spanOf writes as it writes `d` (hi may be Infinity): spanOf's steps, in ms. */
function spanBucket(d: number, short: boolean): [number, number] {
  const step = (unit: number): [number, number] => {
    const lo = d - (d % unit);
    return [lo, lo + unit];
  };
  if (d < 60_000) return step(5_000);
  if (d < 3_600_000) return step(60_000);
  if (d < 48 * 3_600_000) return step(3_600_000);
  const daysEnd = (short ? 100 : 365) * DAY_MS;
  if (d < daysEnd) return step(DAY_MS);
  const last = short ? 100 : 1000; // "far", "1ky+" from here on
  const y = Math.floor(d / YEAR_MS);
  if (y >= last) return [last * YEAR_MS, Infinity];
  return [Math.max(daysEnd, y * YEAR_MS), (y + 1) * YEAR_MS];
}

/**
 * When the repaint ticker should next redraw an age: when formatAge(ms) would
 * print something different, except that minute labels change on the next
 * half-minute of the wall clock and hour labels on the next minute. Every
 * row then turns over at the same few instants (with the header clock), so a
 * screenful of rows of scattered ages costs 2 frames a minute, not one per
 * row; a "5m" may read "4m" for up to 30 s, half the unit it shows (an age is
 * never a whole unit behind). At 2,000 sessions in 200x60 a quarter-minute grid
 * cost 8 frames per idle 120 s window where 4 do (BENCHMARKS.md, "Round three").
 */
export function ageTickMs(ms: number | null, now: number): number {
  if (ms === null) return Infinity;
  // Ahead of the clock: the label counts down coarsely; repaint each minute, and when it turns to a past age.
  if (isFuture(ms, now)) return Math.max(1, Math.min(60_000, ms - FUTURE_SLACK_MS - now + 1));
  const d = Math.max(0, now - ms);
  if (d < 60_000) return 5000 - (d % 5000);
  const onGrid = (exact: number, grid: number) => Math.ceil((now + exact) / grid) * grid - now;
  if (d < 3_600_000) return onGrid(60_000 - (d % 60_000), 30_000);
  return onGrid(3_600_000 - (d % 3_600_000), 60_000);
}

/**
 * Wall-clock time in UTC: the one time zone of the app (OMC stamps notepad
 * entries and state files in UTC; the header labels its clock "UTC").
 */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

export function formatTimestamp(ms: number | null): string {
  if (ms === null) return '—';
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Text that is printable ASCII and the one-cell symbols the rows draw ('·' between modes, '…' where a cell
 * is cut, '—' for no value, '▸' the selection): one cell per UTF-16 unit, no grapheme segmentation. Each row
 * of a `/` keystroke's new screen measured its cells through string-width (test/store/age-tick.test.ts
 * checks these symbols against it).
 */
export const ONE_CELL_TEXT = /^[\x20-\x7e·—–…↑↓←→▸•│]*$/;

/** Terminal cell width (CJK and emoji are 2 cells). */
export const width = (s: string) => (ONE_CELL_TEXT.test(s) ? s.length : stringWidth(s));

/**
 * Width of one character. Everything below U+1100 except combining marks is
 * one cell (Latin, Greek, Cyrillic, box drawing, '·', '…', '▸'), which keeps
 * string-width's grapheme machinery for the characters that need it.
 */
function cellWidth(ch: string): number {
  const cp = ch.codePointAt(0) as number;
  if (cp >= 0x20 && cp < 0x1100 && !(cp >= 0x300 && cp <= 0x36f) && !(cp >= 0x483 && cp <= 0x489)) return 1;
  // string-width allocates on every call (a wiki row with a Japanese title or link measured each character anew on
  // every frame that drew it); one code point's width never changes, so it is asked once per code point.
  let cw = wideWidths.get(cp);
  if (cw === undefined) {
    if (wideWidths.size >= WIDE_WIDTHS_MAX) wideWidths.clear();
    wideWidths.set(cp, (cw = stringWidth(ch)));
  }
  return cw;
}
/** cellWidth's answers for code points past the one-cell range, by code point; cleared when it holds this many. */
const WIDE_WIDTHS_MAX = 4096;
const wideWidths = new Map<number, number>();

/**
 * Cut or pad to exactly `w` terminal cells. Every cell of every row is fitted here, so text that is
 * not plain is also passed through the one sanitiser on its way: a value that reached a view without
 * being cleaned where it was read (a host spec, a name) still carries no control byte, bidi control or
 * disputed-width character to the terminal. Clean text comes out as it went in.
 */
export function fit(s: string, w: number): string {
  if (w <= 0) return '';
  // One cell per UTF-16 unit: a wiki row's tags (' · ') and the list's '↓ more' took the per-character loop below
  // (string-width for each arrow) on every new row of a keystroke.
  if (ONE_CELL_TEXT.test(s)) {
    if (s.length <= w) return s + ' '.repeat(w - s.length);
    return s.slice(0, w - 1) + '…';
  }
  s = cleanLine(s);
  // s.slice(0, end) is what fits so far, `used` cells: one slice at the end, not a string per character.
  let end = 0;
  let used = 0;
  for (const ch of s) {
    const cw = cellWidth(ch);
    if (used + cw > w) {
      // Replace the last cell with an ellipsis when we had to cut: characters are taken off the end (a surrogate
      // pair is one character, as the loop above reads them) until one cell is free.
      while (end > 0 && used + 1 > w) {
        const pair = end >= 2 && isLowSurrogate(s.charCodeAt(end - 1)) && isHighSurrogate(s.charCodeAt(end - 2));
        const last = s.slice(end - (pair ? 2 : 1), end);
        end -= last.length;
        used -= cellWidth(last);
      }
      return s.slice(0, end) + '…' + ' '.repeat(Math.max(0, w - used - 1));
    }
    end += ch.length;
    used += cw;
  }
  return s.slice(0, end) + ' '.repeat(w - used);
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * One cell of a column of `w` cells: the text cut (with `…`) to leave the
 * column's last cell blank, then padded. Every column of every list is laid
 * out with it, so a cut never runs into the next column (`sta…ralph:`).
 */
export function cell(s: string, w: number): string {
  return w <= 0 ? '' : fit(s, w - 1) + ' ';
}

/** Cut to at most `w` cells without padding. */
export function clip(s: string, w: number): string {
  return fit(s, w).replace(/\s+$/, '');
}

/** The one wrapping rule lives on the lowest floor, where the commands (doctor) wrap with it too. */
export { wrapText } from '../io/wrap-text.js';
