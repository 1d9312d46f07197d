/**
 * The `/` filter of the list panes: a row is kept when every word typed is in the text the row shows, case aside.
 * Each pane gives that text from the same function its view draws the row's cells with (whole: a narrow column
 * cuts the drawing, not what the filter finds), so a word read on a row always finds it.
 */

/** The words of a filter, lower-cased; none for a blank one. */
export const filterWords = (filter: string): string[] => filter.trim().toLowerCase().split(/\s+/).filter(Boolean);

/** Every word is in `shown` (a row's shown text, any case). */
export function showsEveryWord(shown: string, words: readonly string[]): boolean {
  const h = shown.toLowerCase();
  return words.every((w) => h.includes(w));
}

/**
 * Filtered rows kept per source (a snapshot) and query, for rows whose shown text moves with the clock (an age, a
 * `due` mark): an answer is reused for the same `now` only, so the rows kept are those whose text as drawn at that
 * moment holds the words. One answer per query: a moving clock replaces it instead of keeping one per moment.
 */
export class ClockedRowsMemo<S extends object, R> {
  private readonly memo = new WeakMap<S, Map<string, { now: number; rows: R[] }>>();

  rows(source: S, query: string, now: number, compute: () => R[]): R[] {
    let byQuery = this.memo.get(source);
    if (!byQuery) this.memo.set(source, (byQuery = new Map()));
    const hit = byQuery.get(query);
    if (hit && hit.now === now) return hit.rows;
    const rows = compute();
    byQuery.set(query, { now, rows });
    return rows;
  }
}
