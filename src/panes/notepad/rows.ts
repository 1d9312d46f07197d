/**
 * What a notepad entry's row shows, in one place: the view draws these cells (cut to the width) and the `/` filter
 * reads them whole, so a word read on a row (its stamp, its age, `due`, its first line) finds it.
 */
import { cleanLine } from '../../io/sanitize.js';
import { isDue, type NotepadEntry } from '../../store/notepad/model.js';
import { formatAge } from '../../ui/format.js';

export interface EntryCells {
  /** The stamp in full (`2026-12-01 14:02`), `(untimed)` for text before the first stamp. */
  stamp: string;
  /** Its age (`3d`), `?` for a stamp no date reads, empty for untimed text. */
  age: string;
  /** A Working Memory entry OMC's prune (7 days) takes next: the row says `due`. */
  due: boolean;
  /** The entry's first line that is not blank. */
  text: string;
}

export function entryCells(e: NotepadEntry, now: number, prunable: boolean): EntryCells {
  return {
    stamp: e.stamp ?? '(untimed)',
    age: e.atMs === null ? (e.stamp === null ? '' : '?') : formatAge(e.atMs, now),
    due: prunable && isDue(e, now),
    text: cleanLine(e.display.split('\n').find((l) => l.trim() !== '') ?? ''),
  };
}

/** The `due ` tag a row draws before its text. */
export const DUE_TAG = 'due ';

/**
 * The words the `/` filter reads in an entry: its row's cells, and the rest of its text (the preview under the list
 * shows it for the selected entry, and the filter has always searched it).
 */
export function entrySearchText(e: NotepadEntry, now: number, prunable: boolean): string {
  const c = entryCells(e, now, prunable);
  return `${c.stamp} ${c.age} ${c.due ? DUE_TAG : ''}${c.text} ${e.display}`;
}
